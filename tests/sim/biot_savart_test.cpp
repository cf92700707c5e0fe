// The regularised Biot–Savart kernel (docs/METHOD.md §8 "single vorton, far field").

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/solvers/treecode.h"
#include "sim/solvers/vorton_sources.h"
#include "test_util.h"

namespace vorton {
namespace {

const double kPi = std::numbers::pi;

/// Velocity of the given vortons at the points by the library's direct sum.
std::vector<glm::vec3> Direct(const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& alpha,
                              const std::vector<float>& sigma2,
                              const std::vector<glm::vec3>& points) {
    std::vector<glm::vec3> v(points.size());
    DirectVelocity(VortonSources{x, alpha, sigma2}, VelocityQuery{points, v, {}, {}});
    return v;
}

TEST(BiotSavart, RightHandRule) {
    // α = +z at the origin: the fluid at +x moves in +y (counter-clockwise seen from +z).
    const std::vector<glm::vec3> x{glm::vec3(0.0f)}, alpha{glm::vec3(0.0f, 0.0f, 1.0f)};
    const std::vector<float> sigma2{0.01f};
    const auto v =
        Direct(x, alpha, sigma2, {glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)});
    EXPECT_GT(v[0].y, 0.0f);
    EXPECT_EQ(v[0].x, 0.0f);
    EXPECT_EQ(v[0].z, 0.0f);
    EXPECT_LT(v[1].x, 0.0f);  // at +y the fluid moves in −x
    EXPECT_EQ(v[1].y, 0.0f);
}

TEST(BiotSavart, FarFieldIsTheSingularKernel) {
    // At |r| = 50σ the Rosenhead–Moore factor (1 + σ²/r²)^{-3/2} differs from 1
    // by 1.5σ²/r² = 6e-4; float round-off is ~1e-7. So the relative error
    // against (1/4π) α × r/|r|³ must be below 1e-3 but above 1e-4 (it is the
    // regularisation, not noise: the kernel is not the singular one).
    const float sigma = 0.02f;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const glm::vec3 center(0.3f, -0.2f, 0.5f);
    for (int trial = 0; trial < 20; ++trial) {
        const glm::vec3 alpha(u(rng), u(rng), u(rng));
        glm::vec3 dir(u(rng), u(rng), u(rng));
        dir = glm::normalize(dir);
        const glm::dvec3 r = glm::dvec3(dir) * (50.0 * sigma);
        const auto v = Direct({center}, {alpha}, {sigma * sigma}, {center + glm::vec3(r)});
        const glm::dvec3 expected =
            glm::cross(glm::dvec3(alpha), r) / (4.0 * kPi * std::pow(glm::length(r), 3));
        const double rel = glm::length(glm::dvec3(v[0]) - expected) / glm::length(expected);
        EXPECT_LT(rel, 1.0e-3) << "trial " << trial;
        EXPECT_GT(rel, 1.0e-4) << "trial " << trial;
        // The exact regularised value: (1/4π) α × r / (r² + σ²)^{3/2}; float round-off only.
        const double q = glm::dot(r, r) + double(sigma) * sigma;
        const glm::dvec3 regularised =
            glm::cross(glm::dvec3(alpha), r) / (4.0 * kPi * q * std::sqrt(q));
        EXPECT_LT(glm::length(glm::dvec3(v[0]) - regularised) / glm::length(regularised), 1.0e-5);
    }
}

TEST(BiotSavart, CoreIsRegular) {
    // Inside the core the velocity is finite and vanishes at the centre; at
    // r = σ it is (1/4π)|α|σ/(2σ²)^{3/2}, 2^{-3/2} of the singular value.
    const float sigma = 0.1f;
    const auto v = Direct({glm::vec3(0.0f)}, {glm::vec3(0, 0, 1)}, {sigma * sigma},
                          {glm::vec3(0.0f), glm::vec3(sigma, 0, 0)});
    EXPECT_EQ(glm::length(v[0]), 0.0f);
    const double expected = sigma / (4.0 * kPi * std::pow(2.0 * sigma * sigma, 1.5));
    EXPECT_NEAR(v[1].y, expected, 1.0e-6 * expected);
}

/// A few random vortons of equal core in the unit cube.
struct Cluster {
    std::vector<glm::vec3> x, alpha;
    std::vector<float> sigma2;
};
Cluster RandomCluster(int n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Cluster c;
    for (int k = 0; k < n; ++k) {
        c.x.emplace_back(u(rng), u(rng), u(rng));
        c.alpha.emplace_back(u(rng), u(rng), u(rng));
        c.sigma2.push_back(0.05f * 0.05f);
    }
    return c;
}

TEST(BiotSavart, StretchingIsTheTransposeVelocityGradient) {
    // biot_savart.h: the stretching term is the transpose form (∇v)ᵀω, whose
    // component j is ∂(ω·v)/∂x_j with ω held fixed (Cottet & Koumoutsakos
    // §2.6). Checked against central differences of the velocity along each
    // axis: truncation ~(ε/d)² ≈ 1e-4 relative at ε = 1e-3 m, d ≳ 0.1 m, and
    // float cancellation ~1e-7·d/ε ≈ 1e-4; so 2e-3 catches any wrong sign,
    // factor or the classical form (ω·∇)v, which differs by O(1) here.
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const Cluster c = RandomCluster(12, 11);
    for (int trial = 0; trial < 10; ++trial) {
        const glm::vec3 p(1.5f * u(rng), 1.5f * u(rng), 1.5f + u(rng));  // above the vortons
        const glm::vec3 omega(u(rng), u(rng), u(rng));
        std::vector<glm::vec3> v(1), s(1);
        const std::vector<glm::vec3> points{p}, omegas{omega};
        DirectVelocity(VortonSources{c.x, c.alpha, c.sigma2}, VelocityQuery{points, v, omegas, s});
        const float eps = 1.0e-3f;
        glm::dvec3 fd;
        for (int j = 0; j < 3; ++j) {
            glm::vec3 step(0.0f);
            step[j] = eps;
            const auto vp = Direct(c.x, c.alpha, c.sigma2, {p + step, p - step});
            fd[j] = (glm::dot(glm::dvec3(omega), glm::dvec3(vp[0])) -
                     glm::dot(glm::dvec3(omega), glm::dvec3(vp[1]))) /
                    (2.0 * eps);
        }
        EXPECT_LT(glm::length(glm::dvec3(s[0]) - fd), 2.0e-3 * glm::length(fd))
            << "trial " << trial;
    }
}

TEST(BiotSavart, TransposeStretchingConservesTotalStrength) {
    // With equal cores the pair terms V_k (ω_k × α_l)·∇K(x_k − x_l) are
    // antisymmetric in (k, l), so Σ_k V_k (∇v)ᵀω_k = 0: stretching leaves Σα
    // unchanged. Round-off: each of the 400 pair terms is exact to ~1e-7, so
    // the sum vanishes to ~1e-6 of Σ_k |V_k s_k|.
    const Cluster c = RandomCluster(400, 21);
    const float volume = 0.01f;
    std::vector<glm::vec3> omega(c.x.size()), alpha(c.x.size()), v(c.x.size()), s(c.x.size());
    for (std::size_t k = 0; k < c.x.size(); ++k) {
        omega[k] = c.alpha[k] / volume;
        alpha[k] = omega[k] * volume;
    }
    DirectVelocity(VortonSources{c.x, alpha, c.sigma2}, VelocityQuery{c.x, v, omega, s});
    glm::dvec3 sum(0.0);
    double magnitude = 0.0;
    for (std::size_t k = 0; k < c.x.size(); ++k) {
        sum += glm::dvec3(s[k]) * double(volume);
        magnitude += glm::length(glm::dvec3(s[k])) * volume;
    }
    test::Measured("relative_total_stretching", glm::length(sum) / magnitude);
    EXPECT_LT(glm::length(sum), 1.0e-5 * magnitude);
}

TEST(BiotSavart, TreecodeOfOneVortonIsExact) {
    // A single source is a cluster of radius 0 with no dipole: the treecode
    // must give the kernel itself (float round-off only).
    const std::vector<glm::vec3> x{glm::vec3(0.1f, 0.2f, 0.3f)},
        alpha{glm::vec3(0.3f, -1.0f, 0.5f)};
    const std::vector<float> sigma2{0.01f};
    const std::vector<glm::vec3> points{glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(-0.5f, 2.0f, 0.1f)};
    Treecode tree;
    tree.Build(VortonSources{x, alpha, sigma2}, 8);
    std::vector<glm::vec3> v(points.size());
    tree.Evaluate(VelocityQuery{points, v, {}, {}}, 0.5f);
    const auto direct = Direct(x, alpha, sigma2, points);
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_LT(glm::length(v[i] - direct[i]), 1.0e-6f * glm::length(direct[i]));
    }
}

}  // namespace
}  // namespace vorton
