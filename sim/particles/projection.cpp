#include "sim/particles/projection.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include <fftw3.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/solvers/grid_solver_fft.h"
#include "sim/solvers/vorton_clusters.h"

namespace vorton {

namespace {

/// Index of box point i in an x-fastest array of size n.
std::size_t BoxIndex(glm::ivec3 i, glm::ivec3 n) {
    return (std::size_t(i.z) * std::size_t(n.y) + std::size_t(i.y)) * std::size_t(n.x) + std::size_t(i.x);
}

/// The lattice indices of the box around a sphere: [first, second].
std::pair<glm::ivec3, glm::ivec3> SphereBox(const Lattice& lattice, const ProjectionSphere& s) {
    const float h = lattice.spacing;
    return {glm::ivec3(glm::floor((s.center - s.radius - lattice.origin) / h)),
            glm::ivec3(glm::ceil((s.center + s.radius - lattice.origin) / h))};
}

/// The lattice points strictly inside a sphere, within [lo, hi], relative to `origin` (a lattice index).
template <typename Visit>
void ForPointsInside(const Lattice& lattice, const ProjectionSphere& s, glm::ivec3 lo, glm::ivec3 hi,
                     glm::ivec3 origin, Visit&& visit) {
    const float h = lattice.spacing;
    const auto [s0, s1] = SphereBox(lattice, s);
    const glm::ivec3 i0 = glm::max(s0, lo), i1 = glm::min(s1, hi);
    for (int a = i0.x; a <= i1.x; ++a) {
        for (int b = i0.y; b <= i1.y; ++b) {
            for (int c = i0.z; c <= i1.z; ++c) {
                const glm::ivec3 i(a, b, c);
                if (glm::length(lattice.origin + h * glm::vec3(i) - s.center) < s.radius) visit(i - origin);
            }
        }
    }
}

}  // namespace

struct SolenoidalProjection::Buffers {
    LineFft fft;
    std::vector<float> field[3];        // the occupied box plus a zero layer, x fastest
    std::vector<Complex> spectrum[3];   // (N.x/2 + 1) × N.y × the box's z planes
    std::vector<glm::ivec3> index;      // each vorton's lattice point
    std::vector<std::uint8_t> on;       // 1: the vorton sits on the lattice
    std::vector<float> sines[3];        // k̃ = sin(2π m / N) per axis
};

SolenoidalProjection::SolenoidalProjection() : m_buffers(std::make_unique<Buffers>()) {}
SolenoidalProjection::~SolenoidalProjection() = default;

void ProjectSolenoidal(const Lattice& lattice, std::span<const ProjectionSphere> spheres, Vortons& vortons,
                       ProjectionReport* report) {
    SolenoidalProjection().Project(lattice, spheres, vortons, report);
}

void SolenoidalProjection::Project(const Lattice& lattice, std::span<const ProjectionSphere> spheres,
                                   Vortons& vortons, ProjectionReport* report) {
    const float h = lattice.spacing;
    const std::size_t n = vortons.Size();
    if (n < 2 || !(h > 0.0f)) {
        ProjectOnOneBox(lattice, spheres, vortons.position, vortons.vorticity, vortons.volume, report);
        return;
    }
    const std::vector<VortonCluster> groups = SplitIntoClusters(vortons.position, h, 2.0f * h);
    if (!FarApartForProjection(groups)) {
        ProjectOnOneBox(lattice, spheres, vortons.position, vortons.vorticity, vortons.volume, report);
        return;
    }
    // Each group on its own box: the boxes' cost follows the groups' volumes,
    // not the space between them (two balls' wakes tens of metres apart).
    ProjectionReport total;
    double moved = 0.0, sum = 0.0;
    for (const VortonCluster& g : groups) {
        const std::size_t m = g.members.size();
        m_subPosition.resize(m);
        m_subVorticity.resize(m);
        m_subVolume.resize(m);
        for (std::size_t i = 0; i < m; ++i) {
            const std::uint32_t k = g.members[i];
            m_subPosition[i] = vortons.position[k];
            m_subVorticity[i] = vortons.vorticity[k];
            m_subVolume[i] = vortons.volume[k];
        }
        ProjectionReport part;
        ProjectOnOneBox(lattice, spheres, m_subPosition, m_subVorticity, m_subVolume, &part);
        for (std::size_t i = 0; i < m; ++i) {
            glm::vec3& w = vortons.vorticity[g.members[i]];
            moved += double(glm::length(m_subVorticity[i] - w));
            sum += double(glm::length(w));
            w = m_subVorticity[i];
        }
        total.divergenceBefore = std::max(total.divergenceBefore, part.divergenceBefore);
        total.netChange += part.netChange;
        total.projected += part.projected;
        if (std::size_t(part.box.x) * part.box.y * part.box.z > std::size_t(total.box.x) * total.box.y * total.box.z) {
            total.box = part.box;
        }
    }
    total.changed = sum > 0.0 ? moved / sum : 0.0;
    if (report) *report = total;
}

bool FarApartForProjection(std::span<const VortonCluster> groups) {
    if (groups.size() < 2) return false;
    const auto size = [](const Aabb& b) {
        const glm::vec3 e = b.Extent();
        return std::max(e.x, std::max(e.y, e.z));
    };
    for (std::size_t a = 0; a < groups.size(); ++a) {
        for (std::size_t b = a + 1; b < groups.size(); ++b) {
            const Aabb& A = groups[a].box;
            const Aabb& B = groups[b].box;
            const glm::vec3 gap = glm::max(A.min - B.max, B.min - A.max);
            if (std::max(gap.x, std::max(gap.y, gap.z)) < std::max(size(A), size(B))) return false;
        }
    }
    return true;
}

void SolenoidalProjection::ProjectOnOneBox(const Lattice& lattice, std::span<const ProjectionSphere> spheres,
                                           std::span<const glm::vec3> position, std::span<glm::vec3> vorticity,
                                           std::span<const float> vortonVolume, ProjectionReport* report) {
    Buffers& buf = *m_buffers;
    ProjectionReport out;
    const float h = lattice.spacing;
    const std::size_t n = position.size();
    if (report) *report = out;
    if (n == 0 || !(h > 0.0f)) return;

    // The vortons on the lattice, and the box they and the spheres occupy.
    constexpr float kOnLattice = 1.0e-2f;  // lattice units: a remesh leaves them at round-off from the points
    buf.index.resize(n);
    buf.on.assign(n, 0);
    glm::ivec3 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
    for (std::size_t k = 0; k < n; ++k) {
        const glm::vec3 u = (position[k] - lattice.origin) / h;
        const glm::ivec3 i(glm::round(u));
        if (glm::length(u - glm::vec3(i)) > kOnLattice) continue;
        buf.on[k] = 1;
        buf.index[k] = i;
        lo = glm::min(lo, i);
        hi = glm::max(hi, i);
        ++out.projected;
    }
    if (out.projected == 0) return;
    // A sphere whose box does not come within two spacings of the vortons'
    // has no wall layer here to close (and would only grow the box).
    std::vector<ProjectionSphere> near;
    const glm::ivec3 vortonsLo = lo, vortonsHi = hi;
    for (const ProjectionSphere& s : spheres) {
        const auto [s0, s1] = SphereBox(lattice, s);
        if (glm::any(glm::lessThan(s1, vortonsLo - 2)) || glm::any(glm::greaterThan(s0, vortonsHi + 2))) continue;
        near.push_back(s);
        lo = glm::min(lo, s0);
        hi = glm::max(hi, s1);
    }
    spheres = near;
    const glm::ivec3 extent = hi - lo + 1;
    glm::ivec3 size;
    // The lengths FFTW runs fastest (x, the contiguous axis, is the real one);
    // the smallest ones if those would pass the cap.
    const auto volume = [](glm::ivec3 s) { return std::size_t(s.x) * std::size_t(s.y) * std::size_t(s.z); };
    for (int c = 0; c < 3; ++c) size[c] = GridFftSize(2 * extent[c] + 2, c == 0 ? FftLine::kRealToComplex : FftLine::kComplex);
    if (volume(size) > kMaxProjectionPoints) {
        for (int c = 0; c < 3; ++c) size[c] = FftSize(2 * extent[c] + 2);
    }
    out.box = size;
    const std::size_t points = volume(size);
    if (points > kMaxProjectionPoints) {  // a flow spread too thin for one box: left as it is
        out.projected = 0;
        if (report) *report = out;
        return;
    }

    // The field on the occupied box with a zero layer either side (box point
    // b is lattice point lo − 1 + b, and FFT point b; the rest of the FFT box
    // is zero).
    const glm::ivec3 box = extent + 2, origin = lo - 1;
    for (auto& f : buf.field) f.assign(volume(box), 0.0f);
    for (std::size_t k = 0; k < n; ++k) {
        if (!buf.on[k]) continue;
        const std::size_t o = BoxIndex(buf.index[k] - origin, box);
        for (int c = 0; c < 3; ++c) buf.field[c][o] = vorticity[k][c];
    }
    for (const ProjectionSphere& s : spheres) {
        ForPointsInside(lattice, s, lo, hi, origin, [&](glm::ivec3 i) {
            const std::size_t o = BoxIndex(i, box);
            for (int c = 0; c < 3; ++c) buf.field[c][o] += 2.0f * s.angularVelocity[c];
        });
    }

    // How far from solenoidal, by central differences at the occupied box's
    // points: for the report only, so not measured without one.
    if (report) {
        double divergence = 0.0, diagonal = 0.0;
        const std::ptrdiff_t sx = 1, sy = box.x, sz = std::ptrdiff_t(box.x) * box.y;
        const float *fx = buf.field[0].data(), *fy = buf.field[1].data(), *fz = buf.field[2].data();
        for (int c = 1; c <= extent.z; ++c) {
            for (int b = 1; b <= extent.y; ++b) {
                for (int a = 1; a <= extent.x; ++a) {
                    const std::ptrdiff_t o = std::ptrdiff_t(BoxIndex({a, b, c}, box));
                    const float dx = fx[o + sx] - fx[o - sx];
                    const float dy = fy[o + sy] - fy[o - sy];
                    const float dz = fz[o + sz] - fz[o - sz];
                    divergence += std::abs(double(dx) + dy + dz);
                    diagonal += std::abs(double(dx)) + std::abs(double(dy)) + std::abs(double(dz));
                }
            }
        }
        out.divergenceBefore = diagonal > 0.0 ? divergence / diagonal : 0.0;
    }

    LineFft& fft = buf.fft;
    if (fft.size != size) {
        fft.MakePlans(size);
        const float twoPi = 2.0f * std::numbers::pi_v<float>;
        for (int c = 0; c < 3; ++c) {
            buf.sines[c].resize(std::size_t(size[c]));
            for (int m = 0; m < size[c]; ++m) buf.sines[c][std::size_t(m)] = std::sin(twoPi * float(m) / float(size[c]));
        }
    }
    const int nxc = fft.nxc;
    for (auto& spectrum : buf.spectrum) spectrum.resize(std::size_t(nxc) * size.y * box.z);
    Complex* const spectra[3] = {buf.spectrum[0].data(), buf.spectrum[1].data(), buf.spectrum[2].data()};

    // Forward: x lines of the box only, then y lines of its z planes only.
    fft.ForwardX(spectra, box.y, box.z, [&](int c, int j, int k, float* line) {
        const float* row = buf.field[c].data() + BoxIndex({0, j, k}, box);
        std::copy(row, row + box.x, line);
        std::fill(line + box.x, line + size.x, 0.0f);
    });
    fft.TransformY(spectra, box.z, box.y, size.y, true);

    // z lines: forward, project, inverse, keep the box's z planes.
    // ω̂ ← ω̂ − k̃ (k̃·ω̂) / |k̃|², k̃ = sin(2π m / N) per axis (central
    // differences; h cancels). The modes where k̃ vanishes (the mean, and
    // Nyquist along an axis) carry no central-difference divergence.
    const std::size_t zStride = std::size_t(nxc) * size.y;
    LineFft::ForBatches(size.y, nxc, [&](int j, int i0) {
        LineScratch& s = fft.Local();
        const int lines = std::min(kBatch, nxc - i0);
        for (int c = 0; c < 3; ++c) {
            LineFft::Gather(spectra[c] + fft.Index(i0, j, 0), zStride, box.z, size.z, lines, s.line[c].data());
            fftwf_execute_dft(fft.forwardZ.get(), AsFftw(s.line[c].data()), AsFftw(s.line[c].data()));
        }
        const float ky = buf.sines[1][std::size_t(j)];
        for (int b = 0; b < lines; ++b) {
            const float kx = buf.sines[0][std::size_t(i0 + b)];
            for (int k = 0; k < size.z; ++k) {
                const float kz = buf.sines[2][std::size_t(k)];
                const float k2 = kx * kx + ky * ky + kz * kz;
                if (k2 < 1.0e-12f) continue;
                const std::size_t at = std::size_t(b) * size.z + k;
                const Complex d = (kx * s.line[0][at] + ky * s.line[1][at] + kz * s.line[2][at]) / k2;
                s.line[0][at] -= kx * d;
                s.line[1][at] -= ky * d;
                s.line[2][at] -= kz * d;
            }
        }
        for (int c = 0; c < 3; ++c) {
            fftwf_execute_dft(fft.inverseZ.get(), AsFftw(s.line[c].data()), AsFftw(s.line[c].data()));
            LineFft::Scatter(s.line[c].data(), box.z, size.z, lines, zStride, spectra[c] + fft.Index(i0, j, 0));
        }
    });

    // Inverse: y lines of the box's z planes, keeping its y, then x lines of
    // the box, keeping its x.
    fft.TransformY(spectra, box.z, size.y, box.y, false);
    fft.InverseX(spectra, box.y, box.z, [&](int c, int j, int k, const float* line) {
        std::copy(line, line + box.x, buf.field[c].data() + BoxIndex({0, j, k}, box));
    });

    // Take the spheres' 2Ω off again and write the occupied points back.
    const float scale = 1.0f / float(points);
    for (const ProjectionSphere& s : spheres) {
        ForPointsInside(lattice, s, lo, hi, origin, [&](glm::ivec3 i) {
            const std::size_t o = BoxIndex(i, box);
            for (int c = 0; c < 3; ++c) buf.field[c][o] -= 2.0f * s.angularVelocity[c] / scale;
        });
    }
    double moved = 0.0, total = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        if (!buf.on[k]) continue;
        const std::size_t o = BoxIndex(buf.index[k] - origin, box);
        const glm::vec3 w(buf.field[0][o] * scale, buf.field[1][o] * scale, buf.field[2][o] * scale);
        moved += double(glm::length(w - vorticity[k]));
        total += double(glm::length(vorticity[k]));
        out.netChange += glm::dvec3(w - vorticity[k]) * double(vortonVolume[k]);
        vorticity[k] = w;
    }
    out.changed = total > 0.0 ? moved / total : 0.0;
    if (report) *report = out;
}

}  // namespace vorton
