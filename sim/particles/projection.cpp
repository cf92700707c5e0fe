#include "sim/particles/projection.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <numbers>
#include <utility>
#include <vector>

#include <fftw3.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/solvers/grid_solver_fft.h"

namespace vorton {

namespace {

/// Index of lattice point i (relative to the box's low corner) in a real array of size n (x slowest).
std::size_t RealIndex(glm::ivec3 i, glm::ivec3 n) {
    return (std::size_t(i.x) * std::size_t(n.y) + std::size_t(i.y)) * std::size_t(n.z) + std::size_t(i.z);
}

/// The lattice indices of the box around a sphere: [first, second].
std::pair<glm::ivec3, glm::ivec3> SphereBox(const Lattice& lattice, const ProjectionSphere& s) {
    const float h = lattice.spacing;
    return {glm::ivec3(glm::floor((s.center - s.radius - lattice.origin) / h)),
            glm::ivec3(glm::ceil((s.center + s.radius - lattice.origin) / h))};
}

/// The lattice points strictly inside a sphere, relative to the box's low corner lo.
template <typename Visit>
void ForPointsInside(const Lattice& lattice, const ProjectionSphere& s, glm::ivec3 lo, glm::ivec3 hi, Visit&& visit) {
    const float h = lattice.spacing;
    const auto [s0, s1] = SphereBox(lattice, s);
    const glm::ivec3 i0 = glm::max(s0, lo), i1 = glm::min(s1, hi);
    for (int a = i0.x; a <= i1.x; ++a) {
        for (int b = i0.y; b <= i1.y; ++b) {
            for (int c = i0.z; c <= i1.z; ++c) {
                const glm::ivec3 i(a, b, c);
                if (glm::length(lattice.origin + h * glm::vec3(i) - s.center) < s.radius) visit(i - lo);
            }
        }
    }
}

}  // namespace

void ProjectSolenoidal(const Lattice& lattice, std::span<const ProjectionSphere> spheres, Vortons& vortons,
                       ProjectionReport* report) {
    ProjectionReport out;
    const float h = lattice.spacing;
    const std::size_t n = vortons.Size();
    if (report) *report = out;
    if (n == 0 || !(h > 0.0f)) return;

    // The vortons on the lattice, and the box they and the spheres occupy.
    constexpr float kOnLattice = 1.0e-2f;  // lattice units: a remesh leaves them at round-off from the points
    std::vector<glm::ivec3> index(n);
    std::vector<std::uint8_t> on(n, 0);
    glm::ivec3 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
    for (std::size_t k = 0; k < n; ++k) {
        const glm::vec3 u = (vortons.position[k] - lattice.origin) / h;
        const glm::ivec3 i(glm::round(u));
        if (glm::length(u - glm::vec3(i)) > kOnLattice) continue;
        on[k] = 1;
        index[k] = i;
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
    // The lengths FFTW runs fastest (z, the contiguous axis, is the real one);
    // the smallest ones if those would pass the cap.
    const auto volume = [](glm::ivec3 s) { return std::size_t(s.x) * std::size_t(s.y) * std::size_t(s.z); };
    for (int c = 0; c < 3; ++c) size[c] = GridFftSize(2 * extent[c] + 2, c == 2 ? FftLine::kRealToComplex : FftLine::kComplex);
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
    const int nzc = size.z / 2 + 1;
    const std::size_t modes = std::size_t(size.x) * std::size_t(size.y) * std::size_t(nzc);

    AlignedVector<float> field[3];
    AlignedVector<Complex> spectrum[3];
    for (int c = 0; c < 3; ++c) {
        field[c].assign(points, 0.0f);
        spectrum[c].assign(modes, Complex(0.0f));
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (!on[k]) continue;
        const std::size_t o = RealIndex(index[k] - lo, size);
        for (int c = 0; c < 3; ++c) field[c][o] = vortons.vorticity[k][c];
    }
    for (const ProjectionSphere& s : spheres) {
        ForPointsInside(lattice, s, lo, hi, [&](glm::ivec3 i) {
            const std::size_t o = RealIndex(i, size);
            for (int c = 0; c < 3; ++c) field[c][o] += 2.0f * s.angularVelocity[c];
        });
    }

    // How far from solenoidal, by central differences over the occupied box
    // (one beyond it): for the report only, so not measured without one.
    if (report) {
        double divergence = 0.0, diagonal = 0.0;
        const glm::ivec3 step(size.y * size.z, size.z, 1);
        for (int a = 1; a <= extent.x; ++a) {
            for (int b = 1; b <= extent.y; ++b) {
                for (int c = 1; c <= extent.z; ++c) {
                    const std::size_t o = RealIndex({a, b, c}, size);
                    const float dx = field[0][o + step.x] - field[0][o - step.x];
                    const float dy = field[1][o + step.y] - field[1][o - step.y];
                    const float dz = field[2][o + step.z] - field[2][o - step.z];
                    divergence += std::abs(double(dx) + dy + dz);
                    diagonal += std::abs(double(dx)) + std::abs(double(dy)) + std::abs(double(dz));
                }
            }
        }
        out.divergenceBefore = diagonal > 0.0 ? divergence / diagonal : 0.0;
    }

    fftwf_plan forward[3], inverse[3];
    {
        std::lock_guard lock(PlannerMutex());
        for (int c = 0; c < 3; ++c) {
            forward[c] = fftwf_plan_dft_r2c_3d(size.x, size.y, size.z, field[c].data(), AsFftw(spectrum[c].data()),
                                               FFTW_ESTIMATE);
            inverse[c] = fftwf_plan_dft_c2r_3d(size.x, size.y, size.z, AsFftw(spectrum[c].data()), field[c].data(),
                                               FFTW_ESTIMATE);
            if (!forward[c] || !inverse[c]) std::abort();  // only on invalid arguments: a programming error
        }
    }
    // The three components' transforms run side by side: each is one serial FFTW plan on its own arrays.
    const auto execute = [](fftwf_plan (&plans)[3]) {
        tbb::parallel_for(0, 3, [&](int c) { fftwf_execute(plans[c]); });
    };
    execute(forward);

    // ω̂ ← ω̂ − k̃ (k̃·ω̂) / |k̃|², k̃ = sin(2π m / N) per axis (central differences; h cancels).
    // The modes where k̃ vanishes (the mean, and Nyquist along an axis) carry no central-difference divergence.
    const float twoPi = 2.0f * std::numbers::pi_v<float>;
    std::vector<float> sines[3];
    for (int c = 0; c < 3; ++c) {
        sines[c].resize(std::size_t(size[c]));
        for (int m = 0; m < size[c]; ++m) sines[c][std::size_t(m)] = std::sin(twoPi * float(m) / float(size[c]));
    }
    tbb::parallel_for(tbb::blocked_range<int>(0, size.x), [&](const tbb::blocked_range<int>& r) {
        for (int a = r.begin(); a != r.end(); ++a) {
            for (int b = 0; b < size.y; ++b) {
                for (int c = 0; c < nzc; ++c) {
                    const float kx = sines[0][std::size_t(a)], ky = sines[1][std::size_t(b)],
                                kz = sines[2][std::size_t(c)];
                    const float k2 = kx * kx + ky * ky + kz * kz;
                    if (k2 < 1.0e-12f) continue;
                    const std::size_t o = (std::size_t(a) * std::size_t(size.y) + std::size_t(b)) * std::size_t(nzc) +
                                          std::size_t(c);
                    const Complex d = (kx * spectrum[0][o] + ky * spectrum[1][o] + kz * spectrum[2][o]) / k2;
                    spectrum[0][o] -= kx * d;
                    spectrum[1][o] -= ky * d;
                    spectrum[2][o] -= kz * d;
                }
            }
        }
    });
    execute(inverse);
    {
        std::lock_guard lock(PlannerMutex());
        for (int c = 0; c < 3; ++c) {
            fftwf_destroy_plan(forward[c]);
            fftwf_destroy_plan(inverse[c]);
        }
    }

    // Take the spheres' 2Ω off again and write the occupied points back.
    const float scale = 1.0f / float(points);
    for (const ProjectionSphere& s : spheres) {
        ForPointsInside(lattice, s, lo, hi, [&](glm::ivec3 i) {
            const std::size_t o = RealIndex(i, size);
            for (int c = 0; c < 3; ++c) field[c][o] -= 2.0f * s.angularVelocity[c] / scale;
        });
    }
    double moved = 0.0, total = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        if (!on[k]) continue;
        const std::size_t o = RealIndex(index[k] - lo, size);
        const glm::vec3 w(field[0][o] * scale, field[1][o] * scale, field[2][o] * scale);
        moved += double(glm::length(w - vortons.vorticity[k]));
        total += double(glm::length(vortons.vorticity[k]));
        out.netChange += glm::dvec3(w - vortons.vorticity[k]) * double(vortons.volume[k]);
        vortons.vorticity[k] = w;
    }
    out.changed = total > 0.0 ? moved / total : 0.0;
    if (report) *report = out;
}

}  // namespace vorton
