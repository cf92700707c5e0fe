// Remeshing onto the seeding lattice (remesh.h): the M4′ kernel reproduces
// polynomials to degree 2, so total strength Σα, the linear impulse ½Σx×α
// and each group's excess mass are conserved up to round-off and the points
// dropped below the threshold.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include <string>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/numerics/aabb.h"
#include "sim/numerics/uniform_grid.h"
#include "sim/particles/remesh.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

struct Totals {
    glm::dvec3 alpha{0.0}, impulse{0.0};
    double absAlpha = 0.0, absImpulse = 0.0;
    std::vector<double> mass;  // per group: Σ δρ_g · massFraction · V, kg

    /// What the impulse's change is measured against: |I|, or the scale of
    /// its terms Σ½|x×α| when they cancel (two drops: heavy and light, ±I).
    double ImpulseScale() const { return std::max(glm::length(impulse), 0.1 * absImpulse); }
};

Totals TotalsOf(const Vortons& v, const SceneSetup& setup) {
    Totals t;
    t.mass.assign(setup.groups.size(), 0.0);
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::dvec3 a = glm::dvec3(v.vorticity[k]) * double(v.volume[k]);
        t.alpha += a;
        t.absAlpha += glm::length(a);
        const glm::dvec3 i = 0.5 * glm::cross(glm::dvec3(v.position[k]), a);
        t.impulse += i;
        t.absImpulse += glm::length(i);
        if (v.group[k] != kAmbientGroup) {
            t.mass[v.group[k]] += double(setup.groups[v.group[k]].densityDeviation) * v.massFraction[k] * v.volume[k];
        }
    }
    return t;
}

/// Largest relative change of a group's excess mass.
double MassChange(const Totals& before, const Totals& after) {
    double worst = 0.0;
    for (std::size_t g = 0; g < before.mass.size(); ++g) {
        if (before.mass[g] != 0.0) worst = std::max(worst, std::abs(after.mass[g] - before.mass[g]) / std::abs(before.mass[g]));
    }
    return worst;
}

class Remeshing : public ::testing::TestWithParam<std::string> {};

/// Vortons of the scene after 100 steps (with remeshing every 5) and 4 more
/// without: a developed flow, off the lattice.
Vortons Developed(const std::string& scene, Lattice* lattice, SceneSetup* setupOut) {
    SceneSetup setup = test::LoadSetup(scene);
    setup.params.vortonCount = 3000;
    setup.params.tracerCount = 0;
    Simulation sim(setup);
    EXPECT_TRUE(test::RunSteps(sim, 104).ok);
    Vortons seeded;
    SeedVortons(setup, seeded, lattice);
    *setupOut = setup;
    return sim.GetVortons();
}

/// A developed flow ready to remesh: the scene's vortons (Developed) with
/// their lattice and setup, and remesh settings with the vortons' core radius
/// and every group buoyant. Not copyable: settings.buoyantGroup views `buoyant`.
struct DevelopedFlow {
    explicit DevelopedFlow(const std::string& scene)
        : developed(Developed(scene, &lattice, &setup)), buoyant(setup.groups.size(), 1) {
        settings.sigma = developed.radius[0];
        settings.buoyantGroup = buoyant;
    }
    DevelopedFlow(const DevelopedFlow&) = delete;
    DevelopedFlow& operator=(const DevelopedFlow&) = delete;

    Lattice lattice;
    SceneSetup setup;
    Vortons developed;
    std::vector<std::uint8_t> buoyant;
    RemeshSettings settings;
};

TEST_P(Remeshing, ConservesStrengthImpulseAndMass) {
    // One remesh of a developed flow. The M4′ spreading conserves Σα, ½Σx×α
    // and each group's volume exactly (float sums of ~10⁵ terms: ~1e-6);
    // culling drops at most 1e-4 of Σ|α|, the group volume it drops is folded
    // back, and the limit of the issue is 0.1 % per remesh.
    // Measured: Σα ≤ 4e-6 of Σ|α|; impulse 1.6e-5 (ring), 7e-6 (drop);
    // mass 2e-8.
    DevelopedFlow f(GetParam());
    ASSERT_GT(f.lattice.spacing, 0.0f);

    Vortons v = f.developed;
    const Totals before = TotalsOf(v, f.setup);
    RemeshReport report;
    ASSERT_TRUE(Remesh(f.lattice, f.settings, v, &report));
    const Totals after = TotalsOf(v, f.setup);
    test::Measured("strength_change", glm::length(after.alpha - before.alpha) / before.absAlpha);
    test::Measured("impulse_change", glm::length(after.impulse - before.impulse) / before.ImpulseScale());
    test::Measured("dropped_strength", report.droppedStrength);
    test::Measured("mass_change", MassChange(before, after));
    EXPECT_LE(report.droppedStrength, 1.0e-4);
    EXPECT_LT(glm::length(after.alpha - before.alpha), 1.0e-3 * before.absAlpha);
    EXPECT_LT(glm::length(after.impulse - before.impulse), 1.0e-3 * before.ImpulseScale());
    EXPECT_LT(MassChange(before, after), 1.0e-5);
    // Every vorton now sits on the lattice.
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::vec3 u = (v.position[k] - f.lattice.origin) / f.lattice.spacing;
        ASSERT_LT(glm::length(u - glm::round(u)), 1.0e-3f) << "vorton " << k;
    }
}

/// Remeshes `v` with `f`'s lattice and settings and checks what any
/// coarsening remesh gives: at least one coarsening, each by coarsenFactor,
/// the core radius kept in proportion to the spacing, nothing dropped by the
/// count cap, and Σα, the impulse and the mass conserved as in any remesh
/// (1e-3, 1e-3, 1e-5).
RemeshReport RemeshExpectingCoarsening(const DevelopedFlow& f, Vortons& v) {
    const Lattice& lattice = f.lattice;
    const RemeshSettings& settings = f.settings;
    const Totals before = TotalsOf(v, f.setup);
    RemeshReport report;
    EXPECT_TRUE(Remesh(lattice, settings, v, &report));
    const Totals after = TotalsOf(v, f.setup);
    test::Measured("coarsened", report.coarsened);
    EXPECT_GE(report.coarsened, 1);
    EXPECT_FALSE(report.capped);
    EXPECT_NEAR(report.lattice.spacing, lattice.spacing * std::pow(settings.coarsenFactor, float(report.coarsened)),
                1e-5f * lattice.spacing);
    EXPECT_NEAR(v.radius[0] / report.lattice.spacing, settings.sigma / lattice.spacing, 1e-4f);
    EXPECT_LT(glm::length(after.alpha - before.alpha), 1.0e-3 * before.absAlpha);
    EXPECT_LT(glm::length(after.impulse - before.impulse), 1.0e-3 * before.ImpulseScale());
    EXPECT_LT(MassChange(before, after), 1.0e-5);
    return report;
}

TEST_P(Remeshing, AtTheCapCoarsensAndConserves) {
    // With room for a third of the vortons the lattice coarsens (by 2^{1/3}
    // at a time, until they fit) instead of dropping what the flow carries,
    // so the invariants hold as in any remesh.
    DevelopedFlow f(GetParam());
    RemeshSettings& settings = f.settings;
    Vortons v = f.developed;
    settings.maxVortons = v.Size() / 3;
    EXPECT_EQ(RemeshExpectingCoarsening(f, v).cause, CoarseningCause::Vortons);
    EXPECT_LE(v.Size(), settings.maxVortons);

    // Not allowed to coarsen: the cap holds anyway, by dropping the weakest.
    Vortons w = f.developed;
    settings.maxVortons = w.Size() / 3;
    settings.maxCoarsening = 0;
    RemeshReport report;
    ASSERT_TRUE(Remesh(f.lattice, settings, w, &report));
    EXPECT_EQ(w.Size(), settings.maxVortons);
    EXPECT_TRUE(report.capped);
    EXPECT_EQ(report.coarsened, 0);
    EXPECT_EQ(report.cause, CoarseningCause::None);
}

/// Points of the solver grid around `v` (cells `cell`, margin 2.5 cells), as
/// RemeshSettings::maxGridPoints counts them.
std::size_t GridPoints(const Vortons& v, float cell) { return GridPointCount(BoundsOf(v.position), cell, 2.5f * cell); }

TEST_P(Remeshing, PastTheGridCapCoarsensAndConserves) {
    // A solver grid cap of a third of the points the vortons' grid has: the
    // lattice coarsens until the grid of its spacing fits (one coarsening
    // cuts the points by about 2, so two or more), with the count under its
    // own cap untouched, and the invariants hold as in any remesh. A cap the
    // grid already meets changes nothing.
    DevelopedFlow f(GetParam());
    RemeshSettings& settings = f.settings;
    Vortons v = f.developed;
    const std::size_t points = GridPoints(v, f.lattice.spacing);
    settings.maxGridPoints = points / 3;
    RemeshReport report = RemeshExpectingCoarsening(f, v);
    EXPECT_EQ(report.cause, CoarseningCause::GridPoints);
    test::Measured("grid_points_before", double(points));
    test::Measured("grid_points_after", double(GridPoints(v, report.lattice.spacing)));
    EXPECT_LE(GridPoints(v, report.lattice.spacing), settings.maxGridPoints);

    // The grid cell follows gridCellRatio: at twice the spacing the same cap
    // needs fewer coarsenings.
    Vortons w = f.developed;
    settings.gridCellRatio = 2.0f;
    RemeshReport coarse;
    ASSERT_TRUE(Remesh(f.lattice, settings, w, &coarse));
    EXPECT_LT(coarse.coarsened, report.coarsened);

    // A cap the remeshed grid meets: no coarsening.
    Vortons u = f.developed;
    settings.gridCellRatio = 1.0f;
    settings.maxGridPoints = 2 * points;
    ASSERT_TRUE(Remesh(f.lattice, settings, u, &report));
    EXPECT_EQ(report.coarsened, 0);
    EXPECT_EQ(report.cause, CoarseningCause::None);
}

INSTANTIATE_TEST_SUITE_P(Scenes, Remeshing, ::testing::Values("vortex_ring", "dye_drop", "two_drops"));

/// Vortons within the shell [R, R + shell) of a sphere (x, y, z, R).
std::size_t InShell(const Vortons& v, glm::vec4 body, float shell) {
    std::size_t count = 0;
    for (const glm::vec3& x : v.position) {
        const float d = glm::length(x - glm::vec3(body));
        count += d >= body.w && d < body.w + shell;
    }
    return count;
}

TEST(RemeshReceivers, DiffusionReceiversSurroundTheKeptVorticityOnly) {
    // Two ambient vortons on lattice points, 10 spacings apart: a strong one
    // and one of 1e-4 of its strength (under diffusionReceiverFraction, 1e-3).
    // The M4′ kernel puts a vorton on a lattice point onto that point alone
    // (W(0) = 1, W(1) = 0), so a remesh keeps 2 vortons; with
    // diffusionReceivers it also keeps the strong one's 26 neighbours, with no
    // strength (PSE can then pass vorticity to them), and nothing around the
    // weak one. Σα and the impulse are the same bits either way.
    const Lattice lattice{glm::vec3(0.0f), 0.125f};  // binary: the points are exact
    const float h = lattice.spacing, sigma = 1.5f * h;
    Vortons v;
    v.Add(glm::vec3(3.0f * h, 3.0f * h, 3.0f * h), glm::vec3(0.0f, 0.0f, 2.0f), sigma, h * h * h, kAmbientGroup);
    v.Add(glm::vec3(13.0f * h, 3.0f * h, 3.0f * h), glm::vec3(0.0f, 2.0e-4f, 0.0f), sigma, h * h * h, kAmbientGroup);
    RemeshSettings settings;
    settings.sigma = sigma;
    settings.cullFraction = 0.0f;
    SceneSetup none;
    Vortons plain = v;
    ASSERT_TRUE(Remesh(lattice, settings, plain));
    EXPECT_EQ(plain.Size(), 2u);
    settings.diffusionReceivers = true;
    Vortons with = v;
    ASSERT_TRUE(Remesh(lattice, settings, with));
    ASSERT_EQ(with.Size(), 2u + 26u);
    const glm::vec3 strong = v.position[0];
    for (std::size_t k = 0; k < with.Size(); ++k) {
        const glm::vec3 d = (with.position[k] - strong) / h;
        const float chebyshev = std::max({std::abs(d.x), std::abs(d.y), std::abs(d.z)});
        if (with.vorticity[k] == glm::vec3(0.0f)) {
            EXPECT_NEAR(chebyshev, 1.0f, 1e-4f) << "a receiver away from the strong vorton, " << k;
            EXPECT_EQ(with.volume[k], h * h * h);
        }
    }
    const Totals a = TotalsOf(plain, none), b = TotalsOf(with, none);
    EXPECT_EQ(a.alpha, b.alpha);
    EXPECT_EQ(a.impulse, b.impulse);
    // At the cap the receivers go first, before the weakest vorticity: they
    // hold nothing (ranked with the vorticity they displaced flow_past_ball's wake).
    settings.maxVortons = 10;
    settings.maxCoarsening = 0;
    Vortons capped = v;
    RemeshReport report;
    ASSERT_TRUE(Remesh(lattice, settings, capped, &report));
    EXPECT_TRUE(report.capped);
    ASSERT_EQ(capped.Size(), 10u);
    const Totals c = TotalsOf(capped, none);
    EXPECT_EQ(a.alpha, c.alpha) << "the weak vorton was dropped before an empty receiver";
}

TEST(RemeshBody, AFarBodysShellNeitherFailsTheRemeshNorMovesTheRest) {
    // A skin-model ball that left the fluid far behind (stratified_ball with
    // gravity flipped: 170 m at 60 s before it kept its shell) gets its shell
    // of receivers; the lattice points between it and the fluid are not
    // visited, so a box of ~5e9 points (past maxPoints) still remeshes, and
    // the vortons away from the ball are those of a remesh without it, bit
    // for bit.
    DevelopedFlow f("two_drops");
    RemeshSettings& settings = f.settings;
    Vortons without = f.developed;
    ASSERT_TRUE(Remesh(f.lattice, settings, without));

    const float h = f.lattice.spacing;
    const glm::vec4 ball(0.3f, -0.2f, 2000.0f, 0.1f);
    const std::vector<glm::vec4> bodies{ball};
    settings.bodies = bodies;
    settings.bodyShell = 2.0f * h;
    Vortons with = f.developed;
    RemeshReport report;
    ASSERT_TRUE(Remesh(f.lattice, settings, with, &report)) << "the box between the fluid and the ball was too large";
    const std::size_t shell = InShell(with, ball, settings.bodyShell);
    // About the shell's volume over h³: 4π R² · 2h / h³ ≈ 4π · (0.1/h)² · 2.
    test::Measured("shell_vortons", double(shell));
    EXPECT_GT(double(shell), 0.5 * 4.0 * M_PI * (ball.w / h) * (ball.w / h) * 2.0);
    ASSERT_EQ(with.Size(), without.Size() + shell);
    for (std::size_t k = 0; k < without.Size(); ++k) {  // the ball's points come last (largest z)
        ASSERT_EQ(with.position[k], without.position[k]) << k;
        ASSERT_EQ(with.vorticity[k], without.vorticity[k]) << k;
        ASSERT_EQ(with.massFraction[k], without.massFraction[k]) << k;
    }
}

TEST(RemeshBody, AtTheCapABodysShellOutranksTheFluid) {
    // At the cap the weakest go first; a skin-model body's shell holds no
    // vorticity (strength 0) yet is what gives the body drag, so it is kept
    // before a group's fluid (whose dropped volume the kept points take).
    // Before: the shell, ranked with the receivers, went first, and with
    // gravity flipped stratified_ball's ball sped up to 7.3 m/s without drag.
    DevelopedFlow f("two_drops");
    RemeshSettings& settings = f.settings;
    Vortons v = f.developed;
    const Totals before = TotalsOf(v, f.setup);
    const glm::vec4 ball(0.0f, 0.0f, 5.0f, 0.1f);
    const std::vector<glm::vec4> bodies{ball};
    settings.bodies = bodies;
    settings.bodyShell = 2.0f * f.lattice.spacing;
    Vortons uncapped = v;
    ASSERT_TRUE(Remesh(f.lattice, settings, uncapped));
    const std::size_t shell = InShell(uncapped, ball, settings.bodyShell);
    ASSERT_GT(shell, 0u);

    settings.maxVortons = v.Size() / 3;
    settings.maxCoarsening = 0;
    RemeshReport report;
    ASSERT_TRUE(Remesh(f.lattice, settings, v, &report));
    ASSERT_TRUE(report.capped);
    EXPECT_EQ(v.Size(), settings.maxVortons);
    EXPECT_EQ(InShell(v, ball, settings.bodyShell), shell);
    EXPECT_LT(MassChange(before, TotalsOf(v, f.setup)), 1.0e-5);
}

/// The developed vortex ring as vorticity alone (its vortons moved to the
/// ambient group, so none holds a group's fluid), its vorticity scaled by `scale`.
Vortons RingScaled(const DevelopedFlow& f, float scale) {
    Vortons v = f.developed;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        v.group[k] = kAmbientGroup;
        v.massFraction[k] = 0.0f;
        v.vorticity[k] *= scale;
    }
    return v;
}

/// Largest |ω| (1/s) of `v`.
float PeakVorticity(const Vortons& v) {
    float largest = 0.0f;
    for (std::size_t k = 0; k < v.Size(); ++k) largest = std::max(largest, glm::length(v.vorticity[k]));
    return largest;
}

TEST(RemeshCull, AFlowDeadEverywhereIsLetGoALiveOneKeepsItsBits) {
    // The relative budget (cullFraction of Σ|α|) lets nothing go from a flow
    // that has decayed everywhere at once: each remesh drops 1e-4 of what is
    // left. ball_through_smoke's stopped ball kept 16,858 vortons and 31–41 ms
    // a step at 600 s, its fastest fluid at 5e-8 m/s (stop 93). The floor
    // cullVorticity drops vorticity-only points weaker than it whatever the
    // budget. Floor 5e-6 1/s (10⁻⁷ rad a step at dt 0.02 s, the simulation's).
    DevelopedFlow f("vortex_ring");
    RemeshSettings settings = f.settings;
    const float floor = 5.0e-6f;
    const float h = f.lattice.spacing;

    // A live ring (peak 10 1/s): the floor changes no bit, the budget having
    // dropped every point it would.
    {
        const Vortons live = RingScaled(f, 10.0f / PeakVorticity(f.developed));
        Vortons without = live, with = live;
        settings.cullVorticity = 0.0f;
        ASSERT_TRUE(Remesh(f.lattice, settings, without));
        settings.cullVorticity = floor;
        ASSERT_TRUE(Remesh(f.lattice, settings, with));
        ASSERT_EQ(with.Size(), without.Size());
        for (std::size_t k = 0; k < with.Size(); ++k) {
            ASSERT_EQ(with.position[k], without.position[k]) << k;
            ASSERT_EQ(with.vorticity[k], without.vorticity[k]) << k;
        }
    }
    // The same ring decayed so far that its whole Σ|α| is half the floor's
    // on one lattice point, h³·floor/2: no lattice point can hold more (the
    // M4′ weights are at most 1), so every vorton goes with the floor;
    // without it the budget keeps all but a handful.
    {
        const Vortons dead = RingScaled(f, float(0.5 * double(floor) * double(h) * h * h / TotalsOf(f.developed, f.setup).absAlpha));
        Vortons without = dead, with = dead;
        settings.cullVorticity = 0.0f;
        RemeshReport kept;
        ASSERT_TRUE(Remesh(f.lattice, settings, without, &kept));
        EXPECT_LE(kept.droppedStrength, 1.0e-4);
        EXPECT_GT(without.Size(), dead.Size() / 2);
        settings.cullVorticity = floor;
        RemeshReport report;
        ASSERT_TRUE(Remesh(f.lattice, settings, with, &report));
        EXPECT_EQ(with.Size(), 0u);
        EXPECT_NEAR(report.droppedStrength, 1.0, 1.0e-6);
    }
    // Decayed to 20 times the floor at its vortons' peak: its weak rim goes,
    // each kept point carries at least the floor, and what was let go is a
    // small part of Σ|α| (the rim of a Gaussian core below 1/20 of its peak).
    {
        const Vortons fading = RingScaled(f, 20.0f * floor / PeakVorticity(f.developed));
        Vortons without = fading, with = fading;
        settings.cullVorticity = 0.0f;
        ASSERT_TRUE(Remesh(f.lattice, settings, without));
        settings.cullVorticity = floor;
        RemeshReport report;
        ASSERT_TRUE(Remesh(f.lattice, settings, with, &report));
        test::Measured("kept_fraction", double(with.Size()) / double(without.Size()));
        test::Measured("dropped_strength", report.droppedStrength);
        EXPECT_LT(with.Size(), without.Size());
        EXPECT_GT(with.Size(), 0u);
        for (std::size_t k = 0; k < with.Size(); ++k) {
            ASSERT_GE(glm::length(with.vorticity[k]) * with.volume[k], floor * h * h * h * 0.9999f) << k;
        }
        EXPECT_LT(report.droppedStrength, 0.1);
    }
}

}  // namespace
}  // namespace vorton
