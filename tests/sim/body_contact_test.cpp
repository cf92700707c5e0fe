// Bodies that touch (ResolveSphereContacts, Simulation::CollideBodies) and bodies
// added to or taken out of a running scene (MatchBodies, Simulation::SyncBodies):
// the panel's "Add a ball" and "Remove".

#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "sim/bodies/rigid_body.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

BodySpec Ball(const std::string& name, glm::vec3 position, float radius, float density) {
    BodySpec b;
    b.name = name;
    b.position = position;
    b.radius = radius;
    b.density = density;
    return b;
}

TEST(BodyContact, TwoSpheresLeaveAtTheRestitutionTimesTheirClosingSpeedAndKeepTheirMomentum) {
    // Masses 1 and 3 kg, touching off-centre with 2 mm of overlap, closing at
    // 1.5 m/s along the line of centres with a sideways part each keeps
    // (frictionless). Newton's law of restitution and momentum give the answer.
    const glm::vec3 n = glm::normalize(glm::vec3(1.0f, 0.5f, -0.25f));
    const glm::vec3 side = glm::normalize(glm::cross(n, glm::vec3(0.0f, 0.0f, 1.0f)));
    std::vector<ContactSphere> s(2);
    s[0] = {glm::vec3(0.0f), 1.0f * n + 0.3f * side, 0.1f, 1.0f};
    s[1] = {0.198f * n, -0.5f * n - 0.2f * side, 0.1f, 1.0f / 3.0f};
    const glm::vec3 momentum = s[0].velocity / s[0].inverseMass + s[1].velocity / s[1].inverseMass;
    const float e = 0.5f;
    ASSERT_EQ(ResolveSphereContacts(s, e), 1);
    const glm::vec3 after = s[0].velocity / s[0].inverseMass + s[1].velocity / s[1].inverseMass;
    EXPECT_LT(glm::length(after - momentum), 1e-5f) << "momentum 2.5 kg m/s along n";
    // They leave at e·1.5 m/s along the line of centres (float rounding: 1e-5 m/s).
    EXPECT_NEAR(glm::dot(s[1].velocity - s[0].velocity, n), e * 1.5f, 1e-5f);
    EXPECT_NEAR(glm::dot(s[0].velocity, side), 0.3f, 1e-6f);
    EXPECT_NEAR(glm::dot(s[1].velocity, side), -0.2f, 1e-6f);
    // Apart: touching, the 2 mm shared as 1/m (the light one moves 1.5 mm).
    EXPECT_NEAR(glm::length(s[1].position - s[0].position), 0.2f, 1e-6f);
    EXPECT_NEAR(glm::length(s[0].position), 1.5e-3f, 1e-6f);
}

TEST(BodyContact, AnImmovableSphereReflectsAndSeparatingSpheresKeepTheirVelocities) {
    // A sphere of inverse mass 0 (fixed or held) gives no way: the other leaves at −e v.
    std::vector<ContactSphere> s(2);
    s[0] = {glm::vec3(0.0f), glm::vec3(0.0f), 0.2f, 0.0f};
    s[1] = {glm::vec3(0.0f, 0.0f, 0.29f), glm::vec3(0.0f, 0.0f, -2.0f), 0.1f, 2.0f};
    ASSERT_EQ(ResolveSphereContacts(s, 0.25f), 1);
    EXPECT_EQ(s[0].position, glm::vec3(0.0f));
    EXPECT_EQ(s[0].velocity, glm::vec3(0.0f));
    EXPECT_NEAR(s[1].position.z, 0.3f, 1e-6f);
    EXPECT_NEAR(s[1].velocity.z, 0.5f, 1e-6f);
    // Already leaving each other: only moved apart.
    s[1] = {glm::vec3(0.0f, 0.0f, 0.29f), glm::vec3(0.0f, 0.0f, 1.0f), 0.1f, 2.0f};
    ASSERT_EQ(ResolveSphereContacts(s, 0.25f), 1);
    EXPECT_EQ(s[1].velocity, glm::vec3(0.0f, 0.0f, 1.0f));
    // Closing slower than the resting speed: it stops against it, no bounce.
    s[1] = {glm::vec3(0.0f, 0.0f, 0.29f), glm::vec3(0.0f, 0.0f, -0.3f), 0.1f, 2.0f};
    ASSERT_EQ(ResolveSphereContacts(s, 0.25f, 0.4f), 1);
    EXPECT_NEAR(s[1].velocity.z, 0.0f, 1e-7f);
    // Two immovable ones are left as they are, overlapping or not.
    s[1].inverseMass = 0.0f;
    s[1].position = glm::vec3(0.0f, 0.0f, 0.1f);
    EXPECT_EQ(ResolveSphereContacts(s, 0.25f), 0);
    EXPECT_EQ(s[1].position, glm::vec3(0.0f, 0.0f, 0.1f));
}

TEST(BodyContact, ARowOfSpheresPushedTogetherEndsWithNoOverlap) {
    // Five equal spheres in a row, each overlapping the next by 1 cm: one pass moves
    // the overlap along the row, the passes that follow take it out (to 0.1 mm: a
    // pile of balls in the demo is not seen to sink into itself).
    std::vector<ContactSphere> s(5);
    for (int i = 0; i < 5; ++i) s[std::size_t(i)] = {glm::vec3(0.19f * float(i), 0.0f, 0.0f), glm::vec3(0.0f), 0.1f, 1.0f};
    EXPECT_EQ(ResolveSphereContacts(s, 0.5f), 4);
    for (int i = 0; i + 1 < 5; ++i) {
        EXPECT_GT(s[std::size_t(i) + 1].position.x - s[std::size_t(i)].position.x, 0.2f - 1e-4f) << i;
    }
}

// A solid sphere of mass m and radius R, at x moving at v: 1/m and 1/I = 1/(⅖ m R²).
ContactSphere Solid(glm::vec3 x, glm::vec3 v, float radius, float mass) {
    return {x, v, radius, 1.0f / mass, glm::vec3(0.0f), 1.0f / (0.4f * mass * radius * radius)};
}

TEST(BodyContact, ABallSlidingOntoAnImmovableOneLeavesRollingAtFiveSeventhsOfItsSpeed) {
    // A 2-kg ball of radius 0.1 m lands on an immovable one below it at 1 m/s down and
    // 0.5 m/s along x. With friction that does not run out (μ = 10), the contact stops
    // its surface's slip: the tangential impulse J_t = m u_t/(1 + mR²/I) = m u_t (2/7)
    // leaves the centre at 5/7 of 0.5 m/s and the ball spinning at 0.5·(5/7)/R about +y
    // (rolling over the other's top: its lowest point at rest). The normal part leaves at e = 0.5 times 1 m/s.
    std::vector<ContactSphere> s(2);
    s[0] = {glm::vec3(0.0f), glm::vec3(0.0f), 0.1f, 0.0f};
    s[1] = Solid(glm::vec3(0.0f, 0.0f, 0.199f), glm::vec3(0.5f, 0.0f, -1.0f), 0.1f, 2.0f);
    ASSERT_EQ(ResolveSphereContacts(s, 0.5f, 0.0f, 10.0f), 1);
    EXPECT_NEAR(s[1].velocity.x, 0.5f * 5.0f / 7.0f, 1e-6f);
    EXPECT_NEAR(s[1].velocity.z, 0.5f, 1e-6f);
    EXPECT_NEAR(s[1].angularVelocity.y, 0.5f * 5.0f / 7.0f / 0.1f, 1e-5f);
    // Its contact point (−R along z) no longer slides: v + ω × (−R ẑ) has no x part.
    const glm::vec3 contact = s[1].velocity + glm::cross(s[1].angularVelocity, glm::vec3(0.0f, 0.0f, -0.1f));
    EXPECT_NEAR(contact.x, 0.0f, 1e-6f);
    EXPECT_EQ(s[0].angularVelocity, glm::vec3(0.0f)) << "an immovable sphere keeps its spin";
    // With little friction (μ = 0.05) the slip is not stopped: J_t = μ J_n, so the
    // tangential speed falls by μ(1 + e)·1 m/s = 0.075 m/s, and the spin is J_t R / I.
    s[1] = Solid(glm::vec3(0.0f, 0.0f, 0.199f), glm::vec3(0.5f, 0.0f, -1.0f), 0.1f, 2.0f);
    ASSERT_EQ(ResolveSphereContacts(s, 0.5f, 0.0f, 0.05f), 1);
    EXPECT_NEAR(s[1].velocity.x, 0.5f - 0.075f, 1e-6f);
    EXPECT_NEAR(s[1].angularVelocity.y, (0.075f * 2.0f) * 0.1f / (0.4f * 2.0f * 0.01f), 1e-5f);
    // Frictionless (μ = 0, the default): the tangential speed is kept and nothing spins.
    s[1] = Solid(glm::vec3(0.0f, 0.0f, 0.199f), glm::vec3(0.5f, 0.0f, -1.0f), 0.1f, 2.0f);
    ASSERT_EQ(ResolveSphereContacts(s, 0.5f), 1);
    EXPECT_EQ(s[1].velocity.x, 0.5f);
    EXPECT_EQ(s[1].angularVelocity, glm::vec3(0.0f));
}

TEST(BodyContact, ABallLandingInTheGrooveOfTwoOthersLeavesAlongTheGrooveAtTheSummedFrictionBound) {
    // A 2-kg ball (R 0.1 m) lands at 1 m/s down, sliding at 0.5 m/s along y, on two
    // immovable balls side by side at x = ±8 cm: both contacts at once, normals
    // n = (±d, 0, z)/2R with z = √(4R² − d²). Resting (e = 0), it must leave with no
    // normal speed at either: so no x or z velocity at all, only y. The normal
    // impulses are equal, 2 J_n z/2R = m·1 m/s. Friction takes at most μ J_n at each,
    // so the y speed falls by 2μJ_n/m, or, where that suffices, by what makes it
    // roll along both rails: 2 J_t (1/m + (Rz/2R)²/I) = 0.5 m/s.
    const float R = 0.1f, m = 2.0f, d = 0.08f, z = std::sqrt(4.0f * R * R - d * d);
    const float jn = m * 1.0f * (2.0f * R) / (2.0f * z);
    const float rolling = 0.5f / (2.0f * (1.0f / m + (0.25f * z * z) / (0.4f * m * R * R)));
    for (const float mu : {0.0f, 0.05f, 10.0f}) {
        std::vector<ContactSphere> s(3);
        s[0] = {glm::vec3(-d, 0.0f, 0.0f), glm::vec3(0.0f), R, 0.0f};
        s[1] = {glm::vec3(d, 0.0f, 0.0f), glm::vec3(0.0f), R, 0.0f};
        s[2] = Solid(glm::vec3(0.0f, 0.0f, z - 1.0e-4f), glm::vec3(0.0f, 0.5f, -1.0f), R, m);
        ASSERT_EQ(ResolveSphereContacts(s, 0.5f, 2.0f, mu), 2) << "μ " << mu;
        // (Sequential impulses that only ever pushed, as before, left it moving at 0.20–0.25 m/s
        // along x and 0.09–0.11 m/s up.)
        EXPECT_NEAR(s[2].velocity.x, 0.0f, 1.0e-4f) << "μ " << mu;
        EXPECT_NEAR(s[2].velocity.z, 0.0f, 1.0e-4f) << "μ " << mu;
        EXPECT_NEAR(s[2].velocity.y, 0.5f - 2.0f * std::min(mu * jn, rolling) / m, 1.0e-4f) << "μ " << mu;
        EXPECT_NEAR(s[2].angularVelocity.z, 0.0f, 1.0e-3f) << "symmetric: no spin about the vertical";
    }
    // Bouncing (e = 0.5, closing faster than the resting speed): it leaves straight up at e·1 m/s.
    std::vector<ContactSphere> s(3);
    s[0] = {glm::vec3(-d, 0.0f, 0.0f), glm::vec3(0.0f), R, 0.0f};
    s[1] = {glm::vec3(d, 0.0f, 0.0f), glm::vec3(0.0f), R, 0.0f};
    s[2] = Solid(glm::vec3(0.0f, 0.0f, z - 1.0e-4f), glm::vec3(0.0f, 0.0f, -1.0f), R, m);
    ASSERT_EQ(ResolveSphereContacts(s, 0.5f), 2);
    EXPECT_NEAR(s[2].velocity.x, 0.0f, 1.0e-4f);
    EXPECT_NEAR(s[2].velocity.z, 0.5f, 1.0e-4f);
}

TEST(BodyContact, FrictionBetweenFreeBallsKeepsMomentumAndAngularMomentum) {
    // A 1-kg ball (R 0.1 m) spinning at 20 rad/s about z meets a 3-kg one (R 0.15 m)
    // off-centre, both moving: friction passes spin and momentum between them, but
    // both impulses act at the one contact point, so Σ m v and Σ (m x × v + I ω)
    // about the origin are what they were (float rounding: 1e-5 of their size). The
    // overlap's removal moves the centres (along the line of centres, which the
    // impulses' point stays on), so both sums are taken at the centres it leaves.
    std::vector<ContactSphere> s(2);
    s[0] = Solid(glm::vec3(0.0f), glm::vec3(1.0f, 0.2f, 0.0f), 0.1f, 1.0f);
    s[0].angularVelocity = glm::vec3(0.0f, 0.0f, 20.0f);
    s[1] = Solid(glm::vec3(0.2f, 0.12f, 0.05f), glm::vec3(-0.5f, 0.0f, 0.3f), 0.15f, 3.0f);
    const auto momentum = [&] {
        glm::dvec3 p(0.0);
        for (const ContactSphere& c : s) p += glm::dvec3(c.velocity) / double(c.inverseMass);
        return p;
    };
    const auto angular = [&](const std::vector<ContactSphere>& motion) {
        glm::dvec3 l(0.0);
        for (std::size_t i = 0; i < s.size(); ++i) {
            const ContactSphere& c = motion[i];
            l += glm::cross(glm::dvec3(s[i].position), glm::dvec3(c.velocity)) / double(c.inverseMass) +
                 glm::dvec3(c.angularVelocity) / double(c.inverseInertia);
        }
        return l;
    };
    const std::vector<ContactSphere> before = s;
    const glm::dvec3 p0 = momentum();
    ASSERT_EQ(ResolveSphereContacts(s, 0.5f, 0.0f, 0.3f), 1);
    const glm::dvec3 l0 = angular(before);
    EXPECT_LT(glm::length(momentum() - p0), 1e-5 * glm::length(p0));
    EXPECT_LT(glm::length(angular(s) - l0), 1e-5 * glm::length(l0));
    // And friction did act: the slow ball took spin from the fast one's.
    EXPECT_GT(glm::length(s[1].angularVelocity), 0.1f);
    EXPECT_LT(s[0].angularVelocity.z, 20.0f);
}

TEST(BodyContact, ABallDroppedOnAFixedBallComesToRestOnItWithoutPassingThrough) {
    // The skin model in clear water: a ball of twice the water's density falls 0.3 m
    // onto a fixed ball of its size right below it. Without contacts it falls through
    // (checked: its centre is 6.2 m below the fixed one's after 3 s). With them it
    // bounces, each bounce at most e² = 1/4 of the last's height (the water's drag
    // takes more), and after 3 s it rests on top, still: its centre 2R above the
    // other's (the resting contact stops it, rather than letting it bounce a little
    // every step).
    SceneSetup s;
    s.params.bodySheet = false;
    s.params.tracerCount = 0;
    s.params.bodyRestitution = 0.5f;
    s.bodies.push_back(Ball("post", glm::vec3(0.0f), 0.1f, 1000.0f));
    s.bodies.back().fixed = true;
    s.bodies.push_back(Ball("ball", glm::vec3(0.0f, 0.0f, 0.5f), 0.1f, 2000.0f));
    Simulation sim(s);
    float closest = 1.0f, highestAfterFirstBounce = 0.0f;
    bool bounced = false;
    for (int step = 0; step < 150; ++step) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        const BodyState& ball = sim.Bodies()[1];
        closest = std::min(closest, glm::length(ball.position - sim.Bodies()[0].position));
        if (ball.velocity.z > 0.0f) bounced = true;
        if (bounced && step < 60) highestAfterFirstBounce = std::max(highestAfterFirstBounce, ball.position.z);
    }
    EXPECT_TRUE(bounced);
    EXPECT_GT(closest, 0.2f - 1e-4f) << "the ball's centre came within 2R of the post's";
    // It came back up, but not to where it fell from (e < 1 and the water's drag).
    EXPECT_GT(highestAfterFirstBounce, 0.2f + 0.01f);
    EXPECT_LT(highestAfterFirstBounce, 0.2f + 0.25f * 0.3f);
    EXPECT_NEAR(sim.Bodies()[1].position.z, 0.2f, 1e-4f);
    EXPECT_LT(glm::length(sim.Bodies()[1].velocity), 1e-3f);
    EXPECT_EQ(sim.Bodies()[0].position, glm::vec3(0.0f)) << "the fixed ball gave way";
}

TEST(BodyEdits, ABallAddedOrRemovedMidRunLeavesTheOthersTheirMotion) {
    // falling_ball (body sheets) at a small count: a second ball added after 0.4 s
    // joins at its spec; the first keeps every bit of its state through the edit.
    // Then the first is removed and the second, now first, keeps its own.
    SceneSetup s = test::LoadSetup("falling_ball");
    s.params.tracerCount = 0;
    Simulation sim(s);
    ASSERT_TRUE(test::RunSteps(sim, 20).ok);
    const BodyState first = sim.Bodies()[0];
    sim.Setup().bodies.push_back(Ball("ball_2", first.position + glm::vec3(0.5f, 0.0f, 0.0f), 0.1f, 1200.0f));
    sim.SyncBodies();
    ASSERT_EQ(sim.Bodies().size(), 2u);
    EXPECT_EQ(sim.Bodies()[0].position, first.position);
    EXPECT_EQ(sim.Bodies()[0].velocity, first.velocity);
    EXPECT_EQ(sim.Bodies()[1].position, sim.Setup().bodies[1].position);
    EXPECT_EQ(sim.Bodies()[1].velocity, glm::vec3(0.0f));
    ASSERT_TRUE(test::RunSteps(sim, 20).ok);
    // Both fall (the new one from rest, the first on at its pace).
    EXPECT_LT(sim.Bodies()[1].velocity.z, -0.1f);
    EXPECT_LT(sim.Bodies()[0].velocity.z, first.velocity.z - 0.01f);
    const BodyState second = sim.Bodies()[1];
    sim.Setup().bodies.erase(sim.Setup().bodies.begin());
    sim.SyncBodies();
    ASSERT_EQ(sim.Bodies().size(), 1u);
    EXPECT_EQ(sim.Bodies()[0].position, second.position);
    EXPECT_EQ(sim.Bodies()[0].velocity, second.velocity);
    EXPECT_TRUE(test::RunSteps(sim, 20).ok);
}

TEST(BodyEdits, AFixedBallFarFromAFallingOneIsNotFedItsKelvinDifference) {
    // Kelvin's sheet puts back the net vorticity the particles lose (CoupleBodies). Shared
    // by area, a fixed ball at rest 2 m from falling_ball's ball got half of the falling
    // ball's share every step: a swirl of its own, which grew (with the ball 31 m below
    // it, its force went from 0.02 N to 227 N between 16 s and 40 s). Shared by the
    // strength of the sheet each releases, it gets only what its own slip asks for: the
    // falling ball's field there, U(R/d)³ ≈ 0.6 m/s × 1.25·10⁻⁴ at d = 2 m, a sheet of
    // about 4πR²·(3/2)·10⁻⁴ m/s ≈ 2·10⁻⁵ m³/s (bound: ten times that), whose net is 0
    // (the sheet of an irrotational slip: ∮n × u dA = ∫ω dV = 0; bound: 10 % of it for
    // the surface's quadrature and diffusion). Measured after 2 s: Σ|α| 2.7·10⁻⁵ and
    // |Σα| 3.6 % of it; shared by area, 5.7·10⁻⁵ and 48 %.
    SceneSetup s = test::LoadSetup("falling_ball");
    s.params.tracerCount = 0;
    s.bodies.push_back(Ball("post", glm::vec3(2.0f, 0.0f, -0.5f), 0.1f, 1000.0f));
    s.bodies.back().fixed = true;
    Simulation sim(s);
    ASSERT_TRUE(test::RunSteps(sim, 100).ok);
    const Vortons& v = sim.GetVortons();
    double strength = 0.0;
    glm::dvec3 net(0.0);
    for (std::size_t k = 0; k < v.Size(); ++k) {
        if (glm::length(v.position[k] - s.bodies[1].position) > 0.3f) continue;
        strength += double(glm::length(v.vorticity[k])) * double(v.volume[k]);
        net += glm::dvec3(v.vorticity[k]) * double(v.volume[k]);
    }
    EXPECT_LT(strength, 2e-4) << "m^3/s within 0.3 m of the post";
    EXPECT_LT(glm::length(net), 0.1 * strength) << "a net swirl around the post";
}

TEST(BodyEdits, OnlyABodyThatMovesThroughTheFluidAddsRoomForAWake) {
    // The vorton cap (max_vortons 0) adds a wake's room for each body that makes one. A
    // fixed post at rest in still water makes none: given a room, falling_ball's one wake
    // filled it too (a ball dropped between two posts: 50,431 vortons, 3 substeps, stop 99).
    // Spun, carried or in a stream, the same post sheds and gets its room back.
    SceneSetup s = test::LoadSetup("falling_ball");
    s.params.tracerCount = 0;
    const std::size_t alone = Simulation(s).MaxVortons();
    s.bodies.push_back(Ball("post", glm::vec3(0.5f, 0.0f, -0.5f), 0.1f, 1000.0f));
    s.bodies.back().fixed = true;
    EXPECT_EQ(Simulation(s).MaxVortons(), alone) << "a post at rest in still water";
    const auto roomWith = [&](auto&& edit) {
        SceneSetup e = s;
        edit(e);
        return Simulation(e).MaxVortons();
    };
    // Both at rest and fixed: the seeded vortons' share alone. The post is the ball's size on
    // the same lattice, so it adds the ball's room again.
    const std::size_t none = roomWith([](SceneSetup& e) { e.bodies[0].fixed = true; });
    ASSERT_LT(none, alone);
    const std::size_t two = alone + (alone - none);
    EXPECT_EQ(roomWith([](SceneSetup& e) { e.bodies[1].angularVelocity = {0.0f, 0.0f, 5.0f}; }), two) << "spun";
    EXPECT_EQ(roomWith([](SceneSetup& e) { e.bodies[1].velocity = {0.0f, 0.3f, 0.0f}; }), two) << "carried";
    EXPECT_EQ(roomWith([](SceneSetup& e) { e.params.freeStream = {0.6f, 0.0f, 0.0f}; }), two) << "in a stream";
    EXPECT_EQ(roomWith([](SceneSetup& e) { e.bodies[1].fixed = false; }), two) << "free";
}

TEST(BodyEdits, PastTwoWakesTheBodiesShareTwoRooms) {
    // Each body that makes a wake adds a room to the vorton cap, up to kWakeRooms (2) of
    // them; past that they share two rooms of the largest's size. A ball a user adds then
    // shortens the wakes (the remesh drops the vortons farthest from every body first)
    // rather than adding its room to every step's cost: falling_ball with four balls added
    // held 85,504 vortons at one second a step (stop 102).
    SceneSetup s = test::LoadSetup("falling_ball");
    s.params.tracerCount = 0;
    const std::size_t one = Simulation(s).MaxVortons();
    SceneSetup still = s;
    still.bodies[0].fixed = true;
    const std::size_t seeded = Simulation(still).MaxVortons();
    ASSERT_LT(seeded, one);
    const std::size_t room = one - seeded;  // the ball's: R/h 5
    s.bodies.push_back(Ball("ball_2", glm::vec3(0.5f, 0.0f, 0.0f), 0.1f, 1200.0f));
    EXPECT_EQ(Simulation(s).MaxVortons(), seeded + 2 * room) << "two balls: a room each";
    s.bodies.push_back(Ball("ball_3", glm::vec3(-0.5f, 0.0f, 0.0f), 0.08f, 1200.0f));
    s.bodies.push_back(Ball("ball_4", glm::vec3(0.0f, 0.5f, 0.0f), 0.1f, 1200.0f));
    EXPECT_EQ(Simulation(s).MaxVortons(), seeded + 2 * room) << "four balls share two rooms";
    // A larger ball (R/h 6: more surface points, and the room grows by (R/h)/5 besides):
    // the two rooms are its.
    s.bodies.push_back(Ball("ball_5", glm::vec3(0.0f, -0.5f, 0.0f), 0.12f, 1200.0f));
    const std::size_t five = Simulation(s).MaxVortons();
    EXPECT_GT(five, seeded + 2 * room);
    s.bodies.resize(1);
    s.bodies.push_back(Ball("ball_5", glm::vec3(0.0f, -0.5f, 0.0f), 0.12f, 1200.0f));
    const std::size_t largeRoom = Simulation(s).MaxVortons() - one;
    EXPECT_EQ(five, seeded + 2 * largeRoom);
    // A post at rest in still water still adds nothing, and a given max_vortons is the cap.
    s.bodies.push_back(Ball("post", glm::vec3(0.0f, 0.0f, -0.5f), 0.1f, 1000.0f));
    s.bodies.back().fixed = true;
    EXPECT_EQ(Simulation(s).MaxVortons(), one + largeRoom);
    s.params.maxVortons = 123456;
    EXPECT_EQ(Simulation(s).MaxVortons(), 123456u);
}

TEST(BodyEdits, MatchBodiesFindsEachBodyByNameWhereverItMoved) {
    const std::vector<std::string> before{"a", "b", "c"};
    std::vector<BodySpec> after;
    for (const char* name : {"c", "a", "new", "b"}) after.push_back(Ball(name, glm::vec3(0.0f), 0.1f, 1000.0f));
    EXPECT_EQ(MatchBodies(before, after), (std::vector<int>{2, 0, -1, 1}));
    after.erase(after.begin());  // c removed
    EXPECT_EQ(MatchBodies(before, after), (std::vector<int>{0, -1, 1}));
}

}  // namespace
}  // namespace vorton
