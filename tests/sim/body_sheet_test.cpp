// Bodies that make their own vorticity (body_sheet, issue 12): image sources
// for no-through, a vortex sheet released each step for no-slip, the fluid's
// force from the impulse given to it. Checked against the standard drag curve
// (StandardDragCoefficient: Clift & Gauvin's, Schiller–Naumann's C_d = 24/Re·(1 +
// 0.15 Re^0.687) below Re ≈ 300 within 1 %; Clift, Grace & Weber, *Bubbles,
// Drops and Particles*, 1978, ch. 5) in clear water.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/bodies/body_surface.h"
#include "sim/bodies/drag_curve.h"
#include "sim/particles/seeding.h"
#include "sim/simulation.h"
#include "sim/solvers/biot_savart.h"
#include "test_util.h"

namespace vorton {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr double kRho = 1000.0;   // kg/m³
constexpr double kNu = 3.0e-4;    // m²/s
constexpr double kRadius = 0.1;   // m

/// Terminal velocity (m/s) of a sphere of density rhoBody where the drag
/// curve's drag balances weight minus buoyancy.
double TerminalVelocity(double rhoBody) { return DragCurveTerminalSpeed(rhoBody, kRho, kRadius, kNu, 9.81); }

/// A ball in clear water: no groups, every vorton made by the ball, with the
/// body scenes' wall settings (falling_ball, ball_through_smoke): the subgrid
/// model damped at the wall (van_driest 26) and cores σ = h (core_overlap 1),
/// which reach less far into the ball than 1.5 h (docs/BODIES.md, stop 74).
SceneSetup ClearWater(float rhoBody, glm::vec3 gravity, glm::vec3 velocity, float resolution) {
    SceneSetup s;
    s.params.ambientDensity = float(kRho);
    s.params.viscosity = float(kNu);
    s.params.gravity = gravity;
    s.params.dt = 0.01f;
    s.params.bodySheet = true;
    s.params.bodyResolution = resolution;
    s.params.maxVortons = 400000;  // no coarsening: the resolution stays the one asked for
    s.params.vanDriest = 26.0f;
    s.params.coreOverlap = 1.0f;
    BodySpec b;
    b.name = "ball";
    b.radius = float(kRadius);
    b.density = rhoBody;
    b.velocity = velocity;
    s.bodies.push_back(b);
    return s;
}

/// A fixed ball of radius `radius` (m) at the origin in clear water of
/// viscosity `viscosity` (m²/s), as the drag and wake checks run it: no
/// gravity, dt = 0.02 s, R/h = `resolution`, no subgrid model, remeshing every
/// 10 steps, 1.5 m of wake kept. It is held in the stream `stream` (m/s), or
/// carried at `velocity` (m/s) through the fluid (a fixed body keeps its
/// given velocity), or both.
SceneSetup FixedBallInStream(double radius, double viscosity, float resolution, glm::vec3 stream,
                             glm::vec3 velocity = glm::vec3(0.0f)) {
    SceneSetup s;
    s.params.ambientDensity = float(kRho);
    s.params.viscosity = float(viscosity);
    s.params.gravity = glm::vec3(0.0f);
    s.params.dt = 0.02f;
    s.params.freeStream = stream;
    s.params.bodySheet = true;
    s.params.bodyResolution = resolution;
    s.params.smagorinsky = 0.0f;
    s.params.remeshEvery = 10;
    s.params.wakeLength = 1.5f;
    s.params.maxVortons = 400000;
    BodySpec b;
    b.name = "ball";
    b.radius = float(radius);
    b.density = float(kRho);
    b.fixed = true;
    b.velocity = velocity;
    s.bodies.push_back(b);
    return s;
}

/// Points just outside a sphere, spread over it (a Fibonacci sphere), and their normals.
void SurfacePoints(glm::vec3 center, float radius, int n, std::vector<glm::vec3>* points,
                   std::vector<glm::vec3>* normals) {
    const float golden = kPi * (3.0f - std::sqrt(5.0f));
    for (int i = 0; i < n; ++i) {
        const float z = 1.0f - (2.0f * float(i) + 1.0f) / float(n);
        const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
        const glm::vec3 nrm(r * std::cos(golden * float(i)), r * std::sin(golden * float(i)), z);
        normals->push_back(nrm);
        points->push_back(center + radius * nrm);
    }
}

TEST(BodySheet, ImageSourcesKeepAVortexRingOutOfTheBall) {
    // A vortex ring heading for a fixed ball. The fluid's velocity through the
    // ball's surface, relative to the speed there, with the image sources
    // against the vortons alone (what the skin model's stationary ball gets).
    // The sources are fitted at 4π(R/h)² points and resolve the vortons' field
    // on the surface down to about a spacing, so a few % is left; 5 % bound.
    SceneSetup s;
    s.params.vortonCount = 3000;
    s.params.tracerCount = 0;
    s.params.gravity = glm::vec3(0.0f);
    DensityGroup ring;
    ring.name = "ring";
    ring.shape = DensityGroup::Shape::Torus;
    ring.radius = 0.25f;
    ring.minorRadius = 0.08f;
    ring.circulation = 1.0f;
    s.groups.push_back(ring);
    BodySpec b;
    b.name = "ball";
    b.position = glm::vec3(0.0f, 0.0f, 0.3f);
    b.radius = 0.15f;
    b.fixed = true;
    s.bodies.push_back(b);
    std::vector<glm::vec3> points, normals;
    SurfacePoints(b.position, b.radius * 1.001f, 400, &points, &normals);
    double ratio[2] = {0.0, 0.0};
    for (const bool sheet : {false, true}) {
        s.params.bodySheet = sheet;
        Simulation sim(s);
        std::vector<glm::vec3> u(points.size());
        sim.DirectVelocityAt(points, u);
        double normal2 = 0.0, speed2 = 0.0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            normal2 += std::pow(double(glm::dot(u[i], normals[i])), 2.0);
            speed2 += double(glm::dot(u[i], u[i]));
        }
        ratio[sheet] = std::sqrt(normal2 / speed2);
    }
    test::Measured("normal_over_speed_vortons_alone", ratio[0]);
    test::Measured("normal_over_speed_with_images", ratio[1]);
    EXPECT_GT(ratio[0], 0.2);  // the ring does push fluid through the ball without images
    EXPECT_LT(ratio[1], 0.05);
}

TEST(BodySheet, SurfacePointsHaveTheMirrorSymmetriesOfTheBall) {
    // A ball spinning about z in still fluid has a flow with a half turn
    // about z and the mirror z → −z as symmetries, so no side force and no
    // net flow along the axis; a ball moving along an axis, or a fixed one in
    // a stream along it, has the two mirrors across that axis. The sample
    // points and the image sources must have them too:
    // - a Fibonacci sphere, which has none, gave a steady side force of
    //   1.5e-3 ρΩ²R⁴ on spinning_ball and seeded a growing mode;
    // - a set with only the half turn about z and z → −z gave a fixed ball in
    //   a stream along x a steady side force along y (C_y −0.03 to −0.09).
    // The sets SurfacePointsFor asks for (multiples of 48) also have the
    // swaps of the axes, so that across a stream along x, y and z are alike:
    // with the three mirrors only, the wake a fixed ball took at Re 480
    // followed the axis the lattice had its pole on.
    for (const std::size_t m : {std::size_t(48), SurfacePointsFor(0.2f, 0.0557f), SurfacePointsFor(0.12f, 0.024f),
                                std::size_t(400)}) {
        ASSERT_EQ(m % 8, 0u);
        const bool cube = m % 48 == 0;
        const SurfaceStencil st = MakeSurfaceStencil(m);
        ASSERT_EQ(st.Points(), m);
        auto closed = [](const std::vector<glm::vec3>& set, bool swaps) {
            int missing = 0;
            for (const glm::vec3& p : set) {
                std::vector<glm::vec3> images = {glm::vec3(-p.x, p.y, p.z), glm::vec3(p.x, -p.y, p.z),
                                                 glm::vec3(p.x, p.y, -p.z)};
                if (swaps) {
                    images.push_back(glm::vec3(p.y, p.x, p.z));
                    images.push_back(glm::vec3(p.x, p.z, p.y));
                }
                for (const glm::vec3 image : images) {
                    const bool found = std::any_of(set.begin(), set.end(), [&](const glm::vec3& q) {
                        return glm::length(q - image) < 1.0e-6f;
                    });
                    missing += found ? 0 : 1;
                }
            }
            return missing;
        };
        EXPECT_EQ(closed(st.normal, cube), 0) << m << " surface points";
        const bool cubeSources = st.source.size() % 48 == 0;
        if (cube && m >= 96) {
            EXPECT_TRUE(cubeSources) << st.source.size() << " sources for " << m << " points";
        }
        EXPECT_EQ(closed(st.source, cubeSources), 0) << st.source.size() << " sources";
        EXPECT_EQ(st.source.size() % 8, 0u);
        float closest = 2.0f;
        for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = i + 1; j < m; ++j) closest = std::min(closest, glm::length(st.normal[i] - st.normal[j]));
        }
        // No near-duplicates: the closest pair keeps a tenth of the mean
        // spacing √(4π/m) (measured: 0.11 of it for the three mirrors' set of
        // 400 points; the stencil of stops 44–54 had 0.06). The 48-fold sets
        // are relaxed by repulsion: 0.77, 0.80 and 0.78 of it for 48, 144 and
        // 336 points, so 0.7 there.
        const float spacing = std::sqrt(4.0f * kPi / float(m));
        EXPECT_GT(closest, (cube ? 0.7f : 0.1f) * spacing) << m << " surface points";
        test::Measured("closest_over_spacing_" + std::to_string(m), closest / spacing);
    }
}

/// Surface patterns of the unit sphere's points from the harmonics of degree
/// l = 1..3 (harmonic polynomials, given by their gradients): the poloidal
/// pattern ∇_sY and the toroidal pattern n × ∇_sY (a swirl about the normal).
struct SlipPattern {
    std::string name;
    int l;
    bool toroidal;
    std::vector<glm::dvec3> slip;
};

std::vector<SlipPattern> SlipPatterns(const SurfaceStencil& st) {
    using Gradient = glm::dvec3 (*)(glm::dvec3);
    const std::vector<std::tuple<std::string, int, Gradient>> harmonics = {
        {"x", 1, [](glm::dvec3) { return glm::dvec3(1, 0, 0); }},
        {"z", 1, [](glm::dvec3) { return glm::dvec3(0, 0, 1); }},
        {"xy", 2, [](glm::dvec3 p) { return glm::dvec3(p.y, p.x, 0); }},
        {"xz", 2, [](glm::dvec3 p) { return glm::dvec3(p.z, 0, p.x); }},
        {"3z2-r2", 2, [](glm::dvec3 p) { return glm::dvec3(-2 * p.x, -2 * p.y, 4 * p.z); }},
        {"x(x2-3y2)", 3, [](glm::dvec3 p) { return glm::dvec3(3 * p.x * p.x - 3 * p.y * p.y, -6 * p.x * p.y, 0); }},
        {"xyz", 3, [](glm::dvec3 p) { return glm::dvec3(p.y * p.z, p.x * p.z, p.x * p.y); }},
        {"z(2z2-3x2-3y2)", 3,
         [](glm::dvec3 p) {
             return glm::dvec3(-6 * p.x * p.z, -6 * p.y * p.z, 6 * p.z * p.z - 3 * p.x * p.x - 3 * p.y * p.y);
         }},
    };
    std::vector<SlipPattern> out;
    for (const auto& [name, l, gradient] : harmonics) {
        for (const bool toroidal : {false, true}) {
            SlipPattern pattern{name, l, toroidal, {}};
            for (const glm::vec3& nf : st.normal) {
                const glm::dvec3 n(nf);
                glm::dvec3 g = gradient(n);
                g -= n * glm::dot(n, g);
                pattern.slip.push_back(toroidal ? glm::cross(n, g) : g);
            }
            out.push_back(std::move(pattern));
        }
    }
    return out;
}

double Dot(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += glm::dot(a[i], b[i]);
    return sum;
}

TEST(BodySheet, OneReleaseCancelsPartOfEveryPoloidalSlipAndLeavesTheRigidRotation) {
    // A fixed ball; the vortons it releases stay where they are. One step
    // maps a slip s at the surface points to s + u: u is the velocity there
    // of the sheet SheetForSlip makes for s, with Kelvin's correction (its net
    // taken out as a rigid-rotation sheet, body_coupling.cpp), released h/2
    // off the wall with cores of 1.5 h (the Rosenhead–Moore kernel), plus the
    // image sources that cancel its normal part. The gain <s, s + u>/<s, s>
    // is 0 for a perfect release; above 1 the pattern grows by a fixed factor
    // per step, faster per second at a smaller dt.
    // - Poloidal slip (∇_sY): the sheet cancels part of it each step (gain
    //   below 0.97; measured 0.58–0.96, the finest patterns least, after the
    //   smoothing), and never overshoots into a flip (gain above 0).
    // - The rigid rotation (toroidal l = 1) is taken out of the sheet: its
    //   gain is 1 (released, it was +1.042: it pumped circulation).
    // - Toroidal l ≥ 2: n × slip is a surface gradient whose vortex lines end
    //   on the shell; l = 2 comes back 1.003–1.008 of itself, l = 3
    //   0.995–1.001 (measured, reported below). Removing it from the sheet
    //   made spinning_ball blow up sooner (issue 10, stop 42), so it stays;
    //   the bound 1.01 only keeps it from getting worse.
    for (const double radiusOverSpacing : {2.5, 3.6, 5.0}) {
        const double radius = 0.2, h = radius / radiusOverSpacing;
        SurfaceStencil st = MakeSurfaceStencil(SurfacePointsFor(float(radius), float(h)));
        const std::size_t m = st.Points();
        const double area = 4.0 * std::numbers::pi * radius * radius / double(m);
        const double volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
        const float release = float(radius + 0.5 * h), sigma = float(1.5 * h);
        for (const SlipPattern& pattern : SlipPatterns(st)) {
            std::vector<glm::dvec3> alpha = pattern.slip;
            SheetForSlip(st, radius, h, alpha);
            glm::dvec3 net(0.0);
            for (const glm::dvec3& a : alpha) net += a;
            const glm::dvec3 c = -net / (2.0 * volume);
            for (std::size_t j = 0; j < m; ++j) {
                const glm::dvec3 n(st.normal[j]);
                alpha[j] += area * glm::cross(n, glm::cross(c, radius * n));
            }
            std::vector<glm::vec3> u(m);
            for (std::size_t j = 0; j < m; ++j) {
                glm::vec3 v(0.0f), unused(0.0f);
                for (std::size_t k = 0; k < m; ++k) {
                    AccumulateVorton<false>(float(radius) * st.normal[j] - release * st.normal[k],
                                            glm::vec3(alpha[k]), sigma * sigma, glm::vec3(0.0f), &v, &unused);
                }
                u[j] = kOneOverFourPi * v;
            }
            BodyImage image;
            image.radius = float(radius);
            FitImageSources(st, u, image);
            std::vector<glm::dvec3> next(m);
            for (std::size_t j = 0; j < m; ++j) {
                glm::vec3 v = u[j], unused(0.0f);
                image.Add<false>(float(radius) * st.normal[j], glm::vec3(0.0f), &v, &unused);
                next[j] = pattern.slip[j] + glm::dvec3(v);
            }
            const double gain = Dot(pattern.slip, next) / Dot(pattern.slip, pattern.slip);
            const std::string what = std::string(pattern.toroidal ? "toroidal " : "poloidal ") + pattern.name +
                                     " at R/h " + std::to_string(radiusOverSpacing);
            test::Measured(std::string("gain_") + (pattern.toroidal ? "toroidal_" : "poloidal_") + pattern.name +
                               "_at_R_over_h_" + std::to_string(radiusOverSpacing).substr(0, 3),
                           gain);
            if (!pattern.toroidal) {
                EXPECT_LT(gain, 0.97) << what;
                EXPECT_GT(gain, 0.0) << what;
            } else if (pattern.l == 1) {
                EXPECT_NEAR(gain, 1.0, 1.0e-3) << what;
            } else {
                EXPECT_LT(gain, 1.01) << what;
            }
        }
    }
}

TEST(BodySheet, SpinningBallSwirlsTheFluidWithItAndFeelsNoSideForce) {
    // Part 4, figures 2 and 3: the fluid next to a spinning ball turns with
    // it (METHOD.md: the swirl has the spin's sign). Here in clear water,
    // from the no-slip sheet alone (measured 0.17 ΩR at 1.5R after 1 s). The
    // flow's symmetries (previous test) forbid a side force. With a Fibonacci
    // sphere for the points it is 5e-3 ρΩ²R⁴ here after 1 s; with the
    // symmetric set 2.5e-4 (stop 69), from round-off and the vortons'
    // lattice; 2.8e-4 since the slip's sheet goes every second step here
    // (ΩR·dt/h = 0.2, SheetStride; stop 70). The bound is a tenth of the
    // asymmetric set's.
    for (const float spin : {5.0f, -5.0f}) {
        SceneSetup s = ClearWater(1000.0f, glm::vec3(0.0f), glm::vec3(0.0f), 4.0f);
        s.bodies[0].fixed = true;
        s.bodies[0].angularVelocity = {0.0f, 0.0f, spin};
        Simulation sim(s);
        ASSERT_TRUE(test::RunSteps(sim, 100).ok);  // 1 s, 5 rad
        std::vector<glm::vec3> ring, u(32);
        for (int i = 0; i < 32; ++i) {
            const float phi = 2.0f * kPi * float(i) / 32.0f;
            ring.emplace_back(1.5f * float(kRadius) * std::cos(phi), 1.5f * float(kRadius) * std::sin(phi), 0.0f);
        }
        sim.DirectVelocityAt(ring, u);
        double swirl = 0.0;
        for (int i = 0; i < 32; ++i) {
            const glm::vec3 tangent = glm::normalize(glm::cross(glm::vec3(0, 0, 1), ring[i]));
            swirl += glm::dot(u[i], tangent) / 32.0;
        }
        swirl /= double(spin) * kRadius;
        const double scale = kRho * double(spin) * double(spin) * std::pow(kRadius, 4);
        const double side = glm::length(glm::dvec3(sim.Bodies()[0].fluidForce)) / scale;
        test::Measured(spin > 0 ? "swirl_over_surface_speed" : "swirl_over_surface_speed_reversed", swirl);
        test::Measured(spin > 0 ? "force_over_rho_omega2_r4" : "force_over_rho_omega2_r4_reversed", side);
        EXPECT_GT(swirl, 0.05);
        EXPECT_LT(swirl, 1.0) << "no faster than the surface";
        EXPECT_LT(side, 5.0e-4);
    }
}

TEST(BodySheet, FluidJustBehindAMovingBallMovesWithIt) {
    // A ball thrown through still, clear water drags the fluid behind it
    // along (a wake): after 1 s the fluid half a radius behind its rear moves
    // the same way as the ball. The skin model had it flow backwards.
    Simulation sim(ClearWater(2000.0f, glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), 4.0f));
    ASSERT_TRUE(test::RunSteps(sim, 100).ok);
    const BodyState& ball = sim.Bodies()[0];
    const glm::vec3 dir = glm::normalize(ball.velocity);
    std::vector<glm::vec3> behind{ball.position - 1.5f * float(kRadius) * dir};
    std::vector<glm::vec3> u(1);
    sim.DirectVelocityAt(behind, u);
    test::Measured("wake_speed_over_ball_speed", glm::dot(u[0], dir) / glm::length(ball.velocity));
    EXPECT_GT(glm::dot(u[0], dir), 0.1f * glm::length(ball.velocity));
}

TEST(BodySheet, ABallThrownAlongAnAxisFeelsNoSideForce) {
    // A ball thrown along x, y or z through still, clear water (Re ≈ 250 at
    // the start, about 200 after 1 s) has a flow with the two mirrors across
    // its path, and its wake stays axisymmetric below Re ≈ 210 (Johnson &
    // Patel 1999, J. Fluid Mech. 378): it must not turn aside. The lattice
    // is centred on the ball, so a side force comes from the surface stencil
    // (or round-off). Over 1 s, measured: sideways speed at most 2.4e-5 of
    // the speed along the path (x), 1.1e-6 (y), 1.3e-5 (z); the stencil of
    // stops 44–54 (a half turn about z and z → −z only) gave 8.5e-3, 8.9e-3
    // and 1.1e-5.
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 v(0.0f);
        v[axis] = 1.0f;
        Simulation sim(ClearWater(2000.0f, glm::vec3(0.0f), v, 4.0f));
        double worst = 0.0;
        for (int step = 0; step < 100; ++step) {
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            const glm::dvec3 u(sim.Bodies()[0].velocity);
            worst = std::max(worst, std::hypot(u[(axis + 1) % 3], u[(axis + 2) % 3]) / std::abs(u[axis]));
        }
        test::Measured(std::string("sideways_over_speed_thrown_along_") + "xyz"[axis], worst);
        EXPECT_LT(worst, 1.0e-3) << "thrown along " << "xyz"[axis];
    }
}

TEST(BodySheet, AMovingBallStartsWithItsAddedMass) {
    // A ball given a velocity in still water starts with the potential flow
    // around it; that flow's slip is the first sheet released, already the
    // fluid's momentum. So the first step keeps the velocity (no drag has
    // acted yet: float round-off only), and the fluid then holds the added
    // momentum C·ρV·U. Potential flow has C = ½; here the sheet is released
    // d = h/2 off the surface (impulse ×(1 + d/R)) and smoothed over a
    // spacing (the l = 1 pattern of a translating sphere's slip keeps
    // exp(−l(l+1)h²/2R²) of itself), so C = 3/2·(1 + h/2R)·exp(−(h/R)²) − 1
    // = 0.584 at R/h = 5; the surface quadrature adds < 0.01.
    const float v0 = 1.0f;
    Simulation sim(ClearWater(2000.0f, glm::vec3(0.0f), glm::vec3(v0, 0.0f, 0.0f), 5.0f));
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    EXPECT_NEAR(sim.Bodies()[0].velocity.x, v0, 1e-5f);
    const double volume = 4.0 / 3.0 * std::numbers::pi * std::pow(kRadius, 3.0);
    const double added = (kRho * sim.ComputeDiagnostics().impulse.x - kRho * volume * v0) / (kRho * volume * v0);
    test::Measured("added_mass_coefficient", added);
    const double h = kRadius / 5.0;
    EXPECT_NEAR(added, 1.5 * (1.0 + 0.5 * h / kRadius) * std::exp(-(h / kRadius) * (h / kRadius)) - 1.0, 0.02);
}

/// A fixed ball (R = 0.1 m, R/h 5, σ = h) carried in still water at
/// U = U0 sin(2πt/T), U0 0.05 m/s, T 0.4 s, dt 0.01 s: a displacement of
/// U0T/2π = 3 mm, a sixth of a spacing (KC = U0T/2R = 0.1), where Stokes'
/// oscillating sphere holds (Landau & Lifshitz §24): the fluid's force is
/// −(½ + 9δ/4R)ρV dU/dt − 6πμR(1 + R/δ)U, δ = √(2ν/ω).
struct OscillatingBall {
    static constexpr double kBallRadius = 0.1, kU0 = 0.05, kPeriod = 0.4, kDt = 0.01;
    static constexpr double kOmega = 2.0 * std::numbers::pi / kPeriod;
    static constexpr double kVolume = 4.0 / 3.0 * std::numbers::pi * kBallRadius * kBallRadius * kBallRadius;
    static SceneSetup Setup(float slipReadCore) {
        SceneSetup s = FixedBallInStream(kBallRadius, kNu, 5.0f, glm::vec3(0.0f));
        s.params.dt = float(kDt);
        s.params.coreOverlap = 1.0f;
        s.params.solenoidalRemesh = true;
        s.params.slipReadCore = slipReadCore;
        s.bodies[0].oscillationVelocity = glm::vec3(float(kU0), 0.0f, 0.0f);
        s.bodies[0].oscillationPeriod = float(kPeriod);
        return s;
    }
    static double StokesAddedMass() { return 0.5 + 2.25 * std::sqrt(2.0 * kNu / kOmega) / kBallRadius; }
    static double StokesDamping() {
        const double delta = std::sqrt(2.0 * kNu / kOmega);
        return 6.0 * std::numbers::pi * kNu * kBallRadius * (1.0 + kBallRadius / delta) / (kVolume * kOmega);
    }
    /// Runs steps 2 to 6T/dt after the first and fits periods 3–6 by least
    /// squares to F/ρV = −C_a dU/dt − b ω U (U at the step's middle); adds
    /// the prescribed velocity integrated as the bodies are (x += dt·U) to *x.
    static std::pair<double, double> FitAfterTheFirstStep(Simulation& sim, double* x) {
        double saa = 0, sab = 0, sbb = 0, sfa = 0, sfb = 0;
        const int steps = int(std::lround(6.0 * kPeriod / kDt));
        for (int n = 1; n < steps; ++n) {
            EXPECT_TRUE(test::RunSteps(sim, 1).ok) << "step " << n;
            const double t = (n + 0.5) * kDt;
            *x += kDt * kU0 * std::sin(kOmega * (n + 1) * kDt);
            if (t <= 2.0 * kPeriod) continue;
            const double f = double(sim.Bodies()[0].fluidForce.x) / (kRho * kVolume);
            const double a = -kU0 * kOmega * std::cos(kOmega * t), b = -kU0 * kOmega * std::sin(kOmega * t);
            saa += a * a, sab += a * b, sbb += b * b, sfa += f * a, sfb += f * b;
        }
        const double det = saa * sbb - sab * sab;
        return {(sfa * sbb - sfb * sab) / det, (saa * sfb - sab * sfa) / det};
    }
};

TEST(BodySheet, AnOscillatingBallFollowsItsPathAndFeelsTheFluidItAccelerates) {
    using B = OscillatingBall;
    Simulation sim(B::Setup(1.0f));
    // The first step starts it from rest in fluid at rest: all the force is
    // the potential flow's added mass, ½ρV dU/dt (Lamb §92), and as in
    // AMovingBallStartsWithItsAddedMass the sheet released d = h/2 off the
    // surface has (1 + d/R) times the impulse of one on it: C = ½ + 3d/2R.
    // Without the displaced fluid's acceleration ρV dU/dt (a carried ball's
    // velocity used to be set outside the coupling) it would be 1 + C.
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    const double u1 = B::kU0 * std::sin(B::kOmega * B::kDt);
    EXPECT_NEAR(sim.Bodies()[0].velocity.x, u1, 1e-6);
    const double first = -double(sim.Bodies()[0].fluidForce.x) / (kRho * B::kVolume * u1 / B::kDt);
    test::Measured("oscillating_ball_first_step_added_mass", first);
    EXPECT_NEAR(first, 0.5 + 1.5 * 0.5 / 5.0, 0.01);
    double x = 0.0;
    const auto [addedMass, damping] = B::FitAfterTheFirstStep(sim, &x);
    // The path: the prescribed velocity integrated as the bodies are.
    EXPECT_NEAR(sim.Bodies()[0].position.x, x + B::kDt * u1, 1e-6);
    EXPECT_NEAR(sim.Bodies()[0].position.y, 0.0f, 1e-6f);
    test::Measured("oscillating_ball_added_mass", addedMass);
    test::Measured("oscillating_ball_added_mass_stokes", B::StokesAddedMass());
    test::Measured("oscillating_ball_damping", damping);
    test::Measured("oscillating_ball_damping_stokes", B::StokesDamping());
    // Bounds that hold for any resolution: the attached flow of a sphere
    // carries at least the potential flow's added mass (Stokes' layer only
    // adds 9δ/4R), and the fluid takes energy from the ball (b > 0). Measured
    // (stop 79): C_a 0.74, b 0.43 against Stokes' 0.64, 0.15.
    EXPECT_GT(addedMass, 0.5);
    EXPECT_GT(damping, 0.0);
}

TEST(BodySheet, ReadWithThinCoresAnOscillatingBallCarriesStokesAddedMass) {
    // The same ball with its slip read with cores σ/4 (slip_read_core 0.25):
    // the wall layer's vortons count as the thin sheet they were released
    // as, the releases stop at the potential flow's layer plus Stokes', and
    // C_a is Stokes' ½ + 9δ/4R = 0.639 within 10 % (the fit's two choices of
    // where U is taken, the step's end or middle, differ by 4 %; Stokes'
    // answer is exact as KC → 0, here 0.1). Read with the solver's cores it
    // is 0.74 (the test above), 16 % over. Measured: C_a 0.626, b 0.26
    // (Stokes' b 0.15: most of b is the force's lag of about 1.8 steps,
    // docs/BODIES.md, stop 80). The damping is only asked to be positive.
    using B = OscillatingBall;
    Simulation sim(B::Setup(0.25f));
    ASSERT_TRUE(test::RunSteps(sim, 1).ok);
    double x = 0.0;
    const auto [addedMass, damping] = B::FitAfterTheFirstStep(sim, &x);
    test::Measured("thin_read_oscillating_ball_added_mass", addedMass);
    test::Measured("thin_read_oscillating_ball_damping", damping);
    EXPECT_NEAR(addedMass / B::StokesAddedMass(), 1.0, 0.1);
    EXPECT_GT(damping, 0.0);
}

TEST(BodySheet, ReadWithThinCoresBitwiseTheSameForAnyThreadCount) {
    // The thin-core read sums, for each surface point (one per task), the
    // vortons near the body in a fixed order, and diffusion's charge is a
    // serial sum in vorton order: the same bits on any thread count
    // (METHOD.md). A 1,200 kg/m³ ball falling and turning, R/h 4, 40 steps
    // (two remeshes), the slip read at σ/4, diffusion charged.
    SceneSetup s = ClearWater(1200.0f, glm::vec3(0.0f, 0.0f, -9.81f), glm::vec3(0.3f, 0.0f, 0.0f), 4.0f);
    s.bodies[0].angularVelocity = glm::vec3(0.0f, 2.0f, 0.0f);
    s.params.slipReadCore = 0.25f;
    s.params.chargeDiffusion = true;
    auto run = [&](int threads) {
        Simulation sim(s);
        EXPECT_TRUE(test::RunSteps(sim, 40, threads).ok);
        return test::StateAndBodiesHash(sim);
    };
    const std::uint64_t one = run(1);
    EXPECT_EQ(run(2), one);
    EXPECT_EQ(run(3), one);
}

TEST(BodySheet, KelvinHoldsWhereTheCapAndTheWakeLengthCutTheWake) {
    // Kelvin: a flow started from rest keeps Σα = 0 over fluid and body,
    // the fluid's Σα_k = −2VΩ, less what crossed out of the kept fluid: the
    // wake the vorton cap (farthest first) or wake_length cuts off takes its
    // net vorticity with it (Simulation::KelvinStrength), as the far wake of
    // a real flow carries its starting vortex downstream. Each step's sheet
    // keeps the rest: |Σα + 2VΩ − KelvinStrength| under 10⁻⁵ of Σ|α_k| (float
    // round-off of the vortons' Σα, single precision, summed over thousands
    // of vortons). And the cut does carry net vorticity away: here
    // 2.5–3·10⁻³ of Σ|α_k| by 3 s (at least 10⁻³ asked), which the fluid
    // kept before commit 132129b (3.6–3.9·10⁻³ in 1.5 s) and that put back, to stop 57, on
    // the rim of the cut. Checked after the steps with no remesh: a remesh's
    // push out of the wall layer removes the vorticity along n, which the
    // next step's sheet takes up (CoupleBodies).
    for (const bool byCap : {true, false}) {
        SceneSetup s = ClearWater(2000.0f, glm::vec3(0.0f), glm::vec3(1.0f, 0.3f, 0.0f), 4.0f);
        if (byCap) {
            s.params.maxVortons = 4000;
        } else {
            s.params.wakeLength = 0.35f;
        }
        Simulation sim(s);
        const double volume = 4.0 / 3.0 * std::numbers::pi * std::pow(kRadius, 3.0);
        double worst = 0.0;  // of |Σα + 2VΩ − KelvinStrength| / Σ|α_k|
        double letGo = 0.0;  // the largest |KelvinStrength| / Σ|α_k|
        double fluidNet = 0.0;  // the largest |Σα + 2VΩ| / Σ|α_k|
        for (int step = 1; step <= 150; ++step) {
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            if (sim.StepCount() % sim.Params().remeshEvery == 0) continue;
            const Simulation::VortonMoments m = sim.SumVortonMoments();
            const glm::dvec3 body = 2.0 * volume * glm::dvec3(sim.Bodies()[0].angularVelocity);
            worst = std::max(worst, glm::length(m.circulation + body - sim.KelvinStrength()) / m.strength);
            letGo = std::max(letGo, glm::length(sim.KelvinStrength()) / m.strength);
            fluidNet = std::max(fluidNet, glm::length(m.circulation + body) / m.strength);
        }
        const std::string tag = byCap ? "_cap" : "_wake_length";
        test::Measured("kelvin_error_over_total_strength" + tag, worst);
        test::Measured("let_go_over_total_strength" + tag, letGo);
        test::Measured("fluid_net_over_total_strength" + tag, fluidNet);
        EXPECT_LT(worst, 1.0e-5) << tag;
        EXPECT_GT(letGo, 1.0e-3) << tag;
        if (byCap) {
            EXPECT_GT(sim.RemeshCappedCount(), 5) << "the cap must bind";
        } else {
            EXPECT_LT(sim.GetVortons().Size(), sim.MaxVortons()) << "the wake length must cut, not the cap";
        }
    }
}

TEST(BodySheet, AStreamAcrossTheSmokeSheetLetsTheWakeReachWakeLength) {
    // flow_past_ball's smoke is an emitter box 24 mm thick, and an emitter's far face is
    // the stream's outlet. With the stream turned from x to z on the panel, that outlet
    // lay 12 mm above the sheet, and every vorton past it left: the ball's wake above
    // the sheet was gone (stop 106: 1,265 vortons against 16,859). The outlet now lies
    // at least wake_length past each body, where the far wake's cut would take a
    // vorton too. The two flows are then one flow turned by a right angle on a cubic
    // lattice (the ball is held and the smoke is neutral: gravity plays no part), so the
    // wake must hold as many vortons and reach as far along the stream, to within the
    // round-off that the order of the sums turns with the axes (asserted: 5 %).
    // Measured at step 100: 16,858 and 16,864 vortons (both at the automatic cap), the
    // farthest 1.104 m downstream in both; with the outlet at the sheet, 1,356 and 0.076 m.
    struct Wake {
        std::size_t vortons = 0;
        double reach = 0.0;  // the farthest vorton along the stream from the ball, m
    };
    const auto run = [](glm::vec3 stream) {
        SceneSetup setup = test::LoadSetup("flow_past_ball");
        setup.params.tracerCount = 0;
        setup.params.freeStream = stream;
        Simulation sim(setup);
        EXPECT_TRUE(test::RunSteps(sim, 100).ok);
        Wake w;
        w.vortons = sim.GetVortons().Size();
        const glm::vec3 dir = stream / glm::length(stream), ball = sim.Bodies()[0].position;
        for (const glm::vec3& x : sim.GetVortons().position) w.reach = std::max(w.reach, double(glm::dot(x - ball, dir)));
        return w;
    };
    const Wake along = run({0.6f, 0.0f, 0.0f}), across = run({0.0f, 0.0f, 0.6f});
    test::Measured("wake_vortons_stream_along_the_sheet", double(along.vortons));
    test::Measured("wake_vortons_stream_across_the_sheet", double(across.vortons));
    test::Measured("wake_reach_m_stream_along_the_sheet", along.reach);
    test::Measured("wake_reach_m_stream_across_the_sheet", across.reach);
    EXPECT_NEAR(double(across.vortons), double(along.vortons), 0.05 * double(along.vortons));
    EXPECT_NEAR(across.reach, along.reach, 0.05 * along.reach);
    EXPECT_GT(across.reach, 0.5) << "2 s of a 0.6 m/s stream";
}

TEST(BodySheet, ACoarsenedLatticeSaysWhichCapCoarsenedItAndHowToLiftIt) {
    // A scene asking for a ball of R/h 8 whose caps cannot hold that lattice gets a
    // coarser one (to R/h 4, where a body making its own vorticity stops it:
    // Simulation::RemeshVortons), and LatticeNotice says so with the cap that
    // bound and the parameter that lifts it; with room, the lattice and the
    // notice stay as seeded. Ten steps: the first remesh.
    const glm::vec3 stream(0.6f, 0.0f, 0.0f);
    struct Case {
        const char* tag;
        int gridCells, maxVortons;
        const char* names;  // what the notice must name; nullptr: no notice
    };
    for (const Case c : {Case{"room", 262144, 400000, nullptr},
                         Case{"grid_cap", 512, 400000, "velocity_grid_cells (512 points)"},
                         Case{"vorton_cap", 262144, 300, "max_vortons (300)"}}) {
        SceneSetup s = FixedBallInStream(0.12, 1.44e-4, 8.0f, stream);
        s.params.velocityGridCells = c.gridCells;
        s.params.maxVortons = c.maxVortons;
        Simulation sim(s);
        const float seeded = sim.Spacing();
        ASSERT_TRUE(test::RunSteps(sim, 10).ok) << c.tag;
        const std::string notice = sim.LatticeNotice();
        if (c.names == nullptr) {
            EXPECT_EQ(sim.Spacing(), seeded) << c.tag;
            EXPECT_EQ(notice, "") << c.tag;
            continue;
        }
        EXPECT_NEAR(sim.Spacing(), 2.0f * seeded, 1e-5f) << c.tag << ": coarsened to the ball's floor, R/h 4";
        EXPECT_NE(notice.find(c.names), std::string::npos) << c.tag << ": " << notice;
        EXPECT_NE(notice.find("(ball: R/h 8.0 to 4.0)"), std::string::npos) << c.tag << ": " << notice;
    }
}

TEST(BodySheet, TheAutomaticVortonCapKeepsTheWakesVolumeOnFinerLattices) {
    // max_vortons 0 leaves each body room for its wake: at R/h 5 (the scenes'),
    // 50 sheets of its surface points, 16,800 vortons of h³ for R 0.12 m, about
    // 32 ball volumes. A wake's vortons in a given volume grow as (R/h)³ and a
    // sheet's points as (R/h)², so on finer lattices the room grows by (R/h)/5
    // more and holds the same volume: within 7 % (the sheet's points come in
    // 48s: 336 at R/h 5). The room in sheets alone shrank as h and coarsened a
    // flow_past_ball asked for R/h 8 back to R/h 5 within 5 s (stop 78).
    auto wakeVolume = [](float resolution) {
        SceneSetup s = FixedBallInStream(0.12, 3e-4, resolution, glm::vec3(0.6f, 0.0f, 0.0f));
        s.params.maxVortons = 0;
        const Simulation sim(s);
        const double h = double(sim.Spacing());
        return double(sim.MaxVortons() - 64) * h * h * h;  // less the floor of 64 (no seeded vortons)
    };
    const double ball = 4.0 / 3.0 * std::numbers::pi * std::pow(0.12, 3.0);
    const double base = wakeVolume(5.0f);
    test::Measured("wake_room_ball_volumes_r5", base / ball);
    EXPECT_NEAR(base / ball, 50.0 * 336.0 * std::pow(0.024, 3.0) / ball, 1e-3);
    for (const float resolution : {8.0f, 12.0f}) {
        const double room = wakeVolume(resolution);
        test::Measured("wake_room_ball_volumes_r" + std::to_string(int(resolution)), room / ball);
        EXPECT_NEAR(room / base, 1.0, 0.07) << "R/h " << resolution;
    }
}

TEST(BodySheet, DiffusionReceiversMakeAnImpulsivelyStartedStokesFlowScaleWithTheSpeed) {
    // A fixed ball (R = 0.12 m, R/h = 4) in a stream started from rest at
    // 0.01 and 0.003 m/s, ν = 1.44e-3 m²/s (Re = 2RU/ν = 1.7 and 0.5), for
    // 2 s. That is unsteady Stokes flow (t << ν/U² = 14 s): linear, so the
    // fluid's impulse and the force on the ball, over the speed, are the same
    // at both speeds (Landau & Lifshitz §24 give F = 6πμRU(1 + R/√(πνt))).
    // Advection and stretching move the impulse by under 0.1 % of the force
    // here (`scripts/drag-convergence --stokes-start`); the cull at each remesh
    // is a fraction of Σ|α|, which scales too. So 1 % is the tolerance: only
    // the vortons' drift off the lattice (U·t) differs. With the receivers,
    // measured: 0.9997 (impulse) and 0.9991 (force). Without them PSE cannot
    // pass vorticity past the cloud's edge, which grows only by that drift,
    // and the slower flow diffuses less: 0.953 and 0.936 here (printed, not
    // asserted; at R/h 6 the field's force is 1.008 and 0.787 of F at the two
    // speeds, stop 68).
    constexpr double radius = 0.12, viscosity = 1.44e-3;
    auto run = [&](double speed, bool receivers, double* impulse, double* force) {
        SceneSetup s = FixedBallInStream(radius, viscosity, 4.0f, glm::vec3(float(speed), 0.0f, 0.0f));
        s.params.solenoidalRemesh = true;
        s.params.tracerCount = 0;
        s.params.diffusionReceivers = receivers;
        Simulation sim(s);
        *force = 0.0;
        for (int step = 0; step < 100; ++step) {
            ASSERT_TRUE(test::RunSteps(sim, 1).ok);
            if (step >= 70) *force += double(sim.Bodies()[0].fluidForce.x) / 30.0 / speed;
        }
        *impulse = sim.ComputeDiagnostics().impulse.x / speed;
    };
    double fastI = 0.0, fastF = 0.0, slowI = 0.0, slowF = 0.0;
    run(0.01, true, &fastI, &fastF);
    run(0.003, true, &slowI, &slowF);
    double offFastI = 0.0, offFastF = 0.0, offSlowI = 0.0, offSlowF = 0.0;
    run(0.01, false, &offFastI, &offFastF);
    run(0.003, false, &offSlowI, &offSlowF);
    test::Measured("impulse_over_speed_slow_over_fast", slowI / fastI);
    test::Measured("force_over_speed_slow_over_fast", slowF / fastF);
    test::Measured("impulse_over_speed_slow_over_fast_without_receivers", offSlowI / offFastI);
    test::Measured("force_over_speed_slow_over_fast_without_receivers", offSlowF / offFastF);
    EXPECT_NEAR(slowI / fastI, 1.0, 0.01);
    EXPECT_NEAR(slowF / fastF, 1.0, 0.01);
}

TEST(BodySheet, TheSlipsSheetIsReleasedOnceTheFlowHasCarriedTheLastAQuarterSpacing) {
    // Every step while speed·dt ≥ h/4: the scenes' balls at their dt 0.02 s
    // (0.6–2 m/s, h 0.02–0.04 m). Slower, or at a smaller dt, the fewest
    // steps that carry a sheet h/4; at rest (or nearly) every 0.2 s.
    EXPECT_EQ(SheetStride(0.02f, 0.6f, 0.024f), 1);
    EXPECT_EQ(SheetStride(0.02f, 0.3f, 0.024f), 1);
    EXPECT_EQ(SheetStride(0.01f, 0.6f, 0.02f), 1);
    EXPECT_EQ(SheetStride(0.0075f, 0.6f, 0.02f), 2);
    EXPECT_EQ(SheetStride(0.005f, 0.6f, 0.02f), 2);
    EXPECT_EQ(SheetStride(0.01f, 0.3f, 0.02f), 2);
    EXPECT_EQ(SheetStride(0.0025f, 0.6f, 0.02f), 4);
    EXPECT_EQ(SheetStride(0.02f, 0.1f, 0.024f), 3);
    EXPECT_EQ(SheetStride(0.02f, 0.03f, 0.024f), 10);
    EXPECT_EQ(SheetStride(0.02f, 0.0f, 0.024f), 10);
    EXPECT_EQ(SheetStride(0.005f, 0.0f, 0.02f), 40);
}

TEST(BodySheetSettling, AFixedBallsWallLayerHoldsInASlowStream) {
    // A fixed ball (R = 0.12 m, R/h = 6) in a 0.3 m/s stream at Re 300, no
    // subgrid model, remeshing every 10 steps, at dt 0.01 s: U·dt/h = 0.15.
    // In units of h/U this is the flow at 0.6 m/s and dt 0.005 s, which grew
    // its wall layer at the rear from 2.7 s with the sheet released every
    // step (the largest |ω| 80 1/s at 1–2.5 s, 113 at 3 s, 284 at 3.5 s;
    // stops 64–65); this one, released every step, from 5.6 s (40 1/s to
    // 5 s, 56 at 6 s, 104 at 6.5 s, 142 at 7 s; stop 69). Released every
    // SheetStride = 2 steps it holds at 37 1/s for 10 s (stop 70). Checked:
    // the largest |ω| over 6–7 s is within 20 % of that over 1–2 s. The
    // growth it guards against is ×1.4 by 6 s and ×3.5 by 7 s; the steady
    // wake moves the peak by 1–2 %.
    SceneSetup s = FixedBallInStream(0.12, 0.3 * 0.24 / 300.0, 6.0f, glm::vec3(0.3f, 0.0f, 0.0f));
    s.params.dt = 0.01f;
    s.params.solenoidalRemesh = true;
    s.params.tracerCount = 0;
    Simulation sim(s);
    double early = 0.0, late = 0.0;
    for (int step = 1; step <= 700; ++step) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok) << "at step " << step;
        if (step % 10 != 0) continue;
        const double peak = sim.ComputeDiagnostics().maxVorticity;
        if (step > 100 && step <= 200) early = std::max(early, peak);
        if (step > 600) late = std::max(late, peak);
    }
    test::Measured("max_vorticity_1_to_2s", early);
    test::Measured("max_vorticity_6_to_7s", late);
    EXPECT_GT(early, 0.0);
    EXPECT_LT(late, 1.2 * early);
}

TEST(BodySheetSettling, FixedBallAtRe100SeparatesAndRecirculatesAsMeasured) {
    // A fixed ball (R = 0.12 m) in a stream of 0.6 m/s at Re = U·2R/ν = 100,
    // R/h = 6, dt = 0.02 s, after 10 s. The steady flow past a sphere at Re
    // 100 separates 127° from the front stagnation point and recirculates
    // 0.88 D behind the ball on the axis (Johnson & Patel 1999, J. Fluid
    // Mech. 378; Taneda 1956); its drag is the curve's (1.09). Checked: the
    // separation line, where the wall layer's azimuthal vorticity turns sign
    // (by 10° bins, taken at the bin's middle), within 15° of 127° (one
    // surface spacing is 9.5° at R/h 6); the reversed flow on the axis
    // within 30 % of 0.88 D and the drag within 30 % of the curve, the
    // tolerance of issue 12's drag checks. Measured: 135°, 0.79 D, Cd 0.898.
    // While the sheet's vortons each held a cell of fluid (stops 44–56) the
    // flow stayed attached to the rear at every R/h up to 12 and dt down to
    // 0.005 s (no reversed flow), and Cd grew as dt shrank (0.98, 1.41,
    // 2.32 at R/h 8 and dt 0.02, 0.01, 0.005).
    constexpr double radius = 0.12, speed = 0.6, reynolds = 100.0;
    SceneSetup s = FixedBallInStream(radius, speed * 2.0 * radius / reynolds, 6.0f,
                                     glm::vec3(float(speed), 0.0f, 0.0f));
    s.params.solenoidalRemesh = true;
    s.params.velocityGridCells = 16000000;
    Simulation sim(s);
    double drag = 0.0;
    for (int step = 0; step < 500; ++step) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        if (step >= 250) drag += double(sim.Bodies()[0].fluidForce.x) / 250.0;
    }
    // The wall layer's azimuthal strength about the stream's axis, by 10° from the front.
    const double h = double(sim.Spacing());
    const Vortons& v = sim.GetVortons();
    std::vector<double> bins(18, 0.0);
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::dvec3 x(v.position[k]);
        const double rho = std::hypot(x.y, x.z), r = glm::length(x);
        if (rho < 1e-9 || r > radius + 1.5 * h) continue;
        const double theta = std::acos(std::clamp(-x.x / r, -1.0, 1.0)) * 180.0 / std::numbers::pi;
        const glm::dvec3 w(v.vorticity[k]);
        bins[std::min<std::size_t>(17, std::size_t(theta / 10.0))] += (w.z * x.y - w.y * x.z) / rho * double(v.volume[k]);
    }
    double separation = 180.0;
    for (std::size_t k = 1; k < bins.size(); ++k) {
        double rest = 0.0;
        for (std::size_t j = k; j < bins.size(); ++j) rest += bins[j];
        if (bins[k] * bins[0] < 0.0 && rest * bins[0] < 0.0) {
            separation = 10.0 * double(k) + 5.0;
            break;
        }
    }
    // The reversed flow on the axis behind the ball, by direct summation, 5 mm apart.
    std::vector<glm::vec3> axis, u;
    for (int i = 1; i <= 100; ++i) axis.emplace_back(float(radius + 0.005 * i), 0.0f, 0.0f);
    u.resize(axis.size());
    sim.DirectVelocityAt(axis, u);
    double reversed = 0.0;
    for (std::size_t i = 0; i < axis.size() && double(u[i].x) + speed < 0.0; ++i) reversed = double(axis[i].x) - radius;
    const double cd = drag / (0.5 * kRho * speed * speed * std::numbers::pi * radius * radius);
    test::Measured("separation_angle_deg_at_Re_100", separation);
    test::Measured("recirculation_over_diameter_at_Re_100", reversed / (2.0 * radius));
    test::Measured("drag_coefficient_at_Re_100", cd);
    EXPECT_NEAR(separation, 127.0, 15.0);
    EXPECT_NEAR(reversed / (2.0 * radius) / 0.88, 1.0, 0.3);
    EXPECT_NEAR(cd / StandardDragCoefficient(reynolds), 1.0, 0.3);
}

TEST(BodySheetSettling, FlowPastBallSceneShedsAtASpheresStrouhalNumber) {
    // The flow_past_ball scene: a ball (R = 0.12 m) held in a 0.6 m/s stream
    // of clear water, Re = U·2R/ν = 480, R/h = 5, dt = 0.02 s. A sphere sheds
    // there, its side force oscillating at St = f·2R/U ≈ 0.13–0.2 (Sakamoto &
    // Haniu 1990, J. Fluids Eng. 112; issue 12's band 0.1–0.25). Checked over
    // 30–60 s (the wake settles in 20–30 s; bins St 0.013 apart): the side
    // force's strongest peak lies in St 0.1–0.25 and holds at least half the
    // power there, and the drag is within 30 % of the curve (issue 12's drag
    // tolerance). Measured: St 0.160, 86 % in the band (0.173, 83 % on stop 109's machine;
    // the spectrum is now MeasureSideForceSpectrum, the dock's), Cd 0.68 (the curve
    // 0.584, Schiller–Naumann's 0.571). With the three mirrors' surface points (stops 55–58) this scene's
    // wake swung slowly at St 0.06 (44 % at the peak) instead: which of the two
    // a run took followed the lattice's pole and the ball's place. The peak
    // also follows the cores' overlap σ/h (2 h: St 0.23; h or 1.25 h: no
    // shedding), but at 1.5 h it holds from R/h 5 to 8 (St 0.173, 79 %, the
    // same Cd; docs/BODIES.md, stop 75).
    SceneSetup setup = test::LoadSetup("flow_past_ball");
    setup.params.tracerCount = 0;  // tracers never act on the flow (bodies.csv is bitwise the same)
    ASSERT_EQ(setup.params.dt, 0.02f);
    ASSERT_TRUE(setup.bodies.size() == 1 && setup.bodies[0].fixed);
    const double radius = setup.bodies[0].radius, speed = glm::length(glm::dvec3(setup.params.freeStream));
    const double q = 0.5 * double(setup.params.ambientDensity) * speed * speed * std::numbers::pi * radius * radius;
    Simulation sim(setup);
    std::vector<glm::dvec2> side;
    double drag = 0.0;
    for (int step = 0; step < 3000; ++step) {
        ASSERT_TRUE(test::RunSteps(sim, 1).ok);
        if (step < 1500) continue;
        const glm::dvec3 f(sim.Bodies()[0].fluidForce);
        side.emplace_back(f.y / q, f.z / q);
        drag += f.x / q / 1500.0;
    }
    const SideForceSpectrum spectrum = MeasureSideForceSpectrum(side, 0.02, 2.0 * radius, speed);
    const double strouhal = spectrum.peakStrouhal, inBand = spectrum.bandShare;
    const double reynolds = speed * 2.0 * radius / double(setup.params.viscosity);
    test::Measured("strouhal_flow_past_ball_30_to_60_s", strouhal);
    test::Measured("side_force_power_in_St_0.1_to_0.25", inBand);
    test::Measured("drag_coefficient_flow_past_ball", drag);
    EXPECT_GE(strouhal, 0.1);
    EXPECT_LE(strouhal, 0.25);
    EXPECT_GT(inBand, 0.5);
    EXPECT_NEAR(drag / StandardDragCoefficient(reynolds), 1.0, 0.3);
}

/// The thrown ball of the momentum and deceleration checks: 2,000 kg/m³,
/// thrown at 1 m/s along x in clear water without gravity, R/h 5, with the
/// projection the scenes use and the given slip read and diffusion charge.
constexpr float kThrownBallDensity = 2000.0f;
SceneSetup ThrownBall(float slipReadCore, bool chargeDiffusion) {
    SceneSetup setup = ClearWater(kThrownBallDensity, glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), 5.0f);
    setup.params.solenoidalRemesh = true;
    setup.params.slipReadCore = slipReadCore;
    setup.params.chargeDiffusion = chargeDiffusion;
    return setup;
}

/// A 2,000 kg/m³ ball thrown at 1 m/s in clear water without gravity, R/h 5,
/// with the projection the scenes use: the change from 0.5 s to 2 s of the
/// momentum of ball and fluid, m_b U + ρ(½Σx×α − V U) (Wu 1981; the impulse
/// less the fluid the ball displaces), over m_b U0.
double ThrownBallMomentumChange(float slipReadCore, bool chargeDiffusion) {
    const float rhoBody = kThrownBallDensity;
    Simulation sim(ThrownBall(slipReadCore, chargeDiffusion));
    const double volume = 4.0 / 3.0 * std::numbers::pi * std::pow(kRadius, 3.0);
    const double mass = double(rhoBody) * volume;
    auto momentum = [&] {
        const double u = double(sim.Bodies()[0].velocity.x);
        return mass * u + kRho * (sim.ComputeDiagnostics().impulse.x - volume * u);
    };
    EXPECT_TRUE(test::RunSteps(sim, 50).ok);
    const double started = momentum();
    EXPECT_TRUE(test::RunSteps(sim, 150).ok);
    return (momentum() - started) / mass;
}

TEST(BodySheet, AThrownBallAndItsFluidKeepTheirMomentumOnceStarted) {
    // Gravity off, nothing else acts: the momentum of ball and fluid,
    // m_b U + ρ(½Σx×α − V U) (Wu 1981; the impulse less the fluid the ball
    // displaces), is conserved (issue 12, item 2). A 2,000 kg/m³ ball thrown
    // at 1 m/s in clear water, R/h = 5: from 0.5 s to 2 s (the ball from 0.47
    // to 0.3 m/s) it changes by under 1 % of m_b U0, with the projection the
    // scenes use with body_sheet. Measured: −0.61 % with ClearWater's
    // σ = h and damped subgrid model (stop 74); −3.7 % with σ = 1.5 h and the
    // model damped, −3.5 % with no model, where the wall's advection and
    // stretching lose the fluid's impulse (stop 73); −0.32 % with σ = 1.5 h
    // and the undamped model, whose viscosity at the wall made PSE's
    // uncharged change offset that loss; −0.89 % while the slip's
    // sheet went every step (below 0.5 m/s it now goes every 2–3 steps,
    // SheetStride; stop 70), and −0.24 % before stop 61
    // placed the ball at t + dt for the predicted vortons and the no-slip
    // push). While the sheet's vortons each held a cell of fluid, PSE's
    // exchange at the wall took 13 % of it in that window. Left out: the
    // first 0.5 s, in which it grows while the ball slows from 1 to 0.47 m/s,
    // mostly in jumps at the remeshes but not only: from the first step (the
    // potential flow's bound sheet released) to 0.5 s by 5.5 % of m_b U0
    // (6.2 % before stop 61), and to 2 s by 4.6 % (6.0 %). Most of it is the
    // corrector's PSE at the wall (3.9 % in the first 25 steps, stop 63's
    // impulse budget, docs/BODIES.md), which gives the fluid impulse the coupling does
    // not charge to the ball.
    const double change = ThrownBallMomentumChange(1.0f, false);
    test::Measured("momentum_change_0.5_to_2_s_over_initial", change);
    EXPECT_NEAR(change, 0.0, 0.01);
}

TEST(BodySheet, ReadWithThinCoresAndChargedDiffusionAThrownBallAndItsFluidKeepTheirMomentum) {
    // The same ball with its slip read at σ/4 (slip_read_core 0.25) and the
    // ball charged with diffusion's change of the fluid's impulse
    // (charge_diffusion). The thin read leaves the wall's advection and
    // stretching nearly impulse-free, as in the continuum (over 0.5–2 s in
    // falling_ball's setup: −0.4 % of m_b U0 against −6.4 % read with the
    // solver's cores), so PSE's gain (+4.5 %) is what is left, and charged
    // to the ball it balances. Within 1 %, as above. Measured: +0.08 %;
    // thin read alone +3.4 %, charge alone −4.1 % (stop 81).
    const double change = ThrownBallMomentumChange(0.25f, true);
    test::Measured("thin_read_charged_momentum_change_0.5_to_2_s_over_initial", change);
    EXPECT_NEAR(change, 0.0, 0.01);
}

TEST(BodySheetSettling, ABallMovingThroughStillWaterFeelsTheDragOfTheBallHeldInTheStream) {
    // Galilean invariance: a ball carried at a constant 0.6 m/s through still
    // water and the same ball held in a 0.6 m/s stream are one flow seen from
    // two frames, so the fluid's force on them is the same (flow_past_ball's
    // parameters: R = 0.12 m, Re 480, R/h = 5, dt = 0.02 s, no subgrid model,
    // remeshing every 10 steps). Only the remesh lattice stays in the world
    // frame in both, so the wake crosses it in one and the ball in the other.
    // Over 2–5 s (the wake still on the axis) the mean drags agree within 2 %.
    // Measured: Cd 0.644 moving, 0.648 held. In 40-s runs of the two (vorton
    // --stats): 0.642 and 0.640 over 2–5 s, 0.616 and 0.616 over 5–10 s,
    // 0.681 and 0.681 over 20–40 s. Before stop 61 the predictor evaluated
    // the vortons at t + dt with the bodies still at t, and the no-slip step
    // pushed vortons out of the ball where it had been: the moving ball read
    // its slip V·dt (0.75 h) behind its surface, with Cd 0.674 over 2–5 s
    // (5 % more than held) and 0.718 over 20–40 s.
    auto drag = [](bool moving, float slipReadCore) {
        const glm::vec3 u(0.6f, 0.0f, 0.0f), still(0.0f);
        SceneSetup s = FixedBallInStream(0.12, 3.0e-4, 5.0f, moving ? still : u, moving ? u : still);
        s.params.slipReadCore = slipReadCore;
        Simulation sim(s);
        const double q = 0.5 * kRho * 0.36 * std::numbers::pi * 0.12 * 0.12;
        double cd = 0.0;
        for (int step = 0; step < 250; ++step) {
            EXPECT_TRUE(test::RunSteps(sim, 1).ok);
            // The drag opposes the ball's motion through the fluid: along −x
            // when it moves, along +x (with the stream) when it is held.
            if (step >= 100) cd += (moving ? -1.0 : 1.0) * double(sim.Bodies()[0].fluidForce.x) / q / 150.0;
        }
        return cd;
    };
    const double held = drag(false, 1.0f), moving = drag(true, 1.0f);
    test::Measured("drag_coefficient_held_in_stream_2_to_5_s", held);
    test::Measured("drag_coefficient_moving_through_still_water_2_to_5_s", moving);
    EXPECT_GT(held, 0.3);  // a drag, not a sign slip: the curve gives 0.57
    EXPECT_NEAR(moving / held, 1.0, 0.02);
    // The same with the slip read with thin cores (slip_read_core 0.25): the
    // vortons it reads must be those the velocity was summed from (at
    // t + dt in the corrector). Read at their positions at t, the moving
    // ball read its wall layer V·dt behind: Cd 0.452 moving, 0.537 held
    // (stop 81, before the fix). Measured: 0.506, 0.506.
    const double heldThin = drag(false, 0.25f), movingThin = drag(true, 0.25f);
    test::Measured("thin_read_drag_coefficient_held_in_stream_2_to_5_s", heldThin);
    test::Measured("thin_read_drag_coefficient_moving_through_still_water_2_to_5_s", movingThin);
    EXPECT_GT(heldThin, 0.3);
    EXPECT_NEAR(movingThin / heldThin, 1.0, 0.02);
}

TEST(BodySheetSettling, VanDriestDampingKeepsTheSubgridModelOutOfALaminarWallLayer) {
    // A sphere's boundary layer is laminar far beyond these Reynolds numbers
    // (it turns turbulent near Re 3·10⁵), so a subgrid model has nothing to
    // stand for in it, and a fixed ball's drag with the model damped at the
    // wall (van_driest, A⁺ = 26) should be the drag without the model: the
    // eddy viscosity that remains acts in the wake, downstream of the layer
    // that sets the drag. A fixed ball (R = 0.12 m) in a 0.2 m/s stream, Re
    // 160, R/h 5, dt 0.02 s, remeshing every 10 steps, with the projection the
    // body scenes use; the mean drag over 5–10 s. Checked: damped within 5 %
    // of no model (the model still acts in the near wake, a few per cent at
    // most at this Re), and the undamped model (C = 0.3, ν_t = (C h)²|ω| up
    // to 10 ν in the layer) 10 % or more above it, which is what the damping
    // is for. Measured (10 s): Cd 0.966 without the model, 0.972 damped, 1.149
    // undamped (the curve 0.885). 20-s runs of scripts/drag-convergence:
    // 0.953, 0.961, 1.141; at Re 480, 0.639, 0.662, 0.896 (the curve 0.571).
    auto drag = [](float smagorinsky, float vanDriest) {
        SceneSetup s = FixedBallInStream(0.12, 3.0e-4, 5.0f, glm::vec3(0.2f, 0.0f, 0.0f));
        s.params.smagorinsky = smagorinsky;
        s.params.vanDriest = vanDriest;
        s.params.solenoidalRemesh = true;
        Simulation sim(s);
        const double q = 0.5 * kRho * 0.04 * std::numbers::pi * 0.12 * 0.12;
        double cd = 0.0;
        for (int step = 0; step < 500; ++step) {
            EXPECT_TRUE(test::RunSteps(sim, 1).ok);
            if (step >= 250) cd += double(sim.Bodies()[0].fluidForce.x) / q / 250.0;
        }
        return cd;
    };
    const double none = drag(0.0f, 0.0f), damped = drag(0.3f, 26.0f), undamped = drag(0.3f, 0.0f);
    test::Measured("drag_coefficient_re160_no_subgrid_model", none);
    test::Measured("drag_coefficient_re160_subgrid_model_damped_at_the_wall", damped);
    test::Measured("drag_coefficient_re160_subgrid_model_undamped", undamped);
    EXPECT_NEAR(damped / none, 1.0, 0.05);
    EXPECT_GT(undamped / none, 1.1);
}

/// The thrown ball of ThrownBallSlowsAsTheDragLawSays: its deceleration over
/// 0.4–0.6 s, 1.0–1.2 s and 1.6–1.8 s against the law's, each within 30 %.
void ExpectThrownBallSlowsAsTheDragLawSays(float slipReadCore, bool chargeDiffusion, const std::string& tag) {
    const float rhoBody = kThrownBallDensity;
    Simulation sim(ThrownBall(slipReadCore, chargeDiffusion));
    std::vector<double> u{1.0};
    for (int window = 0; window < 10; ++window) {
        ASSERT_TRUE(test::RunSteps(sim, 20).ok);
        u.push_back(double(glm::length(sim.Bodies()[0].velocity)));
    }
    for (int w = 2; w < 10; w += 3) {  // u[w] is at t = 0.2·w s: 0.4–0.6 s, 1.0–1.2 s, 1.6–1.8 s
        const double measured = (u[std::size_t(w + 1)] - u[std::size_t(w)]) / 0.2;
        const double mean = 0.5 * (u[std::size_t(w + 1)] + u[std::size_t(w)]);
        const double re = 2.0 * kRadius * mean / kNu;
        const double law =
            -0.375 * StandardDragCoefficient(re) * kRho * mean * mean / ((rhoBody + 0.5 * kRho) * kRadius);
        test::Measured(tag + "deceleration_over_drag_law_at_Re_" + std::to_string(int(re)), measured / law);
        EXPECT_NEAR(measured / law, 1.0, 0.3) << "at Re = " << re;
    }
}

TEST(BodySheetSettling, ThrownBallSlowsAsTheDragLawSays) {
    // A dense ball (2,000 kg/m³) thrown at 1 m/s in clear water without
    // gravity: after the start (an impulsively started sphere's drag is
    // higher than the steady one for a few tenths of a second: the boundary
    // layer is thin), dU/dt = −(3/8) C_d ρ U² / ((ρ_b + ρ/2) R) with the drag
    // curve's C_d at the ball's Reynolds number (the windows are at Re ≈ 357,
    // 281 and 231), within 30 %, with the projection ball_through_smoke
    // uses. Measured: 0.82, 0.82, 0.74 of the law (0.83, 0.83, 0.75 with
    // Schiller–Naumann's C_d, 1–1.5 % less there); the
    // history force over this ball's start would put it at or above the law
    // (docs/BODIES.md, stops 49 and 74). With σ = 1.5 h and the undamped subgrid
    // model (before stop 74) 0.93, 0.92, 0.81 without the projection, from
    // two errors that cancel (stop 73).
    ExpectThrownBallSlowsAsTheDragLawSays(1.0f, false, "");
}

TEST(BodySheetSettling, ReadWithThinCoresAndChargedDiffusionAThrownBallSlowsAsTheDragLawSays) {
    // The same with slip_read_core 0.25 and charge_diffusion: the ball starts
    // with Stokes' added mass instead of about twice the potential flow's
    // layer, and feels diffusion's change of the fluid's impulse. Measured:
    // 1.16, 0.95, 0.84 of the law (Re 379, 279, 224), against 0.82, 0.82,
    // 0.74 with the defaults.
    ExpectThrownBallSlowsAsTheDragLawSays(0.25f, true, "thin_read_charged_");
}

/// Lets a falling ball settle for `settle` steps, then samples its velocity
/// `samples` times, `every` steps apart, and checks it against the drag
/// curve's terminal velocity `terminal` (m/s): the mean within 30 %, no
/// sample wandering more than ±15 % from it and, when `straight`, straight
/// down (sideways under 15 % of it). `tag` names the measured values.
void ExpectSettledFall(Simulation& sim, int settle, int samples, int every, double terminal, const std::string& tag,
                       bool straight = true) {
    ASSERT_TRUE(test::RunSteps(sim, settle).ok);
    std::vector<glm::vec3> v;
    for (int i = 0; i < samples; ++i) {
        ASSERT_TRUE(test::RunSteps(sim, every).ok);
        v.push_back(sim.Bodies()[0].velocity);
    }
    double mean = 0.0, sideways = 0.0;
    for (const glm::vec3& x : v) mean += double(-x.z) / double(v.size());
    test::Measured("terminal_velocity" + tag, mean);
    test::Measured("drag_curve_terminal_velocity" + tag, terminal);
    test::Measured("terminal_over_drag_curve" + tag, mean / terminal);
    EXPECT_NEAR(mean / terminal, 1.0, 0.3);
    for (const glm::vec3& x : v) {
        EXPECT_NEAR(double(-x.z), mean, 0.15 * mean);
        if (straight) {
            EXPECT_LT(std::hypot(x.x, x.y), 0.15 * mean);
        }
        sideways = std::max(sideways, double(std::hypot(x.x, x.y)));
    }
    test::Measured("most_sideways_speed" + tag, sideways);
}

/// Drops a ball of density rhoBody in clear water, lets it fall for
/// `settle` steps, then checks its speed over the next second
/// (ExpectSettledFall).
void ExpectTerminalVelocity(float rhoBody, int settle) {
    Simulation sim(ClearWater(rhoBody, glm::vec3(0.0f, 0.0f, -9.81f), glm::vec3(0.0f), 6.0f));
    ExpectSettledFall(sim, settle, 10, 10, TerminalVelocity(rhoBody), "_rho_" + std::to_string(int(rhoBody)));
}

TEST(BodySheetSettling, FallingBallReachesTheDragCurvesTerminalVelocityAtRe680) {
    // 1,200 kg/m³, R = 0.1 m, ν = 3·10⁻⁴ m²/s: the drag curve gives 0.999 m/s
    // (Re ≈ 670; Schiller–Naumann's alone 1.02, issue 12's number); measured
    // after 3.5 s at R/h = 6: 0.96 of it (0.94 of Schiller–Naumann's; 0.77 of
    // that with σ = 1.5 h and the undamped subgrid model, before stop 74).
    ExpectTerminalVelocity(1200.0f, 350);
}

TEST(BodySheetSettling, FallingBallReachesTheDragCurvesTerminalVelocityAtRe290) {
    // 1,050 kg/m³: 0.432 m/s (Re ≈ 290), reached more slowly (a quarter of
    // the excess weight); measured after 6 s at R/h = 6: 0.98 of it (0.84 of
    // Schiller–Naumann's 0.434 before stop 74).
    ExpectTerminalVelocity(1050.0f, 600);
}

TEST(BodySheetSettling, FallingBallSceneKeepsItsTerminalVelocityAndPathFor20s) {
    // The falling_ball scene (1,200 kg/m³, R = 0.1 m, R/h = 5, dt = 0.02 s):
    // from 12 to 20 s, once its wake is longer than wake_length, the ball
    // still falls within 30 % of the drag curve's 0.999 m/s, without wandering
    // by more than ±15 % (issue 12's checks). Its path is not checked for
    // straightness: a sphere's vertical path is unstable from Re ≈ 210 on
    // (Jenny, Dušek & Bouchet 2004, J. Fluid Mech. 508), and free-falling
    // spheres at this density ratio and Re ≈ 500–700 take oblique and
    // wandering paths that still follow the drag curve (Horowitz & Williamson
    // 2010, J. Fluid Mech. 651). Measured with the scene's solenoidal_remesh,
    // remesh_every 10, van_driest 26 and core_overlap 1: 0.88 of the curve
    // (0.86–0.87 of Schiller–Naumann's 1.02 m/s, which the figures that follow
    // are of), up to 0.19 m/s sideways from 12 s on (stop 74; with σ = 1.5 h 0.753,
    // 0.22 m/s; without van_driest as well 0.752, 0.13 m/s; it reaches
    // 0.88 of the curve by 5 s with it, 0.77 without, before its path turns
    // to wander); before stop 61, 0.74, up to 0.16 m/s (while its wake stayed
    // attached, before the sheet's vortons held no fluid volume, it fell at
    // 0.82 of the curve under 1 cm/s sideways). Without solenoidal_remesh the
    // wake's net vorticity drifts (Kelvin's sum is then put back as a
    // rotation sheet at the ball each step) and the ball slowed to 0.58 of
    // the curve on average over 12–20 s, which fails this test.
    SceneSetup setup = test::LoadSetup("falling_ball");
    ASSERT_TRUE(setup.params.solenoidalRemesh);
    setup.params.tracerCount = 0;  // tracers never act on the flow
    ASSERT_EQ(setup.params.dt, 0.02f);
    const BodySpec& ball = setup.bodies[0];
    const double terminal = DragCurveTerminalSpeed(ball.density, setup.params.ambientDensity, ball.radius,
                                                   setup.params.viscosity, -setup.params.gravity.z);
    Simulation sim(setup);
    ExpectSettledFall(sim, 600, 8, 50, terminal, "_falling_ball_12_to_20_s", /*straight=*/false);
}

/// Tracers of group 0 within `reach` of the ball, and above its top.
struct DyeNearBall {
    std::size_t within = 0, above = 0, total = 0;
    float farthest = 0.0f;
};

DyeNearBall MeasureDye(const Simulation& sim, float reach) {
    DyeNearBall d;
    const BodyState& ball = sim.Bodies()[0];
    const Tracers& t = sim.GetTracers();
    for (std::size_t i = 0; i < t.Size(); ++i) {
        const float r = glm::length(t.position[i] - ball.position);
        d.farthest = std::max(d.farthest, r);
        d.within += r <= reach;
        d.above += t.position[i].z > ball.position.z + float(kRadius);
        ++d.total;
    }
    return d;
}

TEST(BodySheet, ABallReleasingDyeKeepsATrailOfIt) {
    // Dye painted on a falling ball (a shell of dye-only fluid, R + 3 cm)
    // with release_beyond = 0.4 m: after 3 s the ball has fallen 1.3 m.
    // Without release the dye the wake carries along stays (measured 61 %
    // within 0.4 m), the rest is left behind for good; with it every tracer
    // is within reach (checked after each step's move), most of it trailing
    // above the ball, the wake's side (measured 65 %).
    constexpr float kReach = 0.4f;
    auto run = [&](float release) {
        SceneSetup s = ClearWater(1200.0f, glm::vec3(0.0f, 0.0f, -9.81f), glm::vec3(0.0f), 4.0f);
        s.params.dt = 0.02f;
        s.params.tracerCount = 2000;
        DensityGroup dye;
        dye.name = "dye";
        dye.radius = float(kRadius) + 0.03f;
        dye.releaseBeyond = release;
        s.groups.push_back(dye);
        Simulation sim(s);
        EXPECT_TRUE(test::RunSteps(sim, 150).ok);
        return std::make_pair(MeasureDye(sim, kReach), -sim.Bodies()[0].position.z);
    };
    const auto [left, fallen] = run(0.0f);
    test::Measured("fallen_m", fallen);
    test::Measured("painted_dye_within_reach", double(left.within) / double(left.total));
    ASSERT_GT(fallen, 2.0f * kReach);
    EXPECT_GT(left.farthest, 1.5f * kReach);  // without release, dye is left behind
    const DyeNearBall kept = run(kReach).first;
    test::Measured("released_dye_within_reach", double(kept.within) / double(kept.total));
    test::Measured("released_dye_above_ball", double(kept.above) / double(kept.total));
    EXPECT_EQ(kept.within, kept.total);
    EXPECT_LE(kept.farthest, kReach);
    EXPECT_GT(kept.above, kept.total / 2);
}

TEST(BodySheet, DyeIsReleasedByTheFirstBodyInItsShapeNotByOneAddedNearerItsCentre) {
    // A dye shell centred 11 cm above the falling ball, and a fixed post (a ball added
    // later, appended) 21 cm above it: the post's centre is nearer the shell's (10 cm
    // against 11), but the ball is in the shell and comes first, so the ball releases the
    // dye. After 2 s the ball has fallen more than 0.6 m: every tracer within the 0.3-m
    // reach of the ball (the released dye is put on its surface), none left at the post.
    // When the nearest body released it, all the dye stayed within 0.3 m of the post.
    constexpr float kReach = 0.3f;
    SceneSetup s = ClearWater(1200.0f, glm::vec3(0.0f, 0.0f, -9.81f), glm::vec3(0.0f), 4.0f);
    s.params.dt = 0.02f;
    s.params.tracerCount = 1000;
    DensityGroup dye;
    dye.name = "dye";
    dye.center = glm::vec3(0.0f, 0.0f, 0.11f);
    dye.radius = 0.2f;
    dye.releaseBeyond = kReach;
    s.groups.push_back(dye);
    BodySpec post = s.bodies[0];
    post.name = "post";
    post.position = glm::vec3(0.0f, 0.0f, 0.21f);
    post.fixed = true;
    s.bodies.push_back(post);
    Simulation sim(s);
    ASSERT_TRUE(test::RunSteps(sim, 100).ok);
    const glm::vec3 ball = sim.Bodies()[0].position;
    ASSERT_LT(ball.z, -0.6f) << "the ball must have left the post's reach";
    const Tracers& t = sim.GetTracers();
    std::size_t nearBall = 0;
    for (std::size_t i = 0; i < t.Size(); ++i) nearBall += glm::length(t.position[i] - ball) <= kReach;
    test::Measured("dye_within_reach_of_ball", double(nearBall) / double(t.Size()));
    EXPECT_EQ(nearBall, t.Size());
}

TEST(BodySheet, DyeReleasedByNoBodyIsAnError) {
    SceneSetup s;
    DensityGroup dye;
    dye.name = "trail";
    dye.releaseBeyond = 1.0f;
    s.groups.push_back(dye);
    const std::string problem = SetupProblem(s);
    EXPECT_NE(problem.find("'trail'"), std::string::npos) << problem;
    EXPECT_NE(problem.find("release_beyond"), std::string::npos) << problem;
    EXPECT_NE(problem.find("no body"), std::string::npos) << problem;
}

}  // namespace
}  // namespace vorton
