#include "grid_solver.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>

#include <fftw3.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <glm/geometric.hpp>

#include "biot_savart.h"

namespace vorton {

namespace {

using Complex = std::complex<float>;

/// Lines per FFTW call: one plan transforms kBatch consecutive lines, gathered
/// from kBatch neighbouring lines of a spectrum (64 bytes per row read). Every
/// line goes through the same plan, and a line's arithmetic depends neither on
/// the other lines of its batch nor on the thread; a partial batch is padded
/// with zero lines. (Consecutive lines measured 1.3–2× faster than FFTW's
/// interleaved layout under FFTW_ESTIMATE.)
constexpr int kBatch = 8;

/// FFTW's planner is not thread-safe; execution with the new-array functions is.
std::mutex& PlannerMutex() {
    static std::mutex mutex;
    return mutex;
}

/// 64-byte aligned storage, so every buffer has the alignment the plans were made for.
template <typename T>
struct AlignedAllocator {
    using value_type = T;
    AlignedAllocator() = default;
    template <typename U>
    AlignedAllocator(const AlignedAllocator<U>&) {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
    }
    void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
    template <typename U>
    bool operator==(const AlignedAllocator<U>&) const {
        return true;
    }
};
template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

fftwf_complex* AsFftw(Complex* p) {
    return reinterpret_cast<fftwf_complex*>(p);
}

struct PlanDeleter {
    void operator()(fftwf_plan_s* plan) const {
        std::lock_guard lock(PlannerMutex());
        fftwf_destroy_plan(plan);
    }
};
using Plan = std::unique_ptr<fftwf_plan_s, PlanDeleter>;

/// Smallest even 2^a 3^b 5^c 7^d ≥ minimum (FFTW is fastest on these).
int FftSize(int minimum) {
    for (int n = std::max(2, minimum + (minimum & 1));; n += 2) {
        int m = n;
        for (int p : {2, 3, 5, 7}) {
            while (m % p == 0) m /= p;
        }
        if (m == 1) return n;
    }
}

// ---- Stencils -----------------------------------------------------------------------------

/// Weights of the stencil points base … base+width−1 along one axis for a
/// point at u (grid units).
template <GridStencil S>
struct Stencil;

template <>
struct Stencil<GridStencil::kM4Prime> {
    static constexpr int kWidth = 4;
    /// M4′(x) = 1 − 5x²/2 + 3|x|³/2 for |x| ≤ 1, (2 − |x|)²(1 − |x|)/2 for
    /// 1 ≤ |x| ≤ 2, written for the four distances 1+t, t, 1−t, 2−t.
    static int Weights(float u, float* w) {
        const float floor = std::floor(u);
        const float t = u - floor, s = 1.0f - t;
        w[0] = -0.5f * t * s * s;
        w[1] = 1.0f - t * t * (2.5f - 1.5f * t);
        w[2] = 1.0f - s * s * (2.5f - 1.5f * s);
        w[3] = -0.5f * t * t * s;
        return int(floor) - 1;
    }
};

template <>
struct Stencil<GridStencil::kCloudInCell> {
    static constexpr int kWidth = 2;
    static int Weights(float u, float* w) {
        const float floor = std::floor(u);
        const float t = u - floor;
        w[0] = 1.0f - t;
        w[1] = t;
        return int(floor);
    }
};

/// Grid units of x along each axis, clamped far outside the grid so the
/// floor fits an int (and NaN goes to the low side); such points carry no weight.
glm::vec3 GridUnits(const GridGeometry& grid, glm::vec3 x) {
    glm::vec3 u = (x - grid.origin) / grid.spacing;
    for (int a = 0; a < 3; ++a) {
        const float hi = float(grid.points[a] + 4);
        if (!(u[a] >= -4.0f)) u[a] = -4.0f;
        if (u[a] > hi) u[a] = hi;
    }
    return u;
}

}  // namespace

// ---- FFT machinery ------------------------------------------------------------------------

/// Per-thread line buffers: kBatch real lines of N.x, and three complex
/// buffers of kBatch consecutive lines (N.x/2+1, N.y or N.z values each).
struct LineScratch {
    AlignedVector<float> real;
    AlignedVector<Complex> line[3];
};

struct GridSolver::Fft {
    glm::ivec3 size{0};
    int nxc = 0;  // N.x/2 + 1 complex values per x line
    Plan forwardX, inverseX, forwardY, inverseY, forwardZ, inverseZ;
    tbb::enumerable_thread_specific<LineScratch> scratch;

    void MakePlans(glm::ivec3 n) {
        size = n;
        nxc = n.x / 2 + 1;
        AlignedVector<float> r(std::size_t(kBatch) * n.x);
        AlignedVector<Complex> c(std::size_t(kBatch) * LineLength());
        fftwf_complex* cc = AsFftw(c.data());
        fftwf_plan plans[6];
        {
            std::lock_guard lock(PlannerMutex());
            // FFTW_ESTIMATE: the plan (so the rounding) is the same on every
            // run; FFTW_MEASURE may pick a different algorithm each time.
            const unsigned flags = FFTW_ESTIMATE;
            plans[0] = fftwf_plan_many_dft_r2c(1, &n.x, kBatch, r.data(), nullptr, 1, n.x, cc,
                                               nullptr, 1, nxc, flags);
            plans[1] = fftwf_plan_many_dft_c2r(1, &n.x, kBatch, cc, nullptr, 1, nxc, r.data(),
                                               nullptr, 1, n.x, flags);
            plans[2] = fftwf_plan_many_dft(1, &n.y, kBatch, cc, nullptr, 1, n.y, cc, nullptr, 1,
                                           n.y, FFTW_FORWARD, flags);
            plans[3] = fftwf_plan_many_dft(1, &n.y, kBatch, cc, nullptr, 1, n.y, cc, nullptr, 1,
                                           n.y, FFTW_BACKWARD, flags);
            plans[4] = fftwf_plan_many_dft(1, &n.z, kBatch, cc, nullptr, 1, n.z, cc, nullptr, 1,
                                           n.z, FFTW_FORWARD, flags);
            plans[5] = fftwf_plan_many_dft(1, &n.z, kBatch, cc, nullptr, 1, n.z, cc, nullptr, 1,
                                           n.z, FFTW_BACKWARD, flags);
        }
        for (fftwf_plan p : plans) {
            if (!p) std::abort();  // FFTW only fails on invalid arguments: a programming error
        }
        forwardX.reset(plans[0]);
        inverseX.reset(plans[1]);
        forwardY.reset(plans[2]);
        inverseY.reset(plans[3]);
        forwardZ.reset(plans[4]);
        inverseZ.reset(plans[5]);
    }

    int LineLength() const { return std::max({nxc, size.y, size.z}); }

    /// This thread's buffers, grown to the current size (allocates only when the size grows).
    LineScratch& Local() {
        LineScratch& s = scratch.local();
        const std::size_t realSize = std::size_t(kBatch) * size.x,
                          lineSize = std::size_t(kBatch) * LineLength();
        if (s.real.size() < realSize) s.real.resize(realSize);
        for (auto& l : s.line) {
            if (l.size() < lineSize) l.resize(lineSize);
        }
        return s;
    }

    std::size_t Index(int i, int j, int k) const { return (std::size_t(k) * size.y + j) * nxc + i; }

    /// Runs body(outer, first) over `outer` × ⌈inner/kBatch⌉ batches of lines, in parallel.
    template <typename Body>
    static void ForBatches(int outer, int inner, Body&& body) {
        const int batches = (inner + kBatch - 1) / kBatch;
        tbb::parallel_for(tbb::blocked_range<int>(0, outer * batches),
                          [&](const tbb::blocked_range<int>& r) {
                              for (int t = r.begin(); t != r.end(); ++t)
                                  body(t / batches, (t % batches) * kBatch);
                          });
    }

    /// Real-to-complex along x for lines j < jCount, k < kCount of each
    /// component: fill(c, j, k, line) writes the N.x reals of a line.
    template <typename Fill>
    void ForwardX(std::span<Complex* const> spectra, int jCount, int kCount, const Fill& fill) {
        ForBatches(kCount, jCount, [&](int k, int j0) {
            LineScratch& s = Local();
            const int lines = std::min(kBatch, jCount - j0);
            for (std::size_t c = 0; c < spectra.size(); ++c) {
                for (int b = 0; b < kBatch; ++b) {
                    float* line = s.real.data() + std::size_t(b) * size.x;
                    if (b < lines) {
                        fill(int(c), j0 + b, k, line);
                    } else {
                        std::fill(line, line + size.x, 0.0f);
                    }
                }
                fftwf_execute_dft_r2c(forwardX.get(), s.real.data(), AsFftw(s.line[0].data()));
                for (int b = 0; b < lines; ++b) {
                    const Complex* from = s.line[0].data() + std::size_t(b) * nxc;
                    std::copy(from, from + nxc, spectra[c] + Index(0, j0 + b, k));
                }
            }
        });
    }

    /// Complex-to-real along x for lines j < jCount, k < kCount: store(c, j, k,
    /// line) reads the N.x reals of a line.
    template <typename Store>
    void InverseX(std::span<Complex* const> spectra, int jCount, int kCount, const Store& store) {
        ForBatches(kCount, jCount, [&](int k, int j0) {
            LineScratch& s = Local();
            const int lines = std::min(kBatch, jCount - j0);
            for (std::size_t c = 0; c < spectra.size(); ++c) {
                for (int b = 0; b < kBatch; ++b) {
                    Complex* to = s.line[0].data() + std::size_t(b) * nxc;
                    if (b < lines) {
                        const Complex* from = spectra[c] + Index(0, j0 + b, k);
                        std::copy(from, from + nxc, to);
                    } else {
                        std::fill(to, to + nxc, Complex(0.0f));
                    }
                }
                fftwf_execute_dft_c2r(inverseX.get(), AsFftw(s.line[0].data()), s.real.data());
                for (int b = 0; b < lines; ++b)
                    store(int(c), j0 + b, k, s.real.data() + std::size_t(b) * size.x);
            }
        });
    }

    /// Copies values m < count of `lines` neighbouring lines from a spectrum,
    /// stepping `stride` per m, into consecutive scratch lines of `length`;
    /// zeros the rest.
    static void Gather(const Complex* from, std::size_t stride, int count, int length, int lines,
                       Complex* to) {
        for (int b = lines; b < kBatch; ++b)
            std::fill_n(to + std::size_t(b) * length, length, Complex(0.0f));
        for (int m = 0; m < count; ++m) {
            const Complex* src = from + std::size_t(m) * stride;
            for (int b = 0; b < lines; ++b) to[std::size_t(b) * length + m] = src[b];
        }
        for (int b = 0; b < lines; ++b)
            std::fill(to + std::size_t(b) * length + count, to + std::size_t(b + 1) * length,
                      Complex(0.0f));
    }
    /// The reverse of Gather for values m < count.
    static void Scatter(const Complex* from, int count, int length, int lines, std::size_t stride,
                        Complex* to) {
        for (int m = 0; m < count; ++m) {
            Complex* dst = to + std::size_t(m) * stride;
            for (int b = 0; b < lines; ++b) dst[b] = from[std::size_t(b) * length + m];
        }
    }

    /// Complex transform along y of lines k < kCount (all x wavenumbers):
    /// reads values j < jIn (the rest are zero padding), writes j < jOut.
    void TransformY(std::span<Complex* const> spectra, int kCount, int jIn, int jOut,
                    bool forward) {
        fftwf_plan plan = forward ? forwardY.get() : inverseY.get();
        const std::size_t stride = std::size_t(nxc);
        ForBatches(kCount, nxc, [&](int k, int i0) {
            LineScratch& s = Local();
            const int lines = std::min(kBatch, nxc - i0);
            for (Complex* spectrum : spectra) {
                Complex* base = spectrum + Index(i0, 0, k);
                Gather(base, stride, jIn, size.y, lines, s.line[0].data());
                fftwf_execute_dft(plan, AsFftw(s.line[0].data()), AsFftw(s.line[0].data()));
                Scatter(s.line[0].data(), jOut, size.y, lines, stride, base);
            }
        });
    }
};

// ---- GridSolver ---------------------------------------------------------------------------

GridSolver::GridSolver(GridStencil stencil) : m_stencil(stencil), m_fft(std::make_unique<Fft>()) {}
GridSolver::~GridSolver() = default;
GridSolver::GridSolver(GridSolver&&) noexcept = default;
GridSolver& GridSolver::operator=(GridSolver&&) noexcept = default;

void GridSolver::Configure(const GridGeometry& grid, float sigma2) {
    const glm::ivec3 n = grid.points;
    assert(n.x >= 2 && n.y >= 2 && n.z >= 2);
    const glm::ivec3 padded(FftSize(2 * n.x - 1), FftSize(2 * n.y - 1), FftSize(2 * n.z - 1));
    m_grid = grid;
    if (padded != m_fft->size) m_fft->MakePlans(padded);
    const std::size_t spectrumSize = std::size_t(m_fft->nxc) * padded.y * n.z;
    for (auto& s : m_spectrum) s.resize(spectrumSize);
    m_alpha.resize(grid.PointCount());
    m_velocity.resize(grid.PointCount());
    if (padded != m_padded || grid.spacing != m_kernelSpacing || sigma2 != m_kernelSigma2) {
        m_padded = padded;
        m_kernelSpacing = grid.spacing;
        m_kernelSigma2 = sigma2;
        ComputeKernel();
    }
}

void GridSolver::ComputeKernel() {
    Fft& fft = *m_fft;
    const glm::ivec3 N = m_padded;
    const glm::dvec3 h(m_kernelSpacing);
    const double sigma2 = m_kernelSigma2;
    // Full-size spectrum of one component, only while the kernel changes.
    std::vector<Complex> full(std::size_t(fft.nxc) * N.y * N.z);
    Complex* const spectra[1] = {full.data()};
    // Offsets on the periodic padded grid by minimum image: index m is offset
    // m for m < N/2 and m − N above, which covers every difference
    // −(n−1) … n−1 of two unpadded points since N ≥ 2n − 1.
    auto offset = [&](int m, int a) { return (2 * m < N[a] ? m : m - N[a]) * h[a]; };
    const double scale = double(kOneOverFourPi) / (double(N.x) * N.y * N.z);
    const int batches = (fft.nxc + kBatch - 1) / kBatch;
    for (int c = 0; c < 3; ++c) {
        fft.ForwardX(spectra, N.y, N.z, [&](int, int j, int k, float* line) {
            const double y = offset(j, 1), z = offset(k, 2);
            for (int i = 0; i < N.x; ++i) {
                const glm::dvec3 r(offset(i, 0), y, z);
                const int ijk[3] = {i, j, k};
                // K_c is odd along c: at the Nyquist index (its own mirror image,
                // never an offset two unpadded points have) it must be 0 for the
                // transform to be purely imaginary.
                if (2 * ijk[c] == N[c]) {
                    line[i] = 0.0f;
                    continue;
                }
                const double q = glm::dot(r, r) + sigma2;
                line[i] = float(r[c] / (q * std::sqrt(q)));
            }
        });
        fft.TransformY(spectra, N.z, N.y, N.y, true);
        Fft::ForBatches(N.y, fft.nxc, [&](int j, int i0) {
            LineScratch& s = fft.Local();
            const int lines = std::min(kBatch, fft.nxc - i0);
            const std::size_t stride = std::size_t(fft.nxc) * N.y;
            Complex* base = full.data() + fft.Index(i0, j, 0);
            Fft::Gather(base, stride, N.z, N.z, lines, s.line[0].data());
            fftwf_execute_dft(fft.forwardZ.get(), AsFftw(s.line[0].data()),
                              AsFftw(s.line[0].data()));
            Fft::Scatter(s.line[0].data(), N.z, N.z, lines, stride, base);
        });
        if (c == 0) m_kernel.assign(std::size_t(batches) * N.y * kBatch * N.z * 3, 0.0f);
        for (int k = 0; k < N.z; ++k) {
            for (int j = 0; j < N.y; ++j) {
                for (int i = 0; i < fft.nxc; ++i) {
                    const std::size_t t = std::size_t(j) * batches + std::size_t(i / kBatch);
                    const std::size_t at =
                        ((t * kBatch + std::size_t(i % kBatch)) * N.z + k) * 3 + c;
                    m_kernel[at] = float(double(full[fft.Index(i, j, k)].imag()) * scale);
                }
            }
        }
    }
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

namespace {

/// Adds the strengths of the vortons listed in `order` to the grid planes
/// [k0, k1), each with its stencil's weights.
template <int W, typename VortonStencil>
void AssignPlanes(const GridGeometry& grid, std::span<const VortonStencil> stencils,
                  std::span<const glm::vec3> strength, std::span<const std::uint32_t> order, int k0,
                  int k1, std::span<glm::vec3> alpha) {
    const glm::ivec3 n = grid.points;
    for (const std::uint32_t p : order) {
        const VortonStencil& st = stencils[p];
        const glm::vec3 a = strength[p];
        for (int oz = 0; oz < W; ++oz) {
            const int k = st.base[2] + oz;
            if (k < k0 || k >= k1) continue;
            for (int oy = 0; oy < W; ++oy) {
                const int j = st.base[1] + oy;
                if (j < 0 || j >= n.y) continue;
                const float wzy = st.w[2][oz] * st.w[1][oy];
                const std::size_t row = grid.Index(0, j, k);
                for (int ox = 0; ox < W; ++ox) {
                    const int i = st.base[0] + ox;
                    if (i < 0 || i >= n.x) continue;
                    alpha[row + i] += (wzy * st.w[0][ox]) * a;
                }
            }
        }
    }
}

/// Each vorton's stencil and its sort key, the stencil's highest plane
/// clamped to [0, keys − 1]. Parallel over vortons.
template <GridStencil S, typename VortonStencil>
void LocateVortons(const GridGeometry& grid, std::span<const glm::vec3> position, int keys,
                   std::span<VortonStencil> stencils, std::span<std::uint32_t> key) {
    constexpr int W = Stencil<S>::kWidth;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, position.size(), 256), [&](const auto& r) {
        for (std::size_t p = r.begin(); p != r.end(); ++p) {
            const glm::vec3 u = GridUnits(grid, position[p]);
            VortonStencil& st = stencils[p];
            for (int a = 0; a < 3; ++a) st.base[a] = Stencil<S>::Weights(u[a], st.w[a]);
            assert(st.base[0] >= 0 && st.base[1] >= 0 && st.base[2] >= 0 &&
                   st.base[0] + W <= grid.points.x && st.base[1] + W <= grid.points.y &&
                   st.base[2] + W <= grid.points.z &&
                   "vorton within the stencil's margin of the grid's faces");
            key[p] = std::uint32_t(std::clamp(st.base[2] + W - 1, 0, keys - 1));
        }
    });
}

}  // namespace

void GridSolver::Assign(const VortonSources& sources) {
    const std::size_t count = sources.position.size();
    const int nz = m_grid.points.z;
    const int width = m_stencil == GridStencil::kM4Prime ? 4 : 2;
    // Plane k receives from the vortons whose key (highest stencil plane) is
    // k … k + width − 1; keys run to nz + width − 2.
    const int keys = nz + width - 1;
    m_stencils.resize(count);
    m_planeOf.resize(count);
    if (m_stencil == GridStencil::kM4Prime) {
        LocateVortons<GridStencil::kM4Prime>(m_grid, sources.position, keys, std::span(m_stencils),
                                             m_planeOf);
    } else {
        LocateVortons<GridStencil::kCloudInCell>(m_grid, sources.position, keys,
                                                 std::span(m_stencils), m_planeOf);
    }
    // Counting sort by key, stable (index order within a key).
    m_planeStart.assign(std::size_t(keys) + 1, 0);
    m_order.resize(count);
    for (std::size_t p = 0; p < count; ++p) ++m_planeStart[std::size_t(m_planeOf[p]) + 1];
    for (int key = 0; key < keys; ++key) m_planeStart[key + 1] += m_planeStart[key];
    for (std::size_t p = 0; p < count; ++p)
        m_order[m_planeStart[m_planeOf[p]]++] = std::uint32_t(p);
    for (int key = keys; key > 0; --key) m_planeStart[key] = m_planeStart[key - 1];
    m_planeStart[0] = 0;

    // Each task owns a slab of planes and adds every vorton that reaches it,
    // in the sorted order: a point's sum has the same order for any split.
    const std::size_t plane = std::size_t(m_grid.points.x) * m_grid.points.y;
    tbb::parallel_for(tbb::blocked_range<int>(0, nz, 2), [&](const tbb::blocked_range<int>& r) {
        const int k0 = r.begin(), k1 = r.end();
        std::fill(m_alpha.begin() + std::ptrdiff_t(k0 * plane),
                  m_alpha.begin() + std::ptrdiff_t(k1 * plane), glm::vec3(0.0f));
        const std::span<const std::uint32_t> order(
            m_order.data() + m_planeStart[k0],
            m_order.data() + m_planeStart[std::min(k1 + width - 1, keys)]);
        if (m_stencil == GridStencil::kM4Prime) {
            AssignPlanes<4>(m_grid, std::span(std::as_const(m_stencils)), sources.alpha, order, k0,
                            k1, m_alpha);
        } else {
            AssignPlanes<2>(m_grid, std::span(std::as_const(m_stencils)), sources.alpha, order, k0,
                            k1, m_alpha);
        }
    });
}

void GridSolver::Convolve() {
    Fft& fft = *m_fft;
    const glm::ivec3 n = m_grid.points, N = m_padded;
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
        const float* kernel =
            m_kernel.data() + (std::size_t(j) * batches + i0 / kBatch) * kBatch * N.z * 3;
        for (int b = 0; b < lines; ++b) {
            for (int k = 0; k < N.z; ++k) {
                const std::size_t at = std::size_t(b) * N.z + k;
                const float gx = kernel[3 * at], gy = kernel[3 * at + 1], gz = kernel[3 * at + 2];
                const Complex ax = s.line[0][at], ay = s.line[1][at], az = s.line[2][at];
                const Complex cx = ay * gz - az * gy, cy = az * gx - ax * gz,
                              cz = ax * gy - ay * gx;
                // Multiply by i: (re, im) → (−im, re).
                s.line[0][at] = Complex(-cx.imag(), cx.real());
                s.line[1][at] = Complex(-cy.imag(), cy.real());
                s.line[2][at] = Complex(-cz.imag(), cz.real());
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

// ---- Interpolation back to points ---------------------------------------------------------

namespace {

/// Four floats in one SIMD register, the same type as GridSolver::Packed4.
using Packed4 = float __attribute__((vector_size(16)));

/// Velocity at one point: the W-wide stencil at base with weights w.
template <int W>
glm::vec3 GatherVelocity(const GridGeometry& grid, const glm::vec3* velocity, const int* base,
                         const float (*w)[W]) {
    glm::vec3 sum(0.0f);
    for (int oz = 0; oz < W; ++oz) {
        for (int oy = 0; oy < W; ++oy) {
            const glm::vec3* row = velocity + grid.Index(base[0], base[1] + oy, base[2] + oz);
            const float wzy = w[2][oz] * w[1][oy];
            for (int ox = 0; ox < W; ++ox) sum += (wzy * w[0][ox]) * row[ox];
        }
    }
    return sum;
}

/// Velocity and (∇v)ᵀω at one point from the packed velocity and gradient
/// (four 4-float vectors per point: v, ∂_x v, ∂_y v, ∂_z v): each stencil row
/// is summed along x first, 4 floats at a time.
template <int W>
void GatherPacked(const GridGeometry& grid, const Packed4* packed, const int* base,
                  const float (*w)[W], glm::vec3 omega, glm::vec3* v, glm::vec3* s) {
    Packed4 acc[4] = {};
    for (int oz = 0; oz < W; ++oz) {
        for (int oy = 0; oy < W; ++oy) {
            const Packed4* row = packed + 4 * grid.Index(base[0], base[1] + oy, base[2] + oz);
            Packed4 line[4] = {};
            for (int ox = 0; ox < W; ++ox) {
                for (int q = 0; q < 4; ++q) line[q] += w[0][ox] * row[4 * ox + q];
            }
            const float wzy = w[2][oz] * w[1][oy];
            for (int q = 0; q < 4; ++q) acc[q] += wzy * line[q];
        }
    }
    *v = glm::vec3(acc[0][0], acc[0][1], acc[0][2]);
    for (int a = 0; a < 3; ++a)
        (*s)[a] = omega.x * acc[1 + a][0] + omega.y * acc[1 + a][1] + omega.z * acc[1 + a][2];
}

template <GridStencil S, bool kStretch>
void EvaluateRange(const GridGeometry& grid, const glm::vec3* velocity, const Packed4* packed,
                   const VelocityQuery& q, std::size_t begin, std::size_t end) {
    constexpr int W = Stencil<S>::kWidth;
    for (std::size_t p = begin; p < end; ++p) {
        const glm::vec3 u = GridUnits(grid, q.points[p]);
        float w[3][W];
        int base[3];
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
            base[a] = Stencil<S>::Weights(u[a], w[a]);
            inside = inside && base[a] >= 0 && base[a] + W <= grid.points[a];
        }
        if (inside) {
            if constexpr (kStretch) {
                GatherPacked<W>(grid, packed, base, w, q.omega[p], &q.velocity[p], &q.stretch[p]);
            } else {
                q.velocity[p] = GatherVelocity<W>(grid, velocity, base, w);
            }
            continue;
        }
        // Near a face: trilinear, clamped into the grid (like Interpolate).
        const CellWeights c = Locate(grid, q.points[p]);
        const int cell[3] = {c.i, c.j, c.k};
        float w2[3][2];
        for (int a = 0; a < 3; ++a) {
            w2[a][0] = 1.0f - c.f[a];
            w2[a][1] = c.f[a];
        }
        if constexpr (kStretch) {
            GatherPacked<2>(grid, packed, cell, w2, q.omega[p], &q.velocity[p], &q.stretch[p]);
        } else {
            q.velocity[p] = GatherVelocity<2>(grid, velocity, cell, w2);
        }
    }
}

}  // namespace

void GridSolver::Evaluate(const VelocityQuery& query) const {
    assert(query.velocity.size() == query.points.size());
    assert(m_velocity.size() == m_grid.PointCount());
    const bool stretch = !query.omega.empty();
    assert(!stretch || (query.omega.size() == query.points.size() &&
                        query.stretch.size() == query.points.size()));
    assert(!stretch || m_packed.size() == 4 * m_grid.PointCount());
    const glm::vec3* v = m_velocity.data();
    const Packed4* d = m_packed.data();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, query.points.size(), 64),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                          if (m_stencil == GridStencil::kM4Prime) {
                              if (stretch) {
                                  EvaluateRange<GridStencil::kM4Prime, true>(m_grid, v, d, query,
                                                                             r.begin(), r.end());
                              } else {
                                  EvaluateRange<GridStencil::kM4Prime, false>(m_grid, v, d, query,
                                                                              r.begin(), r.end());
                              }
                          } else if (stretch) {
                              EvaluateRange<GridStencil::kCloudInCell, true>(m_grid, v, d, query,
                                                                             r.begin(), r.end());
                          } else {
                              EvaluateRange<GridStencil::kCloudInCell, false>(m_grid, v, d, query,
                                                                              r.begin(), r.end());
                          }
                      });
}

}  // namespace vorton
