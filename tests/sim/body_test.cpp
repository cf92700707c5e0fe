// Rigid spheres in the flow: the sphere rows of docs/METHOD.md §8's table (Gourlay
// parts 4 and 9), momentum exchange, no particle left inside, determinism.

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/simulation.h"
#include "sim/particles/stratification.h"
#include "test_util.h"

namespace vorton {
namespace {

constexpr float kG = 9.81f;

DensityGroup Smoke(glm::vec3 center, glm::vec3 halfExtents) {
    DensityGroup g;
    g.name = "smoke";
    g.shape = DensityGroup::Shape::Box;
    g.center = center;
    g.halfExtents = halfExtents;
    return g;
}

BodySpec Ball(glm::vec3 position, float radius, float density) {
    BodySpec b;
    b.name = "ball";
    b.position = position;
    b.radius = radius;
    b.density = density;
    return b;
}

SceneSetup StillSmokeWithBall(float density) {
    SceneSetup s;
    s.params.vortonCount = 1500;
    s.params.tracerCount = 5000;
    s.groups.push_back(Smoke({0, 0, 0}, {0.5f, 0.5f, 0.5f}));
    s.bodies.push_back(Ball({0, 0, 0}, 0.15f, density));
    return s;
}

TEST(Body, NeutralSphereInStillFluidStaysPut) {
    Simulation sim(StillSmokeWithBall(1000.0f));
    ASSERT_TRUE(test::RunSteps(sim, 50).ok);
    // Nothing drives anything: no deviation, no slip, no collision.
    EXPECT_EQ(sim.Bodies()[0].position, glm::vec3(0.0f));
    EXPECT_EQ(sim.Bodies()[0].velocity, glm::vec3(0.0f));
    EXPECT_EQ(sim.ComputeDiagnostics().maxSpeed, 0.0);
}

TEST(Body, HeavySphereStartsAtReducedGravity) {
    // Archimedes (part 9) with the added mass ½ρ₀V of a sphere (Lamb,
    // Hydrodynamics §92): from rest, (ρ_b + ρ₀/2)V a = (ρ_b − ρ₀)V g, less
    // Stokes's drag 6πμR taken implicitly over the first step (the skin
    // model's closure, body_skin.cpp): a = W / (m + ½ρ₀V + 6πρ₀νR·dt). In the
    // first step the fluid is at rest, so nothing else acts. Float round-off only.
    for (const float density : {2000.0f, 1200.0f, 500.0f}) {
        Simulation sim(StillSmokeWithBall(density));
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        const float a = sim.Bodies()[0].velocity.z / sim.Params().dt;
        const float radius = sim.Setup().bodies[0].radius, volume = SphereVolume(radius);
        const float drag = 6.0f * std::numbers::pi_v<float> * 1000.0f * sim.Params().viscosity * radius;
        const float expected = -kG * (density - 1000.0f) * volume /
                               ((density + 500.0f) * volume + drag * sim.Params().dt);
        test::Measured("acceleration_over_expected_" + std::to_string(int(density)), a / expected);
        EXPECT_NEAR(a, expected, 1.0e-4f * kG) << "density " << density;
        EXPECT_NEAR(sim.Bodies()[0].NetForce().z, expected * BodyMass(sim.Setup().bodies[0]),
                    1.0e-3f * std::abs(expected) * BodyMass(sim.Setup().bodies[0]));
    }
}

TEST(Body, DensityAroundIncludesTheVortonDeviation) {
    // A sphere inside a heavy blob (δρ = +40) feels the blob's density:
    // ρ_f between ρ₀ and ρ₀ + 40 (the shell samples see the smoothed blob).
    SceneSetup s = StillSmokeWithBall(1000.0f);
    s.groups[0].densityDeviation = 40.0f;
    s.groups[0].halfExtents = glm::vec3(0.6f);
    s.bodies[0].fixed = true;
    Simulation sim(s);
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    const float rho = sim.Bodies()[0].fluidDensity;
    test::Measured("fluid_density_in_blob", rho);
    EXPECT_GT(rho, 1030.0f);
    EXPECT_LE(rho, 1040.5f);
}

SceneSetup Stratified(float ballDensity, float ballZ) {
    SceneSetup s;
    s.params.vortonCount = 3000;
    s.params.tracerCount = 0;
    DensityGroup light = Smoke({0, 0, 0.25f}, {0.5f, 0.5f, 0.25f});
    light.name = "light_layer";
    light.layer = true;
    light.densityDeviation = -20.0f;
    DensityGroup heavy = Smoke({0, 0, -0.25f}, {0.5f, 0.5f, 0.25f});
    heavy.name = "heavy_layer";
    heavy.layer = true;
    heavy.densityDeviation = 20.0f;
    s.groups = {light, heavy};
    if (ballDensity > 0.0f) s.bodies.push_back(Ball({0, 0, ballZ}, 0.12f, ballDensity));
    return s;
}

TEST(Body, StratifiedAmbientWithoutBodyStaysLayered) {
    // The layers are the ambient profile: every vorton's deviation is the
    // profile at its birth height minus the profile where it is, zero at rest.
    // (The article's two boxes of ± deviation slump within seconds.)
    Simulation sim(Stratified(0.0f, 0.0f));
    ASSERT_TRUE(test::RunSteps(sim, 100).ok);
    EXPECT_EQ(sim.ComputeDiagnostics().maxSpeed, 0.0);
    EXPECT_NEAR(sim.AmbientDensity({0, 0, 0.4f}), 980.0f, 0.01f);
    EXPECT_NEAR(sim.AmbientDensity({0, 0, -0.4f}), 1020.0f, 0.01f);
    // The ambient density slider moves the whole profile, not the deviations.
    sim.Params().ambientDensity = 1100.0f;
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    EXPECT_NEAR(sim.AmbientDensity({0, 0, -0.4f}), 1120.0f, 0.01f);
    EXPECT_EQ(sim.ComputeDiagnostics().maxSpeed, 0.0);
}

TEST(Body, BallLeavingTheLayersHasDragAndABoundedWakeAndTheLayersStay) {
    // With the ambient density slider far from the ball's density, a ball
    // sinks (or rises) out of the layers into fluid where no vorton was
    // seeded. It still meets fluid (the shell of vortons remeshing keeps
    // around it), so it falls at a bounded speed; its wake beyond wake_length
    // is let go, so the vortons' extent stays bounded; and the layers' own
    // vortons are never let go, however far the ball is (each group's volume
    // Σ massFraction·V is what remeshing conserves).
    SceneSetup s = Stratified(1500.0f, -0.65f);
    s.params.wakeLength = 0.5f;
    Simulation sim(s);
    auto groupVolume = [](const Vortons& v) {
        double sum = 0.0;
        for (std::size_t k = 0; k < v.Size(); ++k) sum += v.group[k] != kAmbientGroup ? double(v.massFraction[k] * v.volume[k]) : 0.0;
        return sum;
    };
    const double layers = groupVolume(sim.GetVortons());
    ASSERT_TRUE(test::RunSteps(sim, 150).ok);  // 3 s
    const BodyState& ball = sim.Bodies()[0];
    // Without drag: g(1 − ρ/ρ_b) t with ρ = 1,020 kg/m³ below the layers, 9.4 m/s.
    const double freeFall = kG * (1.0 - 1020.0 / 1500.0) * 3.0;
    test::Measured("fall_speed_over_drag_free", -ball.velocity.z / freeFall);
    test::Measured("fallen_m", -ball.position.z);
    EXPECT_LT(-ball.velocity.z, 0.5 * freeFall);
    EXPECT_GT(-ball.position.z, 1.0f) << "it left the layers";
    const Vortons& v = sim.GetVortons();
    // The vorticity around the layers' fluid (and any buoyant fluid) is kept
    // wherever the ball is: within two cells of side h of it, so at most
    // 3√3 h away (issue 10's rogue vorton).
    const float h = sim.Spacing();
    std::vector<glm::vec3> layerFluid;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        if (v.group[k] != kAmbientGroup) layerFluid.push_back(v.position[k]);  // both groups are layers
    }
    std::size_t farWake = 0, keptNearFluid = 0;
    for (std::size_t k = 0; k < v.Size(); ++k) {
        // Let go at each remesh (every 5 steps, the last one at step 150):
        // between two, the wake moves at most the ball's 5·dt of travel further.
        const float reach = s.params.wakeLength + 5.0f * s.params.dt * glm::length(ball.velocity) + 0.01f;
        if (v.group[k] != kAmbientGroup || glm::length(v.position[k] - ball.position) <= reach) continue;
        const bool nearFluid = std::any_of(layerFluid.begin(), layerFluid.end(), [&](glm::vec3 x) {
            return glm::length(x - v.position[k]) <= 3.0f * std::sqrt(3.0f) * h;
        });
        (nearFluid ? keptNearFluid : farWake) += 1;
    }
    test::Measured("ambient_vortons_kept_near_the_layers_fluid", double(keptNearFluid));
    EXPECT_EQ(farWake, 0u);
    EXPECT_GT(keptNearFluid, 0u) << "the vorticity around the layers' displaced fluid far from the ball was let go";
    EXPECT_NEAR(groupVolume(v), layers, 1e-4 * layers);
}

TEST(Body, WakeLengthLetsGoNothingOfADropFarFromTheBall) {
    // wake_length lets go of the vorticity far from every body, but not the
    // vorticity around buoyant fluid, wherever the bodies are: with a ball
    // 5 m away, a heavy drop sinks and rolls up the same whether the far
    // wake is let go (wake_length 0.5 m) or kept (0). Until issue 10's rogue
    // vorton was traced, every remesh let go of the drop's receivers (the
    // vortons around it that baroclinic generation and diffusion feed), so
    // its ring lived on its own vortons only: 20 % less vertical impulse and
    // 4 cm less depth after 3 s (measured), and a parcel cut off like that,
    // its core overlapping no other vorton's, was stretched without bound.
    SceneSetup kept = test::LoadSetup("dye_drop");
    kept.params.vortonCount = 1000;
    kept.params.tracerCount = 0;
    kept.params.wakeLength = 0.0f;
    kept.bodies.push_back(Ball({5.0f, 0.0f, 0.45f}, 0.1f, 1000.0f));
    kept.bodies.back().fixed = true;
    SceneSetup letGo = kept;
    letGo.params.wakeLength = 0.5f;
    Simulation a(kept), b(letGo);
    ASSERT_TRUE(test::RunSteps(a, 150).ok);  // 3 s: the drop has sunk about its own diameter
    ASSERT_TRUE(test::RunSteps(b, 150).ok);
    // The vertical impulse ½Σ(x × α)_z of the vortons within 2 m of the
    // drop's start (the ball's are 5 m away), and the depth of its excess mass.
    auto drop = [](const Simulation& sim, double& impulse, double& depth) {
        const Vortons& v = sim.GetVortons();
        impulse = 0.0;
        double mass = 0.0, z = 0.0;
        for (std::size_t k = 0; k < v.Size(); ++k) {
            if (glm::length(v.position[k] - glm::vec3(0.0f, 0.0f, 0.45f)) > 2.0f) continue;
            impulse += 0.5 * glm::cross(glm::dvec3(v.position[k]), glm::dvec3(v.vorticity[k]) * double(v.volume[k])).z;
            const double m = double(sim.VortonDensityDeviation(k)) * double(v.volume[k]);
            mass += m;
            z += m * double(v.position[k].z);
        }
        depth = mass > 0.0 ? z / mass : 0.0;
    };
    double ia = 0.0, ib = 0.0, za = 0.0, zb = 0.0;
    drop(a, ia, za);
    drop(b, ib, zb);
    test::Measured("impulse_z_far_wake_kept", ia);
    test::Measured("impulse_z_far_wake_let_go", ib);
    test::Measured("depth_far_wake_kept_m", za);
    test::Measured("depth_far_wake_let_go_m", zb);
    ASSERT_LT(ia, 0.0) << "the drop did not sink";
    // What is let go lies more than two cells from the drop's fluid, where
    // its ring has next to nothing: 0.1 % of the impulse, 1 mm of depth
    // (both came out equal to every printed digit).
    EXPECT_NEAR(ib / ia, 1.0, 1e-3);
    EXPECT_NEAR(zb, za, 1e-3);
}

/// Height at which the profile averaged over the ball equals its density.
float EquilibriumHeight(const Simulation& sim, float density, float radius) {
    StratifiedProfile profile;
    profile.Build(sim.Setup().groups, sim.Spacing());
    float lo = -0.5f, hi = 0.5f;  // mean density falls with height
    for (int i = 0; i < 60; ++i) {
        const float mid = 0.5f * (lo + hi);
        (1000.0f + profile.SphereMean(mid, radius) > density ? lo : hi) = mid;
    }
    return 0.5f * (lo + hi);
}

TEST(Body, SphereBetweenLayersSettlesAtItsOwnDensity) {
    // A ball dropped in the light layer sinks to where the fluid it displaces
    // weighs what it does; a lighter ball rests higher, a heavier one lower.
    // It overshoots and oscillates about its level as a buoyancy wave of
    // period ~8 s that the layers' absorbing sides damp slowly, so the mean
    // height over 10–30 s is compared (over 20–40 s it is within 0.006 m of
    // the level; measured). Tolerance 0.03 m, a quarter of the radius: what is
    // left of the oscillation in that mean, and the light fluid the ball drags
    // down with it, which sits in its skin where the density around it is
    // sampled.
    float previous = 1.0e9f;
    for (const float density : {992.0f, 1000.0f, 1008.0f}) {
        Simulation sim(Stratified(density, 0.3f));
        double sum = 0.0;
        int n = 0;
        ASSERT_TRUE(test::RunSteps(sim, 500).ok);
        for (int s = 0; s < 1000; ++s) {
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            sum += sim.Bodies()[0].position.z;
            ++n;
        }
        const float mean = float(sum / n);
        const float expected = EquilibriumHeight(sim, density, 0.12f);
        test::Measured("rest_height_" + std::to_string(int(density)), mean);
        test::Measured("expected_height_" + std::to_string(int(density)), expected);
        EXPECT_NEAR(mean, expected, 0.03f) << "density " << density;
        EXPECT_LT(mean, previous) << "a heavier ball must rest lower";
        previous = mean;
    }
}

SceneSetup Shot(bool withSmoke) {
    SceneSetup s;
    s.params.gravity = glm::vec3(0.0f);
    s.params.vortonCount = 1500;
    s.params.tracerCount = 2000;
    s.groups.push_back(Smoke({0.2f, 0, 0}, {0.6f, 0.3f, 0.3f}));
    if (!withSmoke) s.groups[0].center = {0.0f, 0.0f, 10.0f};  // far away
    BodySpec b = Ball({-0.55f, 0, 0}, 0.1f, 3000.0f);
    b.velocity = {1.5f, 0, 0};
    s.bodies.push_back(b);
    return s;
}

TEST(Body, DragSlowsABallShotThroughSmoke) {
    // Part 4, figure 5: the ball pushes fluid aside and slows down, in the
    // smoke and in clear water alike: the skin model acts through the vortons
    // next to the body, and remeshing keeps a shell of them around it
    // wherever it goes (RemeshSettings::bodyShell). Before that shell, a ball
    // out of the seeded fluid kept its speed for ever (stratified_ball with
    // the ambient density halved fell at 100 m/s after 22 s).
    for (const bool smoke : {true, false}) {
        Simulation sim(Shot(smoke));
        float speed = 1.5f;
        for (int s = 0; s < 30; ++s) {
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            const float v = sim.Bodies()[0].velocity.x;
            EXPECT_LE(v, speed + 1.0e-6f) << "the fluid never pushes it forward, step " << s;
            speed = v;
        }
        test::Measured(smoke ? "speed_after_0.6s" : "speed_after_0.6s_clear_water", speed);
        EXPECT_LT(speed, 0.9f * 1.5f);
        EXPECT_GT(speed, 0.0f) << "it goes on through the fluid";
    }
}

TEST(Body, MomentumGivenToTheFluidIsTakenFromTheBody) {
    Simulation sim(Shot(true));
    int exchanges = 0;
    for (int s = 0; s < 30; ++s) {
        const glm::vec3 before = sim.Bodies()[0].velocity;
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        const float mass = BodyMass(sim.Setup().bodies[0]);
        const glm::dvec3 fluid = sim.LastCollisionImpulse();
        const glm::dvec3 body = double(mass) * glm::dvec3(sim.Bodies()[0].velocity - before);
        if (glm::length(fluid) > 0.0) ++exchanges;
        // g = 0: the body's momentum changes by exactly what the fluid got, reversed.
        const double scale = std::max(1.0e-3, glm::length(fluid));
        EXPECT_NEAR(body.x, -fluid.x, 1.0e-4 * scale + 1.0e-6 * mass) << "step " << s;
        EXPECT_NEAR(body.y, -fluid.y, 1.0e-4 * scale + 1.0e-6 * mass) << "step " << s;
        EXPECT_NEAR(body.z, -fluid.z, 1.0e-4 * scale + 1.0e-6 * mass) << "step " << s;
        const glm::dvec3 force = glm::dvec3(sim.Bodies()[0].fluidForce) * double(sim.Params().dt);
        EXPECT_NEAR(force.x, -fluid.x, 1.0e-4 * scale);
    }
    // The moving ball feels the closure's drag on every step.
    EXPECT_EQ(exchanges, 30);
}

TEST(Body, ASlowBallInTheSkinModelSlowsAsTheDragCurveSays) {
    // A ball sent at 1 cm/s through clear still fluid, gravity off (Re 6.7):
    // (m + ½ρV) dU/dt = −6πμR(1 + 0.15Re^0.687)U (Schiller–Naumann with the
    // added mass, Lamb §92), integrated here at a fine step. Before the
    // closure the skin model had no drag at this speed (no vorton touched the
    // ball) and the ball kept its speed for ever. 30 %: the tolerance
    // for a thrown ball; the flow the ball stirs up beyond its skin moves
    // the fluid it is measured against.
    SceneSetup s = Shot(false);
    s.bodies[0].velocity = {0.01f, 0, 0};
    Simulation sim(s);
    const double t = 10.0;
    ASSERT_TRUE(test::RunSteps(sim, int(std::lround(t / sim.Params().dt))).ok);
    const double rho = 1000.0, nu = sim.Params().viscosity, r = s.bodies[0].radius;
    const double volume = SphereVolume(float(r)), mass = (s.bodies[0].density + 0.5 * rho) * volume;
    double u = 0.01;
    for (double h = 1.0e-4, time = 0.0; time < t - 0.5 * h; time += h) {
        const double re = 2.0 * r * u / nu;
        u -= h * 6.0 * std::numbers::pi * rho * nu * r * (1.0 + 0.15 * std::pow(re, 0.687)) * u / mass;
    }
    const double kept = sim.Bodies()[0].velocity.x / 0.01;
    test::Measured("slow_ball_kept", kept);
    test::Measured("slow_ball_kept_drag_curve", u / 0.01);
    EXPECT_NEAR(kept, u / 0.01, 0.3 * u / 0.01);
}

TEST(Body, ASlowBallInTheSkinModelWithoutViscosityKeepsItsSpeed) {
    // The viscosity slider's end, 0: the closure's drag 6πρνR(1 + 0.15Re^0.687) tends
    // to 0 with ν (as ν^0.313 at a given speed), and the spin's Stokes torque with it.
    // Through Re = 2RU/ν it was 0·∞: stratified_ball stopped at the next step with a
    // non-finite body state. With no vorton touching the ball at 1 cm/s and no
    // gravity nothing else acts on it, so it keeps its speed: to 1 % (measured 0.6 %
    // lost, to the skin's vortons), where at the default ν the closure takes 11 % in
    // these 2 s (the test above's law).
    SceneSetup s = Shot(false);
    s.params.viscosity = 0.0f;
    s.bodies[0].velocity = {0.01f, 0, 0};
    s.bodies[0].angularVelocity = {0, 0, 1.0f};
    Simulation sim(s);
    ASSERT_TRUE(test::RunSteps(sim, 100).ok);
    const BodyState& b = sim.Bodies()[0];
    test::Measured("inviscid_slow_ball_kept", b.velocity.x / 0.01);
    EXPECT_NEAR(b.velocity.x, 0.01f, 1.0e-4f);
    EXPECT_NEAR(b.angularVelocity.z, 1.0f, 1.0e-3f);
}

TEST(Body, ASpinningFreeBallInTheSkinModelSlowsAsStokesTorqueSays) {
    // A free ball spinning in still fluid, gravity off: I dΩ/dt = −8πμR³Ω
    // (Lamb §334), so Ω = Ω₀ exp(−15ρνt/(ρ_b R²)); ν is chosen to make that
    // e⁻¹ after 5 s. 5 %: backward Euler at this step keeps (1 + 0.2·dt)^−250
    // = 0.3684 of Ω₀ (0.15 % above), and the fluid's spin beyond the skin,
    // which the torque is relative to, stays small. Before the closure only
    // the skin parcels' spin changes slowed it.
    SceneSetup s = Shot(false);
    s.bodies[0].velocity = glm::vec3(0.0f);
    s.bodies[0].angularVelocity = {0, 0, 2.0f};
    const float rate = 0.2f;  // 1/s
    s.params.viscosity = rate * s.bodies[0].density * s.bodies[0].radius * s.bodies[0].radius / (15.0f * 1000.0f);
    Simulation sim(s);
    ASSERT_TRUE(test::RunSteps(sim, int(std::lround(5.0 / sim.Params().dt))).ok);
    const double kept = sim.Bodies()[0].angularVelocity.z / 2.0;
    test::Measured("spin_kept", kept);
    EXPECT_NEAR(kept, std::exp(-1.0), 0.05 * std::exp(-1.0));
}

/// A vortex ring coming up the z axis at a small ball on it, gravity off: the flow at
/// the ball speeds up from 0.04 to about 0.2 m/s over 1.2 s as the ring nears, and the
/// ring's core passes 0.3 m from the ball, where the ball's own flow is (R/r)³/2 < 0.3 %
/// of the ring's.
SceneSetup RingTowardsBall(float ballDensity, bool withBall) {
    SceneSetup s;
    s.params.gravity = glm::vec3(0.0f);
    s.params.viscosity = 1.0e-5f;  // the drag's time R²/3ν is 83 s: the ball moves by the pressure alone
    s.params.vortonCount = 3000;
    s.params.maxVortons = 20000;  // no cap: the ball (R/h 2.1) would stop the lattice coarsening, the ring alone not
    s.params.tracerCount = 0;
    DensityGroup ring;
    ring.name = "ring";
    ring.shape = DensityGroup::Shape::Torus;
    ring.center = {0.0f, 0.0f, -0.4f};
    ring.radius = 0.3f;
    ring.minorRadius = 0.08f;
    ring.circulation = 0.5f;
    s.groups.push_back(ring);
    if (withBall) s.bodies.push_back(Ball({0.0f, 0.0f, 0.3f}, 0.05f, ballDensity));
    return s;
}

TEST(Body, ABallInTheSkinModelIsCarriedAsTheFluidsAccelerationSays) {
    // An unresolved sphere in an accelerating flow (Maxey & Riley 1983; Auton, Hunt &
    // Prud'homme 1988): (m + ½ρV) dv/dt = ρV·(3/2) Du/Dt + k(u − v), k the drag
    // curve's. So a ball of the fluid's density, started at the fluid's velocity, moves
    // as the fluid parcel at its centre does; one three times as heavy gains 3ρ/(2ρ_b + ρ)
    // = 3/7 of the fluid's Du/Dt along its path, and the drag on its lag. Both are
    // measured in the same flow without the ball, by direct summation: the parcel
    // followed by Heun's step, and Du/Dt = ∂u/∂t + (u·∇)u at the ball's positions from
    // the velocity there before and after each step and central differences 5 mm apart.
    // Before the fluid-acceleration term only the drag moved the ball: the neutral one
    // gained 0.0046 m/s where the parcel gains 0.076, the heavy one 0.0020 of 0.034.
    // 5 %: the closure's backward difference in time lags the test's forward one by a
    // step, and Faxén's correction (R²/6)∇²u, which the closure leaves out, is about
    // (R/0.4 m)²/6 = 0.3 % of u here. 0.8 s: before the ring's spreading makes the
    // flow without the ball coarsen its lattice (the ball, at R/h 2.1, keeps it), after
    // which the two are no longer the same flow.
    const int steps = 40;
    Simulation fluid(RingTowardsBall(1000.0f, false));
    const float dt = fluid.Params().dt;
    const glm::vec3 start{0.0f, 0.0f, 0.3f};
    std::vector<glm::vec3> at{start}, u(1);
    fluid.DirectVelocityAt(at, u);
    const glm::vec3 startVelocity = u[0];

    // The balls first, each step's position and velocity recorded.
    const std::array<float, 2> densities{1000.0f, 3000.0f};
    std::array<std::vector<glm::vec3>, 2> paths, velocities;
    for (std::size_t i = 0; i < densities.size(); ++i) {
        SceneSetup s = RingTowardsBall(densities[i], true);
        s.bodies[0].velocity = startVelocity;
        Simulation sim(s);
        for (int n = 0; n < steps; ++n) {
            paths[i].push_back(sim.Bodies()[0].position);
            velocities[i].push_back(sim.Bodies()[0].velocity);
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        }
        paths[i].push_back(sim.Bodies()[0].position);
        velocities[i].push_back(sim.Bodies()[0].velocity);
        ASSERT_NEAR(sim.Spacing(), fluid.Spacing(), 1.0e-6f);  // the same lattice as the flow without it
    }

    // Then the flow without them: the parcel, and Σ dv/dt·dt along each path.
    glm::vec3 parcel = start;
    std::array<glm::dvec3, 2> gained{glm::dvec3(0.0), glm::dvec3(0.0)};
    const float d = 0.005f;
    const double rho = 1000.0, nu = fluid.Params().viscosity, radius = 0.05;
    const double volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
    for (int n = 0; n < steps; ++n) {
        std::vector<glm::vec3> points{parcel};
        for (const auto& path : paths) {
            const glm::vec3 x = path[std::size_t(n)];
            points.push_back(x);
            for (int j = 0; j < 3; ++j) {
                glm::vec3 e(0.0f);
                e[j] = d;
                points.push_back(x + e);
                points.push_back(x - e);
            }
        }
        std::vector<glm::vec3> before(points.size()), after(points.size());
        fluid.DirectVelocityAt(points, before);
        ASSERT_TRUE(test::RunSteps(fluid, 1).ok);
        points[0] = parcel + dt * before[0];
        fluid.DirectVelocityAt(points, after);
        parcel += 0.5f * dt * (before[0] + after[0]);
        for (std::size_t i = 0; i < paths.size(); ++i) {
            const std::size_t c = 1 + 7 * i;
            glm::dvec3 convective(0.0);
            for (std::size_t j = 0; j < 3; ++j) {
                const glm::dvec3 du = glm::dvec3(before[c + 1 + 2 * j] - before[c + 2 + 2 * j]) / (2.0 * d);
                convective += double(before[c][int(j)]) * du;
            }
            const double share = 3.0 * rho / (2.0 * densities[i] + rho);
            const glm::dvec3 slip = glm::dvec3(before[c] - velocities[i][std::size_t(n)]);
            const double re = 2.0 * radius * glm::length(slip) / nu;
            const double drag = 6.0 * std::numbers::pi * rho * nu * radius * (1.0 + 0.15 * std::pow(re, 0.687));
            const double inertia = (double(densities[i]) + 0.5 * rho) * volume;
            gained[i] += share * (glm::dvec3(after[c] - before[c]) + double(dt) * convective) +
                         double(dt) * drag * slip / inertia;
        }
    }
    std::vector<glm::vec3> end{parcel};
    fluid.DirectVelocityAt(end, u);
    const double parcelGain = double(u[0].z - startVelocity.z), parcelRise = double(parcel.z - start.z);
    test::Measured("ring_parcel_rise", parcelRise);
    test::Measured("ring_parcel_velocity_gain", parcelGain);
    ASSERT_GT(parcelGain, 0.05);  // the flow does speed up: the test means something

    for (std::size_t i = 0; i < densities.size(); ++i) {
        const double gain = double(velocities[i].back().z - startVelocity.z);
        const double expected = gained[i].z;
        const std::string name = i == 0 ? "neutral_ball" : "heavy_ball";
        test::Measured(name + "_velocity_gain", gain);
        test::Measured(name + "_velocity_gain_expected", expected);
        EXPECT_NEAR(gain, expected, 0.05 * std::abs(expected)) << name;
        // Nothing pushes it off the axis.
        EXPECT_LT(glm::length(glm::vec2(velocities[i].back())), 0.01 * std::abs(expected)) << name;
    }
    // The neutral ball is the parcel.
    const double rise = double(paths[0].back().z - start.z);
    test::Measured("neutral_ball_rise", rise);
    EXPECT_NEAR(rise, parcelRise, 0.05 * parcelRise);
    EXPECT_NEAR(double(velocities[0].back().z - startVelocity.z), parcelGain, 0.05 * parcelGain);
}

TEST(Body, NoParticleEndsAStepInsideASphere) {
    SceneSetup s = Shot(true);
    // Beside the shot ball's path (they would overlap on it: bodies do not collide).
    s.bodies.push_back(Ball({0.5f, 0.3f, 0.0f}, 0.12f, 1000.0f));
    s.bodies[1].name = "other";
    s.bodies[1].fixed = true;
    s.bodies[1].angularVelocity = {0, 0, 4};
    Simulation sim(s);
    for (int step = 0; step < 40; ++step) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        for (std::size_t b = 0; b < sim.Bodies().size(); ++b) {
            const glm::vec3 c = sim.Bodies()[b].position;
            const float r = sim.Setup().bodies[b].radius * (1.0f - 1.0e-5f);
            for (const glm::vec3& x : sim.GetVortons().position) ASSERT_GE(glm::length(x - c), r) << "vorton";
            for (const glm::vec3& x : sim.GetTracers().position) ASSERT_GE(glm::length(x - c), r) << "tracer";
        }
    }
}

float MeanSwirl(const Simulation& sim, float radius) {
    // Mean azimuthal tracer velocity about z within a ball radius of the surface, near the equator.
    double sum = 0.0;
    int n = 0;
    const Tracers& t = sim.GetTracers();
    for (std::size_t i = 0; i < t.Size(); ++i) {
        const glm::vec3 x = t.position[i];
        const float rho = std::hypot(x.x, x.y);
        if (std::abs(x.z) > 0.5f * radius || rho < radius || rho > 2.0f * radius) continue;
        sum += (x.x * t.velocity[i].y - x.y * t.velocity[i].x) / rho;
        ++n;
    }
    return n ? float(sum / n) : 0.0f;
}

TEST(Body, SpinningSphereMakesTheFluidSwirlWithIt) {
    // Part 4, figures 2 and 3. Expected sign: the spin's; size: a good part
    // of the surface speed ΩR next to the ball (measured ≈ 0.3 ΩR after 1 s).
    for (const float spin : {5.0f, -5.0f}) {
        SceneSetup s;
        s.params.gravity = glm::vec3(0.0f);
        s.params.vortonCount = 2000;
        s.params.tracerCount = 20000;
        s.groups.push_back(Smoke({0, 0, 0}, {0.5f, 0.5f, 0.25f}));
        BodySpec b = Ball({0, 0, 0}, 0.15f, 1000.0f);
        b.fixed = true;
        b.angularVelocity = {0, 0, spin};
        s.bodies.push_back(b);
        Simulation sim(s);
        ASSERT_TRUE(test::RunSteps(sim, 50).ok);
        const float swirl = MeanSwirl(sim, 0.15f) / (spin * 0.15f);
        test::Measured(spin > 0 ? "swirl_over_surface_speed" : "swirl_over_surface_speed_reversed", swirl);
        EXPECT_GT(swirl, 0.1f);
        EXPECT_LT(swirl, 1.0f) << "no faster than the surface";
        // The spin shows in the orientation: 50 steps of 0.02 s at 5 rad/s = 5 rad.
        const glm::quat q = sim.Bodies()[0].orientation;
        EXPECT_NEAR(std::abs(glm::angle(q) - 5.0f), 0.0f, 1.0e-3f) ;
    }
}

TEST(Body, GrabbedBodyMovesToTheTargetAndKeepsItsVelocityWhenReleased) {
    Simulation sim(StillSmokeWithBall(1000.0f));
    sim.GrabBody(0, {0.1f, 0.0f, 0.0f});
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    EXPECT_NEAR(sim.Bodies()[0].position.x, 0.1f, 1.0e-6f);
    EXPECT_NEAR(sim.Bodies()[0].velocity.x, 0.1f / sim.Params().dt, 1.0e-3f);
    sim.ReleaseBody(0);
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    EXPECT_GT(sim.Bodies()[0].position.x, 0.1f + 0.5f * 0.1f) << "thrown on";
    EXPECT_GT(sim.ComputeDiagnostics().maxSpeed, 0.0) << "the fluid felt it";
}

TEST(Body, AnOscillatingFixedBodyFollowsItsPrescribedVelocityAndStirsTheSmoke) {
    // The skin model (body_sheet off) carries an oscillating fixed body too:
    // v(t) = velocity + U0 sin(2πt/T) at each step's end, and x += dt·v.
    SceneSetup s = StillSmokeWithBall(1000.0f);
    s.bodies[0].fixed = true;
    s.bodies[0].oscillationVelocity = glm::vec3(0.0f, 0.0f, 0.2f);
    s.bodies[0].oscillationPeriod = 0.5f;
    Simulation sim(s);
    const double dt = sim.Params().dt;
    double z = 0.0;
    for (int n = 1; n <= 40; ++n) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        const double v = 0.2 * std::sin(2.0 * std::numbers::pi * n * dt / 0.5);
        z += dt * float(v);
        ASSERT_NEAR(sim.Bodies()[0].velocity.z, v, 1e-6) << "step " << n;
    }
    EXPECT_NEAR(sim.Bodies()[0].position.z, z, 1e-5);
    EXPECT_EQ(sim.Bodies()[0].position.x, 0.0f);
    EXPECT_GT(sim.ComputeDiagnostics().maxSpeed, 0.0) << "the fluid felt it";
}

TEST(Body, BitwiseTheSameForAnyThreadCount) {
    SceneSetup s = Shot(true);
    s.bodies[0].angularVelocity = {0, 3, 0};
    s.params.gravity = {0, 0, -9.81f};
    auto run = [&](int threads) {
        Simulation sim(s);
        EXPECT_TRUE(test::RunSteps(sim, 15, threads).ok);
        return test::StateAndBodiesHash(sim);
    };
    const std::uint64_t one = run(1);
    EXPECT_EQ(run(2), one);
    EXPECT_EQ(run(4), one);
}

}  // namespace
}  // namespace vorton
