// The dye drop and the two drops (docs/METHOD.md §8: a heavy drop sinks and rolls
// up into a vortex ring; the heavy one sinks, the light one rises).

#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

/// RMS horizontal distance of a group's tracers from their centroid.
double HorizontalRadius(const Simulation& sim, std::uint16_t group) {
    const glm::dvec3 c = test::TracerCentroid(sim, group);
    const Tracers& t = sim.GetTracers();
    double sum = 0.0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < t.Size(); ++i) {
        if (t.group[i] != group) continue;
        const glm::dvec3 d = glm::dvec3(t.position[i]) - c;
        sum += d.x * d.x + d.y * d.y;
        ++n;
    }
    return std::sqrt(sum / double(n));
}

/// a/a_sphere of the dye's centroid over the first `steps` steps from rest,
/// where a_sphere = (2/3)·g·δρ/ρ₀; the smallest over the steps (it falls slowly
/// as the drop deforms).
double InitialAccelerationRatio(int vortonCount, int steps) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.vortonCount = vortonCount;
    setup.params.tracerCount = 20000;
    const DensityGroup& drop = setup.groups[0];
    const double expected = 2.0 / 3.0 * std::abs(setup.params.gravity.z) * drop.densityDeviation /
                            setup.params.ambientDensity;
    Simulation sim(setup);
    const glm::dvec3 c0 = test::TracerCentroid(sim, 0);
    tbb::task_arena arena(2);
    double ratio = 1.0e9;
    for (int s = 1; s <= steps; ++s) {
        StepReport r;
        arena.execute([&] { r = sim.Step(); });
        EXPECT_TRUE(r.ok) << r.message;
        const glm::dvec3 c = test::TracerCentroid(sim, 0);
        const double t = sim.Time();
        // From rest z = z₀ − ½at²; Heun is exact for that quadratic.
        ratio = std::min(ratio, -2.0 * (c.z - c0.z) / (t * t) / expected);
        EXPECT_LT(std::hypot(c.x - c0.x, c.y - c0.y),
                  1.0e-3 * std::abs(c.z - c0.z));  // straight down
    }
    return ratio;
}

/// Fraction of a group's tracers within `radius` of the vertical through their centroid.
double NearAxisFraction(const Simulation& sim, std::uint16_t group, double radius) {
    const glm::dvec3 c = test::TracerCentroid(sim, group);
    const Tracers& t = sim.GetTracers();
    std::size_t near = 0, n = 0;
    for (std::size_t i = 0; i < t.Size(); ++i) {
        if (t.group[i] != group) continue;
        ++n;
        near += std::hypot(t.position[i].x - c.x, t.position[i].y - c.y) < radius;
    }
    return double(near) / double(n);
}

TEST(DyeDrop, StartsSinkingAtTwoThirdsOfReducedGravity) {
    // A sphere of excess density δρ in fluid at rest: buoyancy g·δρ·V moves
    // the sphere's own mass (ρ₀ + δρ)V plus the added mass ½ρ₀V, so it starts
    // at a = g·δρ/(1.5ρ₀) (Boussinesq: δρ ≪ ρ₀). In vortex terms the impulse
    // grows at g·δρ·V/ρ₀ (ConservationTest) and a sphere whose vortex sheet
    // sits on its surface carries I = (3/2)V·U, with uniform flow inside, so
    // the dye's centroid moves at U.
    //
    // Here the sheet is not on the surface: the density jump is smeared by
    // the CIC grid (cells of one spacing h), its gradient, the receiving
    // stencil and the cores (σ = 1.5h) over a shell several h thick, and a
    // thicker shell of the same impulse moves its inside more slowly.
    // Measured a/a_sphere (h₀ = spacing at the scene's 3000 vortons,
    // h₀/R = 0.16):
    //
    //     h/h₀       1      0.67   0.5    0.46   0.33   0.31
    //     a/a_sph    0.648  0.761  0.803  0.814  0.857  0.867
    //
    // The deficit shrinks as h^0.8…h^0.9; extrapolations to h = 0 give
    // 0.98–1.01. The test checks this convergence at h₀ and h₀/2: the
    // first-order Richardson value 2a(h₀/2) − a(h₀) underestimates the limit
    // when the order is below 1 (0.958 here, against 1.01 for order 0.8), so
    // 10 % bounds it; without the added mass (a = g·δρ/ρ₀) it would be 1.5,
    // without the sheet's interior flow far below.
    const double coarse = InitialAccelerationRatio(3000, 3);
    const double fine = InitialAccelerationRatio(24000, 3);
    test::Measured("acceleration_ratio_3000_vortons", coarse);
    test::Measured("acceleration_ratio_24000_vortons", fine);
    const double extrapolated = 2.0 * fine - coarse;
    test::Measured("acceleration_ratio_extrapolated", extrapolated);
    EXPECT_LT(coarse, fine);  // converging from below, as a widened sheet must
    EXPECT_LT(fine, 1.0);
    EXPECT_NEAR(extrapolated, 1.0, 0.1);
}

TEST(DyeDrop, AfterTwoSecondsLowerWiderAndARing) {
    // Measured at the scene's resolution: the centroid has dropped 0.37 m
    // (constant acceleration would give 0.65 m: the ring's drag), the RMS
    // horizontal radius grew 25 %, and the dye has left the axis (fraction
    // within 5 cm of it 9.3 % → 4.5 %) as it rolls up into a ring. Bounds at
    // about half of each change.
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 10000;
    Simulation sim(setup);
    const glm::dvec3 c0 = test::TracerCentroid(sim, 0);
    const double r0 = HorizontalRadius(sim, 0);
    const double axis0 = NearAxisFraction(sim, 0, 0.05);
    const StepReport r = test::RunSteps(sim, 100);
    ASSERT_TRUE(r.ok) << r.message;
    const glm::dvec3 c1 = test::TracerCentroid(sim, 0);
    const double r1 = HorizontalRadius(sim, 0);
    const double axis1 = NearAxisFraction(sim, 0, 0.05);
    test::Measured("centroid_drop_m", c0.z - c1.z);
    test::Measured("horizontal_radius_growth", r1 / r0);
    test::Measured("near_axis_fraction_ratio", axis1 / axis0);
    EXPECT_LT(c1.z, c0.z - 0.15);
    EXPECT_GT(r1, 1.12 * r0);
    EXPECT_LT(axis1, 0.75 * axis0);
    // The ring's vorticity circulates so that fluid goes down through the
    // middle: Σ ω·φ̂ V < 0 with φ̂ azimuthal about the vertical through the dye.
    const Vortons& v = sim.GetVortons();
    double azimuthal = 0.0, magnitude = 0.0;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::dvec3 d = glm::dvec3(v.position[k]) - c1;
        const double rho = std::hypot(d.x, d.y);
        if (rho < 1e-6) continue;
        azimuthal += glm::dot(glm::dvec3(v.vorticity[k]), glm::dvec3(-d.y / rho, d.x / rho, 0.0)) *
                     v.volume[k];
        magnitude += glm::length(glm::dvec3(v.vorticity[k])) * v.volume[k];
    }
    test::Measured("azimuthal_fraction", azimuthal / magnitude);
    EXPECT_LT(azimuthal, -0.5 * magnitude);  // mostly azimuthal, and of that sign
}

TEST(TwoDrops, HeavySinksLightRises) {
    SceneSetup setup = test::LoadSetup("two_drops");
    setup.params.vortonCount = 3000;
    setup.params.tracerCount = 10000;
    ASSERT_GT(setup.groups[0].densityDeviation, 0.0f);
    ASSERT_LT(setup.groups[1].densityDeviation, 0.0f);
    Simulation sim(setup);
    const glm::dvec3 heavy0 = test::TracerCentroid(sim, 0), light0 = test::TracerCentroid(sim, 1);
    const StepReport r = test::RunSteps(sim, 25);
    ASSERT_TRUE(r.ok) << r.message;
    const double heavyDz = test::TracerCentroid(sim, 0).z - heavy0.z;
    const double lightDz = test::TracerCentroid(sim, 1).z - light0.z;
    test::Measured("heavy_dz", heavyDz);
    test::Measured("light_dz", lightDz);
    // Over 0.5 s at ~(2/3)g·δρ/ρ₀ = 0.33 m/s²: ~4 cm each way; 1 cm bound.
    EXPECT_LT(heavyDz, -0.01);
    EXPECT_GT(lightDz, 0.01);
}

}  // namespace
}  // namespace vorton
