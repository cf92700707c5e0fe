// Fluid painted into a running simulation (issue 14, item 5): Simulation::SeedGroupNow seeds a
// new group as the scene's groups are seeded, adding its excess mass Σ δρ V.

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "sim/particles/seeding.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

/// A light blob beside dye_drop's drop, with a halo like the drop's.
DensityGroup LightBlob(std::size_t index) {
    DensityGroup g;
    g.name = "paint_" + std::to_string(index);
    g.shape = DensityGroup::Shape::Sphere;
    g.center = glm::vec3(0.6f, 0.0f, 0.2f);
    g.radius = 0.12f;
    g.halo = 0.08f;
    g.densityDeviation = -30.0f;
    g.dye = glm::vec3(1.0f, 0.4f, 0.1f);
    return g;
}

TEST(Paint, AddsTheBlobsExcessMassAndItRises) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 2000;
    setup.params.smagorinsky = 0.0f;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 10).ok);
    const Diagnostics before = sim.ComputeDiagnostics();
    const std::size_t vortons = sim.GetVortons().Size(), tracers = sim.GetTracers().Size();
    const float h = sim.Spacing();

    sim.Setup().groups.push_back(LightBlob(1));
    const std::size_t g = sim.Setup().groups.size() - 1;
    const Status s = sim.SeedGroupNow(g, 500);
    ASSERT_TRUE(s.ok()) << s.error();
    const Diagnostics after = sim.ComputeDiagnostics();
    // Exactly δρ·h³ per vorton seeded inside (float round-off of the double sum, 1e-6).
    std::size_t inside = 0;
    for (std::size_t k = vortons; k < sim.GetVortons().Size(); ++k) inside += sim.GetVortons().group[k] == g;
    const double added = after.excessMass - before.excessMass;
    const double perVorton = -30.0 * double(h) * h * h;
    test::Measured("painted_vortons_inside", double(inside));
    test::Measured("painted_mass_kg", added);
    EXPECT_NEAR(added, perVorton * double(inside), 1e-6 * std::abs(added));
    // And δρ times the sphere's volume to the lattice's volume error (radius 0.12 m ≈ 3.7 h:
    // a few %, as Conservation.ExcessMassIsTheGroupsMass allows 10 %).
    const double exact = -30.0 * (4.0 / 3.0) * std::numbers::pi * 0.12 * 0.12 * 0.12;
    test::Measured("painted_mass_over_exact", added / exact);
    EXPECT_NEAR(added / exact, 1.0, 0.1);
    // The halo's vortons carry no mass; no vorticity was added.
    EXPECT_GT(sim.GetVortons().Size() - vortons, inside);
    EXPECT_EQ(after.circulation, before.circulation);
    EXPECT_EQ(sim.GetTracers().Size(), tracers + 500);

    // It is fluid like the rest: the mass stays (remeshing conserves it to 1e-5), the blob
    // rises (lighter), and the impulse grows at (g/ρ₀)Σδρ_kV_k with the painted mass in it
    // (the scheme's 3 % with a halo, flow_diagnostics.cpp).
    double z0 = 0.0;
    for (std::size_t i = tracers; i < sim.GetTracers().Size(); ++i) z0 += sim.GetTracers().position[i].z;
    const glm::dvec3 i0 = after.impulse;
    ASSERT_TRUE(test::RunSteps(sim, 10).ok);
    const Diagnostics later = sim.ComputeDiagnostics();
    EXPECT_NEAR(later.excessMass, after.excessMass, 1e-5 * std::abs(after.excessMass));
    double z1 = 0.0;
    for (std::size_t i = tracers; i < sim.GetTracers().Size(); ++i) {
        ASSERT_EQ(sim.GetTracers().group[i], g);
        z1 += sim.GetTracers().position[i].z;
    }
    test::Measured("painted_tracers_rise_m", (z1 - z0) / 500.0);
    EXPECT_GT(z1, z0);
    const double rate = (later.impulse.z - i0.z) / (10.0 * double(setup.params.dt));
    const double expected = double(setup.params.gravity.z) * after.excessMass / setup.params.ambientDensity;
    test::Measured("impulse_rate_after_paint_over_expected", rate / expected);
    EXPECT_NEAR(rate / expected, 1.0, 0.03);
}

TEST(Paint, AThrownBlobCarriesItsImpulseAndMoves) {
    // A blob thrown at U = 0.3 m/s along x gets the vortex sheet of a sphere moving through
    // still fluid: impulse 2πR³U (its momentum with added mass over ρ₀) and no net Σα; then
    // its dye travels along x (measured 0.52 U·t on average over 0.2 s: the outer dye sits in
    // the smoothed sheet, and the sheet starts rolling up; bounds 0.3-1.1). The sheet lies on the lattice points within h/2 of
    // the surface (R = 0.12 m ≈ 3.7 h): the shell's lattice volume is off by its own sampling
    // error, measured below; 15 % bounds it and fails on a lost factor 3/2 or a wrong sign.
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 2000;
    Simulation sim(setup);
    const Diagnostics before = sim.ComputeDiagnostics();
    const std::size_t tracers = sim.GetTracers().Size();
    DensityGroup blob = LightBlob(1);
    blob.densityDeviation = 0.0f;  // neutral: only the throw moves it
    sim.Setup().groups.push_back(blob);
    const glm::vec3 u(0.3f, 0.0f, 0.0f);
    const Status s = sim.SeedGroupNow(1, 500, u);
    ASSERT_TRUE(s.ok()) << s.error();
    const Diagnostics after = sim.ComputeDiagnostics();
    const double expected = 2.0 * std::numbers::pi * std::pow(0.12, 3) * 0.3;
    const glm::dvec3 added = after.impulse - before.impulse;
    test::Measured("thrown_impulse_over_2piR3U", added.x / expected);
    EXPECT_NEAR(added.x / expected, 1.0, 0.15);
    EXPECT_LT(std::hypot(added.y, added.z), 0.02 * expected);
    double strength = 0.0;
    for (std::size_t k = 0; k < sim.GetVortons().Size(); ++k) {
        strength += glm::length(sim.GetVortons().vorticity[k]) * sim.GetVortons().volume[k];
    }
    test::Measured("thrown_net_strength_over_total", glm::length(after.circulation - before.circulation) / strength);
    EXPECT_LT(glm::length(after.circulation - before.circulation), 1e-6 * strength);
    // Inside, the sheet's flow is uniform U for a sharp sheet; smoothed over cores of 1.5 h on a
    // sphere of 3.7 h it is less (measured).
    std::vector<glm::vec3> centre{blob.center}, velocity(1);
    sim.DirectVelocityAt(centre, velocity);
    test::Measured("thrown_centre_velocity_over_U", velocity[0].x / 0.3);
    EXPECT_GT(velocity[0].x, 0.5f * 0.3f);
    EXPECT_LT(velocity[0].x, 1.1f * 0.3f);
    double x0 = 0.0;
    for (std::size_t i = tracers; i < sim.GetTracers().Size(); ++i) x0 += sim.GetTracers().position[i].x;
    ASSERT_TRUE(test::RunSteps(sim, 10).ok);
    double x1 = 0.0;
    for (std::size_t i = tracers; i < sim.GetTracers().Size(); ++i) x1 += sim.GetTracers().position[i].x;
    const double travelled = (x1 - x0) / 500.0, ut = 0.3 * 10 * double(setup.params.dt);
    test::Measured("thrown_dye_travel_over_Ut", travelled / ut);
    EXPECT_GT(travelled, 0.3 * ut);
    EXPECT_LT(travelled, 1.1 * ut);
}

TEST(Paint, RefusesWhatItCannotSeed) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 200;
    Simulation sim(setup);
    EXPECT_FALSE(sim.SeedGroupNow(5, 10).ok());
    // A sphere of 0.2 h centred between lattice points (the vortons sit on them at seeding):
    // the nearest point is 0.87 h away.
    DensityGroup tiny = LightBlob(1);
    tiny.radius = 0.2f * sim.Spacing();
    tiny.center = sim.GetVortons().position[0] + glm::vec3(0.5f * sim.Spacing());
    tiny.halo = 0.0f;
    sim.Setup().groups.push_back(tiny);
    const std::size_t n = sim.GetVortons().Size(), t = sim.GetTracers().Size();
    const Status s = sim.SeedGroupNow(1, 10);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find("no lattice point"), std::string::npos) << s.error();
    EXPECT_EQ(sim.GetVortons().Size(), n);
    EXPECT_EQ(sim.GetTracers().Size(), t);
}

}  // namespace
}  // namespace vorton
