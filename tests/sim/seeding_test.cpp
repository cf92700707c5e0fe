// Seeding density groups with vortons and tracers.

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/particles/seeding.h"
#include "test_util.h"

namespace vorton {
namespace {

class SeedingScene : public ::testing::TestWithParam<std::string> {};

TEST_P(SeedingScene, CountsAndPlacement) {
    SceneSetup setup = test::LoadSetup(GetParam());
    setup.params.tracerCount = 20000;  // placement, not count, is what matters here
    Vortons vortons;
    Tracers tracers;
    SeedVortons(setup, vortons);
    SeedTracers(setup, tracers);

    // The lattice spacing is chosen from the groups' (and halos') analytic
    // volume; counting lattice points in a shape a few spacings across is
    // off by the surface layer, a few %: 15 % bound.
    const double ratio = double(vortons.Size()) / setup.params.vortonCount;
    test::Measured("vortons_over_target", ratio);
    EXPECT_NEAR(ratio, 1.0, 0.15);
    EXPECT_EQ(tracers.Size(), std::size_t(setup.params.tracerCount));

    for (std::size_t i = 0; i < tracers.Size(); ++i) {
        ASSERT_LT(tracers.group[i], setup.groups.size());
        ASSERT_TRUE(ShapeContains(setup.groups[tracers.group[i]], tracers.position[i]))
            << "tracer " << i;
    }
    bool anyHalo = false;
    for (const auto& g : setup.groups) anyHalo = anyHalo || g.halo > 0.0f;
    std::size_t ambient = 0;
    for (std::size_t k = 0; k < vortons.Size(); ++k) {
        const glm::vec3 x = vortons.position[k];
        ASSERT_GT(vortons.radius[k], 0.0f);
        ASSERT_GT(vortons.volume[k], 0.0f);
        if (vortons.group[k] == kAmbientGroup) {
            ++ambient;
            // A halo vorton lies in some group's halo and in no group, and carries no vorticity.
            bool inGroup = false, inHalo = false;
            for (const auto& g : setup.groups) {
                inGroup = inGroup || ShapeContains(g, x);
                inHalo = inHalo || ShapeContains(g, x, g.halo);
            }
            ASSERT_FALSE(inGroup) << "vorton " << k;
            ASSERT_TRUE(inHalo) << "vorton " << k;
            ASSERT_EQ(vortons.vorticity[k], glm::vec3(0.0f));
        } else {
            ASSERT_LT(vortons.group[k], setup.groups.size());
            ASSERT_TRUE(ShapeContains(setup.groups[vortons.group[k]], x)) << "vorton " << k;
        }
    }
    EXPECT_EQ(ambient > 0, anyHalo);
    // Each group gets vortons.
    for (std::size_t g = 0; g < setup.groups.size(); ++g) {
        std::size_t n = 0;
        for (auto gk : vortons.group) n += gk == g;
        EXPECT_GT(n, 0u) << setup.groups[g].name;
    }
}

INSTANTIATE_TEST_SUITE_P(Scenes, SeedingScene,
                         ::testing::Values("dye_drop", "two_drops", "vortex_ring",
                                           "rayleigh_taylor"));

TEST(Seeding, TorusCarriesItsCirculation) {
    // A torus of circulation Γ: Σ ω·φ̂ V over its vortons is Γ times the
    // length of the core circle 2πR (Σ ω V = ∮ Γ dl), so Γ ≈ Σ ω·φ̂ V / (2πR).
    // The seeding spreads Γ/(πa²) uniformly over lattice points inside the
    // core, so the error is the lattice's volume error for a torus of core
    // radius a/h ≈ 3.4 spacings: a few %; 10 % bound.
    SceneSetup setup = test::LoadSetup("vortex_ring");
    const DensityGroup& ring = setup.groups[0];
    ASSERT_EQ(ring.shape, DensityGroup::Shape::Torus);
    Vortons vortons;
    SeedVortons(setup, vortons);
    double azimuthal = 0.0;
    glm::dvec3 total(0.0);
    for (std::size_t k = 0; k < vortons.Size(); ++k) {
        const glm::dvec3 d = glm::dvec3(vortons.position[k] - ring.center);
        const double rho = std::hypot(d.x, d.y);
        const glm::dvec3 phi(-d.y / rho, d.x / rho, 0.0);
        azimuthal += glm::dot(glm::dvec3(vortons.vorticity[k]), phi) * vortons.volume[k];
        total += glm::dvec3(vortons.vorticity[k]) * double(vortons.volume[k]);
    }
    const double gamma = azimuthal / (2.0 * std::numbers::pi * ring.radius);
    test::Measured("circulation_over_target", gamma / ring.circulation);
    EXPECT_NEAR(gamma / ring.circulation, 1.0, 0.1);
    // A closed ring has no net strength: Σα = 0 up to the lattice's symmetry.
    EXPECT_LT(glm::length(total), 1.0e-3 * std::abs(azimuthal));
}

TEST(Seeding, SameInputsSameVortonsAndTracers) {
    SceneSetup setup = test::LoadSetup("two_drops");
    setup.params.tracerCount = 5000;
    Vortons a, b;
    Tracers ta, tb;
    SeedVortons(setup, a);
    SeedVortons(setup, b);
    SeedTracers(setup, ta);
    SeedTracers(setup, tb);
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(ta.position, tb.position);
    // A different seed moves the tracers but not the vortons (a lattice).
    setup.params.seed += 1;
    Tracers tc;
    SeedTracers(setup, tc);
    EXPECT_NE(tc.position, ta.position);
}

TEST(Seeding, TheClearWaterLatticeFitsTheFirstBodyAndKeepsEverySmallerOneResolved) {
    // h = first radius / body_resolution, refined only as far as every body spans
    // min(body_resolution, 4) spacings (kMinSheetBodySpans, the remesh's own floor).
    const auto spacing = [](std::vector<float> radii, float resolution) {
        std::vector<BodySpec> bodies(radii.size());
        for (std::size_t i = 0; i < radii.size(); ++i) bodies[i].radius = radii[i];
        return ClearWaterSpacing(bodies, resolution);
    };
    // Five balls of radii 0.08–0.12 m: the first's 0.02 m, where the 0.08-m ball spans
    // 4 (fitting the smallest at 5 gave 0.016 m, and twice the vortons).
    EXPECT_FLOAT_EQ(spacing({0.1f, 0.1f, 0.08f, 0.12f, 0.1f}, 5.0f), 0.02f);
    // A ball under 4/5 of the first refines it, to its own 4 spacings.
    EXPECT_FLOAT_EQ(spacing({0.1f, 0.06f}, 5.0f), 0.015f);
    // A first ball smaller than the others sets it at body_resolution.
    EXPECT_FLOAT_EQ(spacing({0.06f, 0.1f}, 5.0f), 0.012f);
    // At body_resolution ≤ 4 every ball spans at least body_resolution: the smallest's.
    EXPECT_FLOAT_EQ(spacing({0.1f, 0.06f}, 3.0f), 0.02f);
    // A finer body_resolution holds for the first; the others keep ≥ 4.
    EXPECT_FLOAT_EQ(spacing({0.1f, 0.08f}, 8.0f), 0.0125f);
    // A resolution under 1 is taken as 1 (as the panel's range).
    EXPECT_FLOAT_EQ(spacing({0.1f}, 0.5f), 0.1f);
}

TEST(Seeding, ShapeVolumes) {
    DensityGroup sphere;
    sphere.radius = 0.5f;
    EXPECT_NEAR(ShapeVolume(sphere), 4.0 / 3.0 * std::numbers::pi * 0.125, 1e-6);
    DensityGroup box;
    box.shape = DensityGroup::Shape::Box;
    box.halfExtents = glm::vec3(0.1f, 0.2f, 0.3f);
    EXPECT_NEAR(ShapeVolume(box), 0.048, 1e-7);
    DensityGroup torus;
    torus.shape = DensityGroup::Shape::Torus;
    torus.radius = 0.3f;
    torus.minorRadius = 0.05f;
    EXPECT_NEAR(ShapeVolume(torus), 2.0 * std::numbers::pi * std::numbers::pi * 0.3 * 0.0025, 1e-7);
}

}  // namespace
}  // namespace vorton
