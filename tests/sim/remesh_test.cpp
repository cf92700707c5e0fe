// Remeshing onto the seeding lattice (remesh.h): the M4′ kernel reproduces
// polynomials to degree 2, so total strength Σα, the linear impulse ½Σx×α
// and each group's excess mass are conserved up to round-off and the points
// dropped below the threshold.

#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/remesh.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

struct Totals {
    glm::dvec3 alpha{0.0}, impulse{0.0};
    double absAlpha = 0.0, mass = 0.0;
};

Totals TotalsOf(const Vortons& v, const SceneSetup& setup) {
    Totals t;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::dvec3 a = glm::dvec3(v.vorticity[k]) * double(v.volume[k]);
        t.alpha += a;
        t.absAlpha += glm::length(a);
        t.impulse += 0.5 * glm::cross(glm::dvec3(v.position[k]), a);
        if (v.group[k] != kAmbientGroup) {
            t.mass +=
                double(setup.groups[v.group[k]].densityDeviation) * v.massFraction[k] * v.volume[k];
        }
    }
    return t;
}

class Remeshing : public ::testing::TestWithParam<std::string> {};

TEST_P(Remeshing, ConservesStrengthImpulseAndMass) {
    // Ten steps without remeshing move the vortons off the lattice; then one
    // remesh. Round-off: float sums of ~10⁴ weighted terms, ~1e-6 relative;
    // dropped points each carry < 1e-4 of the largest |α| (measured: Σα
    // 2e-7 of Σ|α|, impulse 2e-6 (ring) and 1.2e-5 (drop), mass 3e-8).
    SceneSetup setup = test::LoadSetup(GetParam());
    setup.params.vortonCount = 3000;
    setup.params.tracerCount = 0;
    setup.params.remeshEvery = 0;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 10).ok);
    Vortons v = sim.GetVortons();
    Vortons seeded;
    Lattice lattice;
    SeedVortons(setup, seeded, &lattice);
    ASSERT_GT(lattice.spacing, 0.0f);

    const Totals before = TotalsOf(v, setup);
    std::vector<std::uint8_t> buoyant(setup.groups.size(), 1);
    RemeshSettings settings;
    settings.sigma = v.radius[0];
    settings.buoyantGroup = buoyant;
    ASSERT_TRUE(Remesh(lattice, settings, v));
    const Totals after = TotalsOf(v, setup);
    test::Measured("strength_change", glm::length(after.alpha - before.alpha) / before.absAlpha);
    test::Measured("impulse_change",
                   glm::length(after.impulse - before.impulse) / glm::length(before.impulse));
    EXPECT_LT(glm::length(after.alpha - before.alpha), 1.0e-5 * before.absAlpha);
    EXPECT_LT(glm::length(after.impulse - before.impulse), 1.0e-4 * glm::length(before.impulse));
    if (before.mass != 0.0) {
        test::Measured("mass_change", std::abs(after.mass - before.mass) / std::abs(before.mass));
        EXPECT_LT(std::abs(after.mass - before.mass), 1.0e-5 * std::abs(before.mass));
    }
    // Every vorton now sits on the lattice.
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::vec3 u = (v.position[k] - lattice.origin) / lattice.spacing;
        ASSERT_LT(glm::length(u - glm::round(u)), 1.0e-3f) << "vorton " << k;
    }
}

INSTANTIATE_TEST_SUITE_P(Scenes, Remeshing, ::testing::Values("vortex_ring", "dye_drop"));

}  // namespace
}  // namespace vorton
