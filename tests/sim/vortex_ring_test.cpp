// Thin vortex ring speed (docs/METHOD.md §8; Saffman, "The velocity of viscous vortex rings", Stud. Appl. Math. 49, 1970):
//
//     U = Γ/(4πR) (ln(8R/a) − C),   C = 0.558 for ω ∝ exp(−s²/a²)
//
// (C = ½ + (ln 2 − γ)/2 from the core's swirl energy.) Built from vortons and
// evaluated with the library's direct Biot–Savart sum at ONE azimuthal
// station: by symmetry every station moves alike, and for an axisymmetric
// ring the circulation-weighted mean axial velocity of a cross-section is
// exactly the rate of change of its vorticity centroid, i.e. the ring speed.
//
// Convergence study (R = 1, a = 0.1, Γ = 1, lattice h = σ in the
// cross-section and R·Δφ = h along the ring; the effective constant
// C_eff = ln(8R/a) − 4πRU/Γ; double-precision sums, converged in h):
//
//     σ/a     0.5     1/3     1/4     1/5     0.15    0.1     0.075
//     C_eff   0.841   0.7205  0.6646  0.6336  0.6054  0.5814  0.5715
//
// h/σ = 2/3 instead of 1 changes C_eff by < 5e-4; a/R = 0.05 or 0.2 instead
// of 0.1 changes it by ≤ 0.002 (the O(a²/R²) thin-ring corrections).
// C_eff → 0.558 as σ → 0, but slowly: the Rosenhead–Moore kernel is the
// singular one applied to vorticity smoothed by the blob
// ζ(r) = (3/4π)σ²/(r² + σ²)^{5/2}, whose algebraic tail has no finite second
// moment, so the core is effectively widened by O(σ² ln(a/σ)), not O(σ²).
// Fitting C_eff = C₀ + (σ/a)²(A ln(a/σ) + B) to any three neighbouring
// columns gives C₀ = 0.5568, 0.5553, 0.5554, 0.5552: Saffman's 0.558 within
// the O(a²/R²) corrections.
//
// Float sums (as the library's DirectVelocity accumulates): at 2e5 sources
// C_eff is 0.002 high, at 1.8e6 sources 0.015 high (round-off of long float
// sums); the test stays at ≤ 2.2e5 sources.

#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "sim/solvers/vorton_sources.h"
#include "test_util.h"

namespace vorton {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kSaffmanGaussian = 0.558;

/// C_eff = ln(8R/a) − 4πRU/Γ of a Gaussian-core ring of vortons with core
/// σ = sigmaOverA·a on a cross-section lattice of spacing h = σ, cut at s = 3a
/// (exp(−9): 1e-4 of the circulation), normalised to circulation Γ exactly.
double EffectiveConstant(double sigmaOverA, double* speed = nullptr) {
    const double R = 1.0, a = 0.1, gamma = 1.0;
    const double h = sigmaOverA * a, sigma = sigmaOverA * a, sMax = 3.0 * a;
    const int m = int(std::ceil(sMax / h));
    std::vector<glm::dvec2> cross;  // (ρ − R, z)
    std::vector<double> weight;
    double weightSum = 0.0;
    for (int i = -m; i <= m; ++i) {
        for (int j = -m; j <= m; ++j) {
            const glm::dvec2 s(i * h, j * h);
            if (glm::dot(s, s) > sMax * sMax) continue;
            cross.push_back(s);
            weight.push_back(std::exp(-glm::dot(s, s) / (a * a)));
            weightSum += weight.back();
        }
    }
    const int stations = int(std::ceil(2.0 * kPi * R / h));
    const double dPhi = 2.0 * kPi / stations;
    std::vector<glm::vec3> position, alpha;
    std::vector<float> sigma2;
    for (int p = 0; p < stations; ++p) {
        const double phi = p * dPhi;
        const glm::dvec3 radial(std::cos(phi), std::sin(phi), 0.0),
            azimuth(-std::sin(phi), std::cos(phi), 0.0);
        for (std::size_t c = 0; c < cross.size(); ++c) {
            const double rho = R + cross[c].x;
            const double omega = gamma * weight[c] / (weightSum * h * h);  // Σ ω h² = Γ
            const double volume = h * h * rho * dPhi;
            position.emplace_back(radial * rho + glm::dvec3(0.0, 0.0, cross[c].y));
            alpha.emplace_back(azimuth * (omega * volume));
            sigma2.push_back(float(sigma * sigma));
        }
    }
    // Station 0 comes first: evaluate there only.
    const std::vector<glm::vec3> points(position.begin(),
                                        position.begin() + std::ptrdiff_t(cross.size()));
    std::vector<glm::vec3> velocity(points.size());
    tbb::task_arena arena(2);
    arena.execute([&] {
        DirectVelocity(VortonSources{position, alpha, sigma2},
                       VelocityQuery{points, velocity, {}, {}});
    });
    double u = 0.0;
    for (std::size_t c = 0; c < cross.size(); ++c) u += weight[c] * velocity[c].z;
    u /= weightSum;
    if (speed) *speed = u;
    return std::log(8.0 * R / a) - 4.0 * kPi * R * u / gamma;
}

TEST(VortexRing, GaussianCoreSpeedConvergesToSaffman) {
    const double sigmas[3] = {1.0 / 3.0, 1.0 / 4.0, 1.0 / 5.0};
    double c[3], u[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = EffectiveConstant(sigmas[i], &u[i]);
        test::Measured("C_eff_sigma_over_a_" + std::to_string(sigmas[i]), c[i]);
    }
    // The ring moves along +z (Γ > 0 about the azimuth: fluid goes up through the middle).
    EXPECT_GT(u[2], 0.0);
    // The regularisation widens the core: C_eff lies above 0.558 and falls
    // toward it as σ/a falls (study above: 0.7205, 0.6646, 0.6336; float sums
    // add ≤ 0.002; 0.005 allows for that).
    const double study[3] = {0.7205, 0.6646, 0.6336};
    for (int i = 0; i < 3; ++i) {
        EXPECT_GT(c[i], kSaffmanGaussian);
        EXPECT_NEAR(c[i], study[i], 0.005) << "sigma/a " << sigmas[i];
    }
    EXPECT_GT(c[0], c[1]);
    EXPECT_GT(c[1], c[2]);
    // Extrapolate σ → 0 with C = C₀ + s²(A ln(1/s) + B), s = σ/a, through the three points.
    double m[3][4];
    for (int i = 0; i < 3; ++i) {
        const double s = sigmas[i];
        m[i][0] = 1.0;
        m[i][1] = s * s * std::log(1.0 / s);
        m[i][2] = s * s;
        m[i][3] = c[i];
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            const double f = m[j][i] / m[i][i];
            for (int k = i; k < 4; ++k) m[j][k] -= f * m[i][k];
        }
    }
    double x[3];
    for (int i = 2; i >= 0; --i) {
        x[i] = m[i][3];
        for (int k = i + 1; k < 3; ++k) x[i] -= m[i][k] * x[k];
        x[i] /= m[i][i];
    }
    test::Measured("C_extrapolated", x[0]);
    // O(a²/R²) corrections move C by ~0.002 (study); the extrapolation
    // amplifies the float error of the three points (≤ 0.002) by its weights
    // (|w| ≲ 8). 0.02 in C is 0.5 % of the speed: a wrong kernel factor or
    // core definition (a vs a/√2: ΔC = ln √2 = 0.35) fails it by far.
    EXPECT_NEAR(x[0], kSaffmanGaussian, 0.02);
    // At σ/a = 1/5 the speed itself is within 2.5 % of Saffman's (the
    // regularisation offset there is ΔC = 0.076, 2.0 % of the speed).
    const double saffman = 1.0 / (4.0 * kPi) * (std::log(80.0) - kSaffmanGaussian);
    test::Measured("speed_over_saffman_sigma_a_0.2", u[2] / saffman);
    EXPECT_NEAR(u[2] / saffman, 1.0, 0.025);
}

}  // namespace
}  // namespace vorton
