#include "sim/solvers/grid_solver.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <memory>
#include <mutex>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <glm/geometric.hpp>

#include "sim/solvers/biot_savart.h"
#include "sim/solvers/grid_solver_fft.h"

namespace vorton {

// ---- GridKernelStore ----------------------------------------------------------------------

GridKernelStore::Kernel GridKernelStore::Find(glm::ivec3 padded, glm::vec3 spacing, float sigma2) {
    std::lock_guard lock(m_mutex);
    const auto hit = std::find_if(m_entries.begin(), m_entries.end(),
                                  [&](const Transform& e) { return e.Matches(padded, spacing, sigma2); });
    if (hit == m_entries.end()) return nullptr;
    std::rotate(m_entries.begin(), hit, hit + 1);
    return m_entries.front().kernel;
}

void GridKernelStore::Add(glm::ivec3 padded, glm::vec3 spacing, float sigma2, Kernel kernel) {
    std::lock_guard lock(m_mutex);
    std::erase_if(m_entries, [&](const Transform& e) { return e.Matches(padded, spacing, sigma2); });
    m_entries.insert(m_entries.begin(), Transform{padded, spacing, sigma2, std::move(kernel)});
    // The newest always stays; older ones while the count and the bytes allow.
    std::size_t bytes = 0, keep = 0;
    while (keep < m_entries.size() && keep < kMaxEntries) {
        const std::size_t size = m_entries[keep].Bytes();
        if (keep > 0 && bytes + size > kMaxBytes) break;
        bytes += size;
        ++keep;
    }
    m_entries.resize(keep);
}

std::size_t GridKernelStore::Bytes() {
    std::lock_guard lock(m_mutex);
    std::size_t bytes = 0;
    for (const Transform& e : m_entries) bytes += e.Bytes();
    return bytes;
}

// ---- GridSolver ---------------------------------------------------------------------------

GridSolver::GridSolver(GridStencil stencil)
    : m_stencil(stencil), m_fft(std::make_unique<Fft>()), m_store(std::make_shared<GridKernelStore>()) {}
GridSolver::~GridSolver() = default;
GridSolver::GridSolver(GridSolver&&) noexcept = default;
GridSolver& GridSolver::operator=(GridSolver&&) noexcept = default;

void GridSolver::UseKernelStore(std::shared_ptr<GridKernelStore> store) {
    assert(store);
    m_store = std::move(store);
}

void GridSolver::Configure(const GridGeometry& grid, float sigma2) {
    const glm::ivec3 n = grid.points;
    assert(n.x >= 2 && n.y >= 2 && n.z >= 2);
    const glm::ivec3 padded(GridFftSize(2 * n.x - 1, FftLine::kRealToComplex), GridFftSize(2 * n.y - 1, FftLine::kComplex),
                            GridFftSize(2 * n.z - 1, FftLine::kComplex));
    m_grid = grid;
    if (!m_current.Matches(padded, grid.spacing, sigma2)) {
        if (padded != m_fft->size) m_fft->MakePlans(padded);
        m_current = KernelTransform{padded, grid.spacing, sigma2, m_store->Find(padded, grid.spacing, sigma2)};
        if (!m_current.kernel) {
            m_current.kernel = std::make_shared<const std::vector<float>>(ComputeKernel());
            m_store->Add(padded, grid.spacing, sigma2, m_current.kernel);
        }
    }
    const std::size_t spectrumSize = std::size_t(m_fft->nxc) * padded.y * n.z;
    for (auto& s : m_spectrum) s.resize(spectrumSize);
    m_alpha.resize(grid.PointCount());
    m_velocity.resize(grid.PointCount());
}

std::vector<float> GridSolver::ComputeKernel() const {
    Fft& fft = *m_fft;
    const glm::ivec3 N = m_current.padded;
    assert(fft.size == N);
    const glm::dvec3 h(m_current.spacing);
    const double sigma2 = m_current.sigma2;
    // The octant kept: y wavenumbers j ≤ N.y/2 and z wavenumbers k ≤ N.z/2 (KernelTransform).
    const int ny = N.y / 2 + 1, nz = N.z / 2 + 1;
    std::vector<float> kernel;
    // One component's spectrum, only while the kernel changes: the z planes
    // k < nz, the others being their mirror images.
    std::vector<Complex> full(std::size_t(fft.nxc) * N.y * nz);
    Complex* const spectra[1] = {full.data()};
    // Offsets on the periodic padded grid by minimum image: index m is offset
    // m for m < N/2 and m − N above, which covers every difference
    // −(n−1) … n−1 of two unpadded points since N ≥ 2n − 1.
    auto offset = [&](int m, int a) { return (2 * m < N[a] ? m : m - N[a]) * h[a]; };
    const double scale = double(kOneOverFourPi) / (double(N.x) * N.y * N.z);
    const int batches = (fft.nxc + kBatch - 1) / kBatch;
    // Lanes past the last x wavenumber of the last batch stay 0.
    kernel.assign(std::size_t(ny) * batches * kBatch * nz * 3, 0.0f);
    for (int c = 0; c < 3; ++c) {
        // Index m and its mirror N − m along y or z are offsets ±m·h exactly
        // ((−m)·h = −(m·h)), so the sampled K_c at the mirror is the same up to
        // the sign s = −1 along c, +1 along the others, and so is the
        // transform of its line along x, bit for bit (a DFT of −f is −DFT f in
        // IEEE arithmetic). The x lines are sampled and transformed for the
        // octant only, and the rest are those copies.
        const bool flipY = c == 1, flipZ = c == 2;
        fft.ForwardX(spectra, ny, nz, [&](int, int j, int k, float* line) {
            // K_c is odd along c: at the Nyquist index (its own mirror image,
            // never an offset two unpadded points have) it must be 0 for the
            // transform to be purely imaginary.
            if ((c == 1 && 2 * j == N.y) || (c == 2 && 2 * k == N.z)) {
                std::fill(line, line + N.x, 0.0f);
                return;
            }
            const double y = offset(j, 1), z = offset(k, 2);
            // Index i and its mirror N.x − i: the same, along x.
            for (int i = 0; 2 * i <= N.x; ++i) {
                const glm::dvec3 r(offset(i, 0), y, z);
                const double q = glm::dot(r, r) + sigma2;
                const double d = q * std::sqrt(q);
                const bool mirrored = i > 0 && 2 * i < N.x;
                if (c == 0) {
                    line[i] = 2 * i == N.x ? 0.0f : float(r.x / d);
                    if (mirrored) line[N.x - i] = float(-r.x / d);
                } else {
                    line[i] = float(r[c] / d);
                    if (mirrored) line[N.x - i] = line[i];
                }
            }
        });
        tbb::parallel_for(tbb::blocked_range<int>(0, nz), [&](const tbb::blocked_range<int>& r) {
            for (int k = r.begin(); k != r.end(); ++k) {
                for (int j = ny; j < N.y; ++j) {
                    const Complex* from = full.data() + fft.Index(0, N.y - j, k);
                    std::transform(from, from + fft.nxc, full.data() + fft.Index(0, j, k),
                                   [&](Complex v) { return flipY ? -v : v; });
                }
            }
        });
        // The y lines of each kept plane, which need every j.
        fft.TransformY(spectra, nz, N.y, N.y, true);
        // The z lines of the kept y wavenumbers, each batch written straight
        // into the kernel's order (batch t = j·batches + i0/kBatch, then lane,
        // z, component): a batch's block is contiguous there, so the batches
        // write disjoint blocks in parallel, and the value each gets does not
        // depend on which thread. A plane k ≥ nz is the sign copy of N.z − k,
        // as after the x transform (transforms along y keep it exact).
        Fft::ForBatches(ny, fft.nxc, [&](int j, int i0) {
            LineScratch& s = fft.Local();
            const int lines = std::min(kBatch, fft.nxc - i0);
            const std::size_t stride = std::size_t(fft.nxc) * N.y;
            Complex* z = s.line[0].data();
            Fft::Gather(full.data() + fft.Index(i0, j, 0), stride, nz, N.z, lines, z);
            for (int b = 0; b < lines; ++b) {
                Complex* line = z + std::size_t(b) * N.z;
                for (int k = nz; k < N.z; ++k) line[k] = flipZ ? -line[N.z - k] : line[N.z - k];
            }
            fftwf_execute_dft(fft.forwardZ.get(), AsFftw(z), AsFftw(z));
            float* block = kernel.data() + (std::size_t(j) * batches + std::size_t(i0 / kBatch)) * kBatch * nz * 3;
            for (int b = 0; b < lines; ++b) {
                for (int k = 0; k < nz; ++k) {
                    block[(std::size_t(b) * nz + k) * 3 + c] =
                        float(double(z[std::size_t(b) * N.z + k].imag()) * scale);
                }
            }
        });
    }
    return kernel;
}

void GridSolver::Solve(const GridGeometry& grid, const VortonSources& sources, bool gradient) {
    assert(sources.alpha.size() == sources.position.size() &&
           sources.sigma2.size() == sources.position.size());
    // One core radius for the kernel: exactly the common σ² when all agree,
    // else the |α|-weighted mean (in double, summed in index order).
    float sigma2 = sources.sigma2.empty() ? 0.0f : sources.sigma2[0];
    if (std::any_of(sources.sigma2.begin(), sources.sigma2.end(),
                    [&](float s) { return s != sigma2; })) {
        double weighted = 0.0, weight = 0.0;
        for (std::size_t k = 0; k < sources.sigma2.size(); ++k) {
            const double w = glm::length(glm::dvec3(sources.alpha[k]));
            weighted += w * sources.sigma2[k];
            weight += w;
        }
        if (weight > 0.0) sigma2 = float(weighted / weight);
    }
    Configure(grid, sigma2);
    if (sources.position.empty()) {
        std::fill(m_velocity.begin(), m_velocity.end(), glm::vec3(0.0f));
        if (gradient) {
            m_packed.assign(4 * grid.PointCount(), Packed4{0.0f, 0.0f, 0.0f, 0.0f});
        } else {
            m_packed.clear();
        }
        return;
    }
    Assign(sources);
    Convolve();
    if (gradient) {
        ComputeGradient();
    } else {
        m_packed.clear();
    }
}

void GridSolver::Convolve() {
    Fft& fft = *m_fft;
    const glm::ivec3 n = m_grid.points, N = m_current.padded;
    Complex* const spectra[3] = {m_spectrum[0].data(), m_spectrum[1].data(), m_spectrum[2].data()};

    // Forward: x lines of the unpadded grid only, then y lines of the
    // unpadded z planes only; the padding is never transformed as data.
    fft.ForwardX(spectra, n.y, n.z, [&](int c, int j, int k, float* line) {
        const glm::vec3* row = m_alpha.data() + m_grid.Index(0, j, k);
        for (int i = 0; i < n.x; ++i) line[i] = row[i][c];
        std::fill(line + n.x, line + N.x, 0.0f);
    });
    fft.TransformY(spectra, n.z, n.y, N.y, true);

    // z lines: forward, multiply by the kernel, inverse, keep z < n.z. In
    // Fourier space v̂ = α̂ × K̂ with K̂_c = iG_c (G real, 1/(4π N.x N.y N.z) folded in).
    const int nxc = fft.nxc, batches = (nxc + kBatch - 1) / kBatch;
    const int ny = N.y / 2 + 1, nz = N.z / 2 + 1;
    const std::size_t zStride = std::size_t(nxc) * N.y;
    Fft::ForBatches(N.y, nxc, [&](int j, int i0) {
        LineScratch& s = fft.Local();
        const int lines = std::min(kBatch, nxc - i0);
        for (int c = 0; c < 3; ++c) {
            Fft::Gather(spectra[c] + fft.Index(i0, j, 0), zStride, n.z, N.z, lines,
                        s.line[c].data());
            fftwf_execute_dft(fft.forwardZ.get(), AsFftw(s.line[c].data()),
                              AsFftw(s.line[c].data()));
        }
        // The kernel's octant (KernelTransform): G_c is odd along c and even
        // along the others, in y and in z wavenumbers alike.
        const bool mirrorY = j >= ny;
        const float* kernel = m_current.kernel->data() +
                              (std::size_t(mirrorY ? N.y - j : j) * batches + i0 / kBatch) * kBatch * nz * 3;
        const float sy = mirrorY ? -1.0f : 1.0f;
        for (int b = 0; b < lines; ++b) {
            const float* g = kernel + std::size_t(b) * nz * 3;
            Complex* lx = s.line[0].data() + std::size_t(b) * N.z;
            Complex* ly = s.line[1].data() + std::size_t(b) * N.z;
            Complex* lz = s.line[2].data() + std::size_t(b) * N.z;
            auto cross = [&](int k, float gx, float gy, float gz) {
                const Complex ax = lx[k], ay = ly[k], az = lz[k];
                const Complex cx = ay * gz - az * gy, cy = az * gx - ax * gz, cz = ax * gy - ay * gx;
                // Multiply by i: (re, im) → (−im, re).
                lx[k] = Complex(-cx.imag(), cx.real());
                ly[k] = Complex(-cy.imag(), cy.real());
                lz[k] = Complex(-cz.imag(), cz.real());
            };
            for (int k = 0; k < nz; ++k) cross(k, g[3 * k], sy * g[3 * k + 1], g[3 * k + 2]);
            for (int k = nz; k < N.z; ++k) {
                const float* m = g + 3 * (N.z - k);
                cross(k, m[0], sy * m[1], -m[2]);
            }
        }
        for (int c = 0; c < 3; ++c) {
            fftwf_execute_dft(fft.inverseZ.get(), AsFftw(s.line[c].data()),
                              AsFftw(s.line[c].data()));
            Fft::Scatter(s.line[c].data(), n.z, N.z, lines, zStride,
                         spectra[c] + fft.Index(i0, j, 0));
        }
    });

    // Inverse: y lines of the unpadded z planes, keeping y < n.y, then x lines
    // of the unpadded grid, keeping x < n.x.
    fft.TransformY(spectra, n.z, N.y, n.y, false);
    fft.InverseX(spectra, n.y, n.z, [&](int c, int j, int k, const float* line) {
        glm::vec3* row = m_velocity.data() + m_grid.Index(0, j, k);
        for (int i = 0; i < n.x; ++i) row[i][c] = line[i];
    });
}

// ---- Velocity gradient on the grid --------------------------------------------------------

void GridSolver::ComputeGradient() {
    const glm::ivec3 n = m_grid.points;
    const std::ptrdiff_t stride[3] = {1, std::ptrdiff_t(n.x), std::ptrdiff_t(n.x) * n.y};
    const glm::vec3 inverse = 1.0f / m_grid.spacing;
    m_packed.resize(4 * m_grid.PointCount());
    tbb::parallel_for(tbb::blocked_range<int>(0, n.z), [&](const tbb::blocked_range<int>& r) {
        for (int k = r.begin(); k != r.end(); ++k) {
            for (int j = 0; j < n.y; ++j) {
                for (int i = 0; i < n.x; ++i) {
                    const int ijk[3] = {i, j, k};
                    const std::size_t g = m_grid.Index(i, j, k);
                    const glm::vec3* v = m_velocity.data() + g;
                    Packed4* packed = m_packed.data() + 4 * g;
                    packed[0] = Packed4{v->x, v->y, v->z, 0.0f};
                    for (int a = 0; a < 3; ++a) {
                        const int m = ijk[a], last = n[a] - 1;
                        const std::ptrdiff_t s = stride[a];
                        glm::vec3 d;
                        if (m >= 2 && m + 2 <= last) {
                            // Fourth-order central difference.
                            d = (8.0f * (v[s] - v[-s]) - (v[2 * s] - v[-2 * s])) * (1.0f / 12.0f);
                        } else if (m >= 1 && m + 1 <= last) {
                            d = 0.5f * (v[s] - v[-s]);
                        } else if (last < 2) {
                            d = m == 0 ? v[s] - v[0] : v[0] - v[-s];
                        } else if (m == 0) {
                            d = 0.5f * (4.0f * v[s] - 3.0f * v[0] - v[2 * s]);
                        } else {
                            d = 0.5f * (3.0f * v[0] - 4.0f * v[-s] + v[-2 * s]);
                        }
                        d *= inverse[a];
                        packed[1 + a] = Packed4{d.x, d.y, d.z, 0.0f};
                    }
                }
            }
        }
    });
}

}  // namespace vorton
