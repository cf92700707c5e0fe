// Treecode against direct summation (docs/METHOD.md §8 "fast solver vs direct").

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/simulation.h"
#include "sim/solvers/biot_savart.h"
#include "sim/solvers/tree_far_field.h"
#include "sim/solvers/treecode.h"
#include "sim/solvers/vorton_sources.h"
#include "test_util.h"

namespace vorton {
namespace {

/// A random cloud: N vortons uniform in a unit ball with random vorticity
/// components in [−1, 1] 1/s, lattice-like spacing h = (V_ball/N)^{1/3}, σ = h, V = h³
/// (as the seeding does). Random vorticity has no large-scale cancellation,
/// which is the hard case for the far-field expansion.
struct Cloud {
    std::vector<glm::vec3> position, vorticity, alpha;
    std::vector<float> sigma2;
    VortonSources Sources() const { return {position, alpha, sigma2}; }
};

Cloud RandomCloud(int n, unsigned seed) {
    Cloud c;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const float h = std::cbrt(4.18879f / float(n));
    while (int(c.position.size()) < n) {
        const glm::vec3 x(u(rng), u(rng), u(rng));
        if (glm::dot(x, x) > 1.0f) continue;
        const glm::vec3 w(u(rng), u(rng), u(rng));
        c.position.push_back(x);
        c.vorticity.push_back(w);
        c.alpha.push_back(w * (h * h * h));
        c.sigma2.push_back(h * h);
    }
    return c;
}

struct Errors {
    double velocity, stretch;
};

/// Relative RMS error of the treecode's velocity and stretching at the sources.
Errors TreeErrors(const Cloud& c, float theta, int leafSize) {
    const std::size_t n = c.position.size();
    std::vector<glm::vec3> vd(n), sd(n), vt(n), st(n);
    DirectVelocity(c.Sources(), VelocityQuery{c.position, vd, c.vorticity, sd});
    Treecode tree;
    tree.Build(c.Sources(), leafSize);
    tree.EvaluateAtSources(c.vorticity, vt, st, theta);
    return {test::RelativeRms(vt, vd), test::RelativeRms(st, sd)};
}

TEST(Treecode, RandomCloudStressCase) {
    // Uncorrelated random vorticity is the worst case for a far-field
    // expansion: a cluster's field is all higher multipoles, and the reference
    // velocity is small (dominated by near neighbours). docs/METHOD.md §8's ≤ 1 % at
    // default settings is checked on flow states (DyeDropAfterTwentySteps,
    // measured 0.16 %); here the expansion itself: with the quadrupole the
    // error falls as θ³, measured 4.2 % at the default θ = 0.6 and under 1 %
    // at θ = 0.35 ((0.35/0.6)³ × 4.2 % ≈ 0.8 %).
    const SimParams defaults;
    const Cloud cloud = RandomCloud(4000, 3);
    const Errors atDefaults = TreeErrors(cloud, defaults.treeTheta, defaults.treeLeafSize);
    const Errors fine = TreeErrors(cloud, 0.35f, defaults.treeLeafSize);
    test::Measured("velocity_rms_error_default_theta", atDefaults.velocity);
    test::Measured("velocity_rms_error_theta_0.35", fine.velocity);
    test::Measured("stretch_rms_error_default_theta", atDefaults.stretch);
    EXPECT_LE(fine.velocity, 0.01);
    EXPECT_LE(atDefaults.velocity, 0.06);
}

// The leaves' eight-lane sum claims the same bits as AccumulateVorton source
// by source (tree_far_field.h): any reordering or contraction of its
// arithmetic would show here as an inexact match. A range that starts off
// the eight-lane boundary and ends in a partial chunk, and a target on a
// source (r = 0, where only σ² keeps the kernel finite).
TEST(Treecode, LeafSumsAreTheScalarKernelBitForBit) {
    const Cloud c = RandomCloud(21, 11);
    const std::size_t n = c.position.size();
    tree::LeafSourceRows rows;
    rows.Assign(n);
    for (std::size_t k = 0; k < n; ++k) rows.Set(k, c.position[k], c.alpha[k], c.sigma2[k]);
    const tree::LeafSources leaves = rows.View();
    const glm::vec3 omega(0.3f, -0.7f, 1.1f);
    for (const glm::vec3 x : {glm::vec3(0.2f, -0.1f, 0.4f), glm::vec3(1.5f, 0.3f, -2.0f), c.position[7]}) {
        for (const std::uint32_t begin : {0u, 3u}) {
            glm::vec3 v(0.5f), s(-0.25f), vLanes = v, sLanes = s, vOnly = v;
            for (std::uint32_t k = begin; k < n; ++k) {
                AccumulateVorton<true>(x - c.position[k], c.alpha[k], c.sigma2[k], omega, &v, &s);
            }
            tree::AddLeafStretch(leaves, begin, std::uint32_t(n), x, omega, &vLanes, &sLanes);
            tree::AddLeafVelocity(leaves, begin, std::uint32_t(n), x, &vOnly);
            for (int a = 0; a < 3; ++a) {
                EXPECT_EQ(vLanes[a], v[a]) << "begin " << begin << " component " << a;
                EXPECT_EQ(sLanes[a], s[a]) << "begin " << begin << " component " << a;
                EXPECT_EQ(vOnly[a], v[a]) << "begin " << begin << " component " << a;
            }
        }
    }
}

TEST(Treecode, StretchingFarFieldIsThirdOrder) {
    // The far field carries the stretching's Taylor series to the quadrupole,
    // like the velocity's, so its error falls as θ³: measured 5.4 % at
    // θ = 0.5 and 0.70 % at 0.25 (order 2.95). With the monopole alone it was
    // 27 % and 11 % (order 1.3), and with a wrong quadrupole term the order
    // would be the dipole's, 2; hence the bound 2.5.
    const Cloud cloud = RandomCloud(3000, 5);
    const double coarse = TreeErrors(cloud, 0.5f, 8).stretch,
                 fine = TreeErrors(cloud, 0.25f, 8).stretch;
    test::Measured("stretch_rms_error_theta_0.5", coarse);
    test::Measured("stretch_rms_error_theta_0.25", fine);
    const double order = std::log(coarse / fine) / std::log(2.0);
    test::Measured("stretch_convergence_order", order);
    EXPECT_GT(order, 2.5);
    EXPECT_LT(coarse, 0.08);
}

TEST(Treecode, ErrorFallsWithOpeningAngle) {
    const Cloud cloud = RandomCloud(3000, 5);
    const float thetas[] = {0.8f, 0.5f, 0.35f, 0.25f};
    double errors[4];
    for (int i = 0; i < 4; ++i) {
        errors[i] = TreeErrors(cloud, thetas[i], 8).velocity;
        test::Measured("velocity_rms_error_theta_" + std::to_string(thetas[i]), errors[i]);
        if (i > 0) {
            EXPECT_LT(errors[i], errors[i - 1]) << "theta " << thetas[i];
        }
    }
    // With monopole, dipole and quadrupole the first neglected far-field term
    // is the octupole, O(θ³) relative (a dipole-only far field gives O(θ²),
    // measured 2.1 before the quadrupole was added). The observed order
    // between θ = 0.5 and 0.25 must be near 3.
    const double order = std::log(errors[1] / errors[3]) / std::log(0.5 / 0.25);
    test::Measured("convergence_order", order);
    EXPECT_GT(order, 2.5);
}

TEST(Treecode, LeafSizeDoesNotChangeAccuracy) {
    // Leaf size trades traversal for direct sums; the far-field acceptance,
    // and so the error, hardly depends on it (measured within 5 %).
    const Cloud cloud = RandomCloud(3000, 9);
    const double reference = TreeErrors(cloud, 0.5f, 8).velocity;
    for (int leaf : {1, 4, 16, 64}) {
        const double e = TreeErrors(cloud, 0.5f, leaf).velocity;
        EXPECT_NEAR(e / reference, 1.0, 0.2) << "leaf " << leaf;
    }
}

TEST(Treecode, DyeDropAfterTwentySteps) {
    // The scene's own vortons once the flow has developed (vorticity in a thin
    // shell, strong cancellation between its halves). docs/METHOD.md §8 asks ≤ 1 %;
    // measured 0.16 % at the default θ = 0.6 with the quadrupole (1.5 % with
    // a dipole-only far field at θ = 0.5).
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 2000;
    setup.params.solver = Solver::Tree;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 20).ok);
    const Vortons& v = sim.GetVortons();
    const std::size_t n = v.Size();
    std::vector<glm::vec3> tree(n), direct(n);
    sim.VelocityAt(v.position, tree);
    sim.DirectVelocityAt(v.position, direct);
    const double velocityError = test::RelativeRms(tree, direct);
    test::Measured("velocity_rms_error", velocityError);
    EXPECT_LE(velocityError, 0.01);

    std::vector<glm::vec3> alpha(n), sd(n), st(n), vd(n), vt(n);
    std::vector<float> sigma2(n);
    for (std::size_t k = 0; k < n; ++k) {
        alpha[k] = v.vorticity[k] * v.volume[k];
        sigma2[k] = v.radius[k] * v.radius[k];
    }
    const VortonSources sources{v.position, alpha, sigma2};
    DirectVelocity(sources, VelocityQuery{v.position, vd, v.vorticity, sd});
    Treecode t;
    t.Build(sources, setup.params.treeLeafSize);
    t.EvaluateAtSources(v.vorticity, vt, st, setup.params.treeTheta);
    const double stretchError = test::RelativeRms(st, sd);
    test::Measured("stretch_rms_error", stretchError);
    // Measured 1.2 % (StretchingFarFieldIsThirdOrder), as the grid solver's
    // 1.2 % at H = h; the monopole-only far field it replaced gave 6.3 %
    // here. 3 % fails that and allows the stretching's usual few times the
    // velocity's error.
    EXPECT_LE(stretchError, 0.03);
    // The two query paths (arbitrary points, at the sources) agree.
    EXPECT_LE(test::RelativeRms(vt, tree), 1.0e-5);
}

}  // namespace
}  // namespace vorton
