// Invariants and linear responses of the whole step (docs/METHOD.md §8: linear
// impulse, impulse under buoyancy, ambient density, fluid at rest).

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

/// Largest |I(t) − I(0)| / |I(0)| over `steps` steps of the inviscid, weightless vortex ring.
double ImpulseDrift(Solver solver, float dt, int steps, glm::dvec3* finalImpulse = nullptr) {
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.viscosity = 0.0f;
    setup.params.smagorinsky = 0.0f;  // inviscid: no subgrid viscosity either
    setup.params.gravity = glm::vec3(0.0f);
    setup.params.vortonCount = 1500;
    setup.params.tracerCount = 0;
    setup.params.solver = solver;
    setup.params.dt = dt;
    // The scheme alone: remeshing has its own conservation test (RemeshTest),
    // and the vortons it adds around the ring would make the direct sum slow.
    setup.params.remeshEvery = 0;
    Simulation sim(setup);
    const glm::dvec3 i0 = sim.ComputeDiagnostics().impulse;
    double drift = 0.0;
    tbb::task_arena arena(2);
    arena.execute([&] {
        for (int s = 0; s < steps; ++s) {
            const StepReport r = sim.Step();
            EXPECT_TRUE(r.ok) << r.message;
            if (!r.ok) return;
            drift = std::max(drift,
                             glm::length(sim.ComputeDiagnostics().impulse - i0) / glm::length(i0));
        }
    });
    if (finalImpulse) *finalImpulse = sim.ComputeDiagnostics().impulse;
    return drift;
}

TEST(Conservation, LinearImpulseOfInviscidRing) {
    // I = ½ Σ x × α is an invariant of inviscid flow without gravity. The
    // discrete scheme keeps it only approximately: (a) the regularised kernel
    // with the transpose stretching scheme is not exactly impulse-conserving
    // even in continuous time (Winckelmans & Leonard 1993); measured with
    // dt → 0 (0.005 s) this part is 1.4e-4 of I over 1 s (2.7e-4 with σ = h
    // cores); (b) Heun's time-stepping error, which at dt = 0.02 s is of the
    // same size and shrinks ~8× per halving of dt, partly cancelling (a):
    // measured total 2e-5 over 50 steps. A 1e-3 bound covers both with margin
    // yet fails for any O(1) error in advection or stretching, which moves I
    // by its own size over a ring transit.
    const double drift = ImpulseDrift(Solver::Direct, 0.02f, 50);
    test::Measured("impulse_drift_direct", drift);
    EXPECT_LT(drift, 1.0e-3);
    // The treecode's velocity error (TreecodeTest, 0.2 % on a developed
    // state) makes δu × α terms that do not cancel: if coherent it would move
    // I by δu·t/R ≈ 0.002 × 1 m/s × 1 s / 0.3 m ≈ 0.7 %. Measured 0.03 % with
    // the stretching's far field to the quadrupole; its monopole alone gave
    // 0.6 %. The 3e-3 bound fails that and stays below the coherent case.
    const double driftTree = ImpulseDrift(Solver::Tree, 0.02f, 50);
    test::Measured("impulse_drift_tree", driftTree);
    EXPECT_LT(driftTree, 3.0e-3);
}

TEST(Conservation, RingImpulsePointsAlongItsMotion) {
    // The ring's circulation (Γ > 0 about the azimuth) makes it move along +z:
    // its impulse points along +z with no sideways part. For a torus of
    // uniform core a, I_z = ½∫ρ ω_φ dV = πΓ(R² + a²/4) exactly (Saffman,
    // Vortex Dynamics §3.3 gives πR²Γ for a thin ring). Seeded on a lattice,
    // Γ itself is off by the lattice's area error of the core (SeedingTest),
    // so compare with the seeded circulation Γ_s = Σ ω·φ̂ V / 2πR; what
    // remains is the lattice error of the core's second moment, ~h²/a² ≈ 1 %
    // (measured 0.5 %): 2 % bound.
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.tracerCount = 0;
    Simulation sim(setup);
    const DensityGroup& ring = setup.groups[0];
    const Vortons& v = sim.GetVortons();
    double azimuthal = 0.0;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::dvec3 d = glm::dvec3(v.position[k] - ring.center);
        const double rho = std::hypot(d.x, d.y);
        azimuthal += glm::dot(glm::dvec3(v.vorticity[k]), glm::dvec3(-d.y / rho, d.x / rho, 0.0)) *
                     v.volume[k];
    }
    const double seededGamma = azimuthal / (2.0 * std::numbers::pi * ring.radius);
    const double R = ring.radius, a = ring.minorRadius;
    const double expected = std::numbers::pi * seededGamma * (R * R + 0.25 * a * a);
    const glm::dvec3 impulse = sim.ComputeDiagnostics().impulse;
    test::Measured("impulse_over_expected", impulse.z / expected);
    EXPECT_NEAR(impulse.z / expected, 1.0, 0.02);
    EXPECT_LT(std::hypot(impulse.x, impulse.y), 1.0e-4 * impulse.z);
}

/// The dye drop with few tracers (they do not feed back) and the scene's vortons.
SceneSetup SmallDyeDrop() {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 2000;
    return setup;
}

/// Largest relative error of the impulse rate against (g/ρ₀) Σ δρ_k V_k over the first steps.
double BuoyancyImpulseRateError(SceneSetup setup, int steps) {
    Simulation sim(setup);
    const Diagnostics d0 = sim.ComputeDiagnostics();
    EXPECT_GT(d0.excessMass, 0.0);
    const glm::dvec3 expectedRate =
        glm::dvec3(setup.params.gravity) * d0.excessMass / double(setup.params.ambientDensity);
    tbb::task_arena arena(2);
    glm::dvec3 previous = d0.impulse;
    double worst = 0.0;
    for (int s = 0; s < steps; ++s) {
        StepReport r;
        arena.execute([&] { r = sim.Step(); });
        EXPECT_TRUE(r.ok) << r.message;
        const glm::dvec3 now = sim.ComputeDiagnostics().impulse;
        const glm::dvec3 rate = (now - previous) / double(setup.params.dt);
        previous = now;
        worst = std::max(worst, glm::length(rate - expectedRate) / glm::length(expectedRate));
    }
    return worst;
}

TEST(Conservation, ImpulseGrowsWithBuoyancy) {
    // dI/dt = (g/ρ₀) Σ δρ_k V_k: the impulse of a heavy drop grows along g at
    // the drop's excess weight over ρ₀. For a continuous density field this is
    // exact (∫ x × (∇ρ′ × g) dV = 2g ∫ρ′ dV), and the generator keeps it exact
    // on its grid; handing each grid point's generation to the vortons within
    // two cells keeps it too, as long as vortons surround the point on all
    // sides. The generation reaches ~4 cells beyond the drop's surface (CIC,
    // gradient, receiving stencil), the scene's halo only ~2.6 cells (0.08 m at
    // 3000 vortons), so the outermost generation is handed inward: measured
    // 0.3 % low (0.8 % at 2000 vortons). 1 % bounds it and fails on a lost
    // factor or a missing halo (≥ 10 %). Viscosity off: PSE on a vortex
    // sheet a vorton thick adds its own small impulse error (~0.02 % per step).
    SceneSetup setup = SmallDyeDrop();
    setup.params.viscosity = 0.0f;
    const double error = BuoyancyImpulseRateError(setup, 5);
    test::Measured("impulse_rate_error", error);
    EXPECT_LT(error, 0.01);
}

TEST(Conservation, ImpulseGrowthIsExactWithAThickHalo) {
    // The explanation above, checked: with a halo thicker than the
    // generator's reach (0.16 m ≈ 5 cells) nothing is handed inward and only
    // float round-off and the flow's own O(t²) impulse changes remain
    // (measured 2.5e-4).
    SceneSetup setup = SmallDyeDrop();
    setup.params.viscosity = 0.0f;
    setup.params.vortonCount = 2000;
    setup.groups[0].halo = 0.16f;
    const double error = BuoyancyImpulseRateError(setup, 4);
    test::Measured("impulse_rate_error_thick_halo", error);
    EXPECT_LT(error, 1.0e-3);
}

/// Runs `steps` steps with the ImpulseBudget on and checks, each step, that its terms add up
/// to the step's change of ½Σx×α. The corrector's terms are computed in double from its float
/// inputs while the vortons are updated in float, so the two differ by the update's round-off:
/// at most a few float ulps of each |x_k||α_k|, hence the 1e-6 of Σ|x_k||α_k|. A process whose
/// change no term takes up (a stage left out) misses by its whole size. Returns the sum of the
/// budgets.
ImpulseBudget CheckedBudget(Simulation& sim, int steps) {
    ImpulseBudget sum;
    sim.SetImpulseBudget(true);
    tbb::task_arena arena(2);
    arena.execute([&] {
        for (int s = 0; s < steps; ++s) {
            const glm::dvec3 before = sim.VortonImpulse();
            const StepReport r = sim.Step();
            ASSERT_TRUE(r.ok) << r.message;
            const ImpulseBudget& b = sim.LastImpulseBudget();
            double scale = 0.0;
            const Vortons& v = sim.GetVortons();
            for (std::size_t k = 0; k < v.Size(); ++k)
                scale += glm::length(glm::dvec3(v.position[k])) * glm::length(glm::dvec3(v.vorticity[k])) * double(v.volume[k]);
            const glm::dvec3 change = sim.VortonImpulse() - before;
            EXPECT_LE(glm::length(b.Total() - change), 1.0e-6 * scale) << "step " << s;
            for (auto term : {&ImpulseBudget::advection, &ImpulseBudget::stretching, &ImpulseBudget::diffusion,
                              &ImpulseBudget::baroclinic, &ImpulseBudget::layers, &ImpulseBudget::bodies,
                              &ImpulseBudget::emitters, &ImpulseBudget::remesh, &ImpulseBudget::projection,
                              &ImpulseBudget::farWake})
                sum.*term += b.*term;
        }
    });
    return sum;
}

TEST(ImpulseBudget, TermsAddUpToEachStepsChangeWithABallItsRemeshAndItsFarWake) {
    // flow_past_ball with a short wake: the sheet, the remesh (every 5 steps), its solenoidal
    // projection and the far-wake cut all change I, and each must land in its term.
    SceneSetup setup = test::LoadSetup("flow_past_ball");
    setup.params.tracerCount = 0;
    setup.params.remeshEvery = 5;
    setup.params.wakeLength = 0.25f;
    setup.params.bodyResolution = 4.0f;
    Simulation sim(setup);
    const ImpulseBudget sum = CheckedBudget(sim, 40);
    EXPECT_NE(sum.bodies.x, 0.0);
    EXPECT_NE(sum.remesh.x, 0.0);
    EXPECT_NE(sum.projection, glm::dvec3(0.0)) << "solenoidal_remesh is on with body_sheet";
    EXPECT_NE(sum.farWake.x, 0.0) << "the cut should have let some wake go by 0.8 s";
    EXPECT_NE(sum.diffusion.x, 0.0);
}

TEST(ImpulseBudget, BaroclinicTermIsTheImpulseLawAndTheRestKeepsI) {
    // Boussinesq generation changes I at (g/ρ₀)Σδρ_kV_k (ImpulseGrowsWithBuoyancy: the whole
    // step, 0.3 % at 3000 vortons); here its own term over 1 s of the scene's drop, measured
    // 0.03 % from the law at its 4,000 vortons, so 1 % fails on a lost factor or sign. In the
    // continuum advection with stretching, and diffusion, leave I unchanged (Saffman 1992, ch. 3):
    // measured together 1.0e-3 of the generated impulse over the second; 1 % bounds it.
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 0;
    setup.params.smagorinsky = 0.0f;  // its uneven eddy viscosity moves I (README)
    Simulation sim(setup);
    const double rho0 = setup.params.ambientDensity;
    const glm::dvec3 g(setup.params.gravity);
    const double mass = sim.ComputeDiagnostics().excessMass;
    const int steps = 50;
    const ImpulseBudget sum = CheckedBudget(sim, steps);
    const glm::dvec3 law = g * (mass / rho0) * double(steps) * double(setup.params.dt);
    test::Measured("baroclinic_term_error", glm::length(sum.baroclinic - law) / glm::length(law));
    EXPECT_LT(glm::length(sum.baroclinic - law), 0.01 * glm::length(law));
    const glm::dvec3 rest = sum.advection + sum.stretching + sum.diffusion;
    test::Measured("advection_stretching_diffusion_over_law", glm::length(rest) / glm::length(law));
    EXPECT_LT(glm::length(rest), 0.01 * glm::length(law));
    EXPECT_EQ(sum.bodies, glm::dvec3(0.0));
    EXPECT_EQ(sum.farWake, glm::dvec3(0.0));
}

TEST(ImpulseBudget, DiffusionKeepsAViscousRingsImpulse) {
    // PSE exchanges strength symmetrically between pairs, and ν∫x×∇²ω dV = 0 for vorticity
    // away from walls, so diffusion should leave a ring's I alone up to the quadrature's error:
    // measured 1.0e-3 of I over 2 s of the scene (no subgrid model). The advection and
    // stretching terms are each 1.9e-2 of I there and cancel to 1.5e-4. A diffusion that moved
    // I by its own size would move it by the share of the vorticity diffused, ν t / a² ≈ 9 % of I
    // (ν = 3e-4 m²/s, a = 0.08 m).
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.tracerCount = 0;
    setup.params.smagorinsky = 0.0f;
    Simulation sim(setup);
    const ImpulseBudget sum = CheckedBudget(sim, 100);
    const double impulse = glm::length(sim.VortonImpulse());
    test::Measured("ring_diffusion_impulse", glm::length(sum.diffusion) / impulse);
    test::Measured("ring_advection_stretching_impulse", glm::length(sum.advection + sum.stretching) / impulse);
    EXPECT_LT(glm::length(sum.diffusion), 3.0e-3 * impulse);
    EXPECT_LT(glm::length(sum.advection + sum.stretching), 1.0e-3 * impulse);
    EXPECT_GT(glm::length(sum.advection), 1.0e-2 * impulse) << "the terms should each be large and cancel";
}

TEST(Conservation, ExcessMassIsTheGroupsMass) {
    // Σ δρ_k V_k over the vortons approximates δρ·(4/3)πR³ to the lattice's
    // volume error; and it never changes (δρ is carried by the vortons).
    SceneSetup setup = SmallDyeDrop();
    Simulation sim(setup);
    const double m0 = sim.ComputeDiagnostics().excessMass;
    const double exact = setup.groups[0].densityDeviation * ShapeVolume(setup.groups[0]);
    test::Measured("excess_mass_over_exact", m0 / exact);
    EXPECT_NEAR(m0 / exact, 1.0,
                0.1);  // lattice points in a ball of radius 6.5h: volume error a few %
    ASSERT_TRUE(test::RunSteps(sim, 3).ok);
    EXPECT_EQ(sim.ComputeDiagnostics().excessMass, m0);
}

/// Vorticity after one step of the small dye drop at the given ambient density.
std::vector<glm::vec3> VorticityAfterOneStep(float ambientDensity, glm::dvec3* impulse) {
    SceneSetup setup = SmallDyeDrop();
    setup.params.ambientDensity = ambientDensity;
    setup.params.viscosity = 0.0f;
    Simulation sim(setup);
    EXPECT_TRUE(test::RunSteps(sim, 1).ok);
    *impulse = sim.ComputeDiagnostics().impulse;
    return sim.GetVortons().vorticity;
}

TEST(Conservation, DoublingAmbientDensityHalvesBaroclinicGeneration) {
    glm::dvec3 i1, i2;
    const auto w1 = VorticityAfterOneStep(1000.0f, &i1);
    const auto w2 = VorticityAfterOneStep(2000.0f, &i2);
    ASSERT_EQ(w1.size(), w2.size());
    // From rest, one Heun step gives ω = dt·(∇ρ′×g)/ρ₀ plus ½dt² of stretching
    // by the predicted flow, which is quadratic in 1/ρ₀. That part is
    // ~dt·|∇v| ~ dt·|ω| ~ 0.02 × 0.1 of the total: the ratio is ½ to ~1e-3.
    const double ratio = i2.z / i1.z;
    test::Measured("impulse_ratio", ratio);
    EXPECT_NEAR(ratio, 0.5, 2.0e-3);
    double diff2 = 0.0, ref2 = 0.0;
    for (std::size_t k = 0; k < w1.size(); ++k) {
        const glm::dvec3 d = glm::dvec3(w2[k]) - 0.5 * glm::dvec3(w1[k]);
        diff2 += glm::dot(d, d);
        ref2 += 0.25 * glm::dot(glm::dvec3(w1[k]), glm::dvec3(w1[k]));
    }
    ASSERT_GT(ref2, 0.0);
    test::Measured("vorticity_rms_deviation_from_half", std::sqrt(diff2 / ref2));
    EXPECT_LT(std::sqrt(diff2 / ref2), 2.0e-3);
}

TEST(Conservation, HeavyFluidSinksSignOfBaroclinicVorticity) {
    // docs/METHOD.md §8 sign check: at the +x side of a heavy drop ∇ρ′ points −x, and
    // ∇ρ′ × g = (−x) × (−z) = −y: vorticity that turns fluid down through the
    // middle. So after one step the vortons at the drop's +x surface carry
    // ω_y < 0, those at −x carry ω_y > 0.
    SceneSetup setup = SmallDyeDrop();
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    const Vortons& v = sim.GetVortons();
    const glm::vec3 c = setup.groups[0].center;
    double plusX = 0.0, minusX = 0.0;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::vec3 d = v.position[k] - c;
        if (std::abs(d.y) > 0.05f || std::abs(d.z) > 0.05f) continue;  // near the x axis
        (d.x > 0.0f ? plusX : minusX) += v.vorticity[k].y;
    }
    EXPECT_LT(plusX, 0.0);
    EXPECT_GT(minusX, 0.0);
    // And the velocity at the drop's centre points down.
    std::vector<glm::vec3> u(1);
    sim.DirectVelocityAt(std::vector<glm::vec3>{c}, u);
    EXPECT_LT(u[0].z, 0.0f);
}

TEST(Conservation, FluidAtRestWithoutGravityStaysPut) {
    // g = 0 and ω = 0: no baroclinic source, zero velocity everywhere, so every
    // tracer must stay bitwise the same (x + dt·0 = x), and so must every
    // vorton between remeshings. Remeshing (every 5 steps, so 10 steps see
    // two) puts vortons only on the seeding lattice and carries no vorticity
    // over, though it may trade halo vortons for receivers around the drop.
    SceneSetup setup = SmallDyeDrop();
    setup.params.gravity = glm::vec3(0.0f);
    Simulation sim(setup);
    const auto vortons0 = sim.GetVortons().position;
    const auto tracers0 = sim.GetTracers().position;
    ASSERT_TRUE(test::RunSteps(sim, 4).ok);
    EXPECT_EQ(sim.GetVortons().position, vortons0);
    ASSERT_TRUE(test::RunSteps(sim, 6).ok);
    EXPECT_EQ(sim.RemeshCount(), 2);
    EXPECT_GT(sim.GetVortons().Size(), vortons0.size() / 2);
    EXPECT_LT(sim.GetVortons().Size(), vortons0.size() * 3 / 2);
    const float h = sim.Spacing();
    const glm::vec3 origin = vortons0[0];
    for (const glm::vec3& x : sim.GetVortons().position) {
        const glm::vec3 u = (x - origin) / h;
        ASSERT_LT(glm::length(u - glm::round(u)), 1.0e-3f) << "a vorton off the seeding lattice";
    }
    EXPECT_EQ(sim.GetTracers().position, tracers0);
    for (const glm::vec3& w : sim.GetVortons().vorticity) ASSERT_EQ(w, glm::vec3(0.0f));
    EXPECT_EQ(sim.ComputeDiagnostics().maxSpeed, 0.0);
}

}  // namespace
}  // namespace vorton
