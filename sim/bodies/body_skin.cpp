// The skin model of a body (Gourlay part 4, as this project had it before
// issue 12): the translation potential flow, the spin as a lumped vorton,
// a vortex layer in the vortons within a spacing of the surface, and
// collisions that push vortons out; the body moves under the closure of an
// unresolved sphere (MoveBodies, stop 84). Used when body_sheet is off.
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/gtc/quaternion.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/bodies/body_surface.h"
#include "sim/simulation.h"
#include "sim/simulation_internals.h"
#include "sim/solvers/biot_savart.h"

namespace vorton {

namespace {

/// Skin of a body, in vorton spacings h: vortons closer to the surface than
/// this form the vortex sheet that carries the no-slip condition.
constexpr float kSkinSpacings = 1.0f;
/// Gain of the skin's vortex layer (below): 1 relaxes the slip by half per step.
constexpr float kSheetGain = 0.5f;

/// What a body adds to the velocity field besides the vortons (Cottet &
/// Koumoutsakos ch. 4: the velocity is the vortons' plus the body's):
/// - its motion relative to the stream, W = v_b − U∞, as the potential flow
///   of a translating sphere, u = (R³/2)(3 n(n·W) − W)/r³ outside (W inside),
///   which meets the no-through condition exactly (Lamb, Hydrodynamics §92);
/// - its spin, as its own vorticity 2Ω filling its volume, lumped into one
///   regularised source at the centre: α = 2Ω·V with core σ = R·(2/3)^{1/3},
///   which makes the velocity near the centre the rigid rotation Ω × r.
struct BodyField {
    glm::vec3 center, relative, alpha;
    float radius, sigma2;

    /// Adds velocity (m/s) and, when omega is given, the transpose
    /// stretching term (∇u)ᵀω (1/s²) at x.
    template <bool kStretch>
    void Add(glm::vec3 x, glm::vec3 omega, glm::vec3* v, glm::vec3* s) const {
        const glm::vec3 d = x - center;
        if (alpha != glm::vec3(0.0f)) {
            glm::vec3 vv(0.0f), ss(0.0f);
            AccumulateVorton<kStretch>(d, alpha, sigma2, omega, &vv, &ss);
            *v += vv * kOneOverFourPi;
            if constexpr (kStretch) *s += ss * kOneOverFourPi;
        }
        if (relative == glm::vec3(0.0f)) return;
        const float r2 = glm::dot(d, d);
        if (r2 <= radius * radius) {
            *v += relative;
            return;
        }
        AddDipoleField<kStretch>(d, r2, relative, 0.5f * radius * radius * radius, omega, v, s);
    }
};

std::vector<BodyField> BodyFields(const SceneSetup& setup, std::span<const BodyState> bodies) {
    std::vector<BodyField> fields;
    for (std::size_t b = 0; b < bodies.size() && b < setup.bodies.size(); ++b) {
        const float r = setup.bodies[b].radius;
        // Relative to the fluid around it (the stream, and the vortons' flow at its
        // centre as MoveBodies last sampled it): the sphere's own disturbance of a
        // locally uniform flow.
        const glm::vec3 around = bodies[b].fluidSampleTime >= 0.0 ? bodies[b].fluidSampleVelocity : setup.params.freeStream;
        BodyField f{bodies[b].position, bodies[b].velocity - around,
                    2.0f * bodies[b].angularVelocity * SphereVolume(r), r, r * r * std::cbrt(4.0f / 9.0f)};
        if (f.relative != glm::vec3(0.0f) || f.alpha != glm::vec3(0.0f)) fields.push_back(f);
    }
    return fields;
}
}  // namespace

void Simulation::AddSkinBodyVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                                 std::span<const glm::vec3> vorticity, std::span<glm::vec3> stretch) const {
    const std::vector<BodyField> fields = BodyFields(m_setup, m_bodies);
    if (fields.empty()) return;
    const bool withStretch = !vorticity.empty();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 1024), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            glm::vec3 v(0.0f), s(0.0f);
            for (const BodyField& f : fields) {
                if (withStretch) {
                    f.Add<true>(points[i], vorticity[i], &v, &s);
                } else {
                    f.Add<false>(points[i], glm::vec3(0.0f), &v, &s);
                }
            }
            velocity[i] += v;
            if (withStretch) stretch[i] += s;
        }
    });
}

namespace {

/// The fluid's velocity u_f (m/s, without the free stream), vorticity ω_f
/// (1/s) and velocity gradient ∇u_f (1/s; column j is ∂u_f/∂x_j) at a body's
/// centre, induced by the vortons beyond its skin (those in it carry the
/// no-slip layer, the body's own boundary layer): the regularised
/// Biot–Savart sum u = (1/4π)Σ α×r q^{-3/2} with r = c − x_k and
/// q = r² + σ² (Rosenhead–Moore kernel, as the solvers'), its curl
/// ω = (1/4π)Σ[α(2q^{-3/2} − 3r²q^{-5/2}) + 3r(α·r)q^{-5/2}] and its gradient
/// ∂u/∂x_j = (1/4π)Σ[α×e_j q^{-3/2} − 3(α×r) r_j q^{-5/2}]. Summed in double
/// in vorton order on one thread, with no vector reduction, so the result is
/// the same for any thread count and any optimisation level.
struct FluidAtCentre {
    glm::dvec3 velocity{0.0}, vorticity{0.0};
    glm::dmat3 gradient{0.0};
};

FluidAtCentre FluidOutsideSkin(const Vortons& vortons, glm::vec3 center, float radius, float skin) {
    FluidAtCentre f;
    const glm::dvec3 c(center);
    const double reach = double(radius) + double(skin);
    for (std::size_t k = 0; k < vortons.Size(); ++k) {
        const glm::dvec3 r = c - glm::dvec3(vortons.position[k]);
        const double r2 = glm::dot(r, r);
        if (r2 < reach * reach) continue;
        const glm::dvec3 alpha = glm::dvec3(vortons.vorticity[k]) * double(vortons.volume[k]);
        const double sigma = vortons.radius[k];
        const double q = r2 + sigma * sigma;
        const double inv3 = 1.0 / (q * std::sqrt(q));
        const double inv5 = inv3 / q;
        const glm::dvec3 induced = glm::cross(alpha, r);
        f.velocity += induced * inv3;
        f.vorticity += alpha * (2.0 * inv3 - 3.0 * r2 * inv5) + r * (3.0 * glm::dot(alpha, r) * inv5);
        for (int j = 0; j < 3; ++j) {
            glm::dvec3 e(0.0);
            e[j] = 1.0;
            f.gradient[j] += glm::cross(alpha, e) * inv3 - induced * (3.0 * r[j] * inv5);
        }
    }
    const double scale = 0.25 / std::numbers::pi;
    f.velocity *= scale;
    f.vorticity *= scale;
    f.gradient *= scale;
    return f;
}

/// The fluid's acceleration Du_f/Dt at a body's centre, m/s²: the change of u_f
/// along the body's path since its last sample, plus the convective part
/// ((u_f − ẋ_b)·∇)u_f that turns that into the fluid parcel's
/// Du/Dt = ∂u/∂t + (u·∇)u. Zero before the first sample, and when the body is
/// more than half a spacing h from where its velocity took it since (a
/// reset, or a jump the user made), where the difference would not be a
/// derivative.
glm::dvec3 FluidAcceleration(const BodyState& b, const FluidAtCentre& fluid, glm::dvec3 uf, double time,
                             float spacing) {
    const double span = time - b.fluidSampleTime;
    if (b.fluidSampleTime < 0.0 || !(span > 0.0)) return glm::dvec3(0.0);
    const glm::dvec3 moved = glm::dvec3(b.position) - glm::dvec3(b.fluidSamplePosition);
    if (glm::length(moved - span * glm::dvec3(b.velocity)) > 0.5 * double(spacing)) return glm::dvec3(0.0);
    const glm::dvec3 alongPath = (uf - glm::dvec3(b.fluidSampleVelocity)) / span;
    return alongPath + fluid.gradient * (uf - moved / span);
}

}  // namespace

void Simulation::MoveBodies(float dt) {
    const SimParams& p = m_setup.params;
    const float skin = kSkinSpacings * Spacing();
    m_collisionImpulse = glm::dvec3(0.0);
    for (std::size_t i = 0; i < m_bodies.size(); ++i) {
        const BodySpec& spec = m_setup.bodies[i];
        BodyState& b = m_bodies[i];
        const float volume = SphereVolume(spec.radius);
        b.fluidDensity = FluidDensityAround(i);
        // Archimedes (part 9): weight minus the weight of the fluid displaced.
        b.weightForce = p.gravity * (BodyMass(spec) - b.fluidDensity * volume);
        // The skin model resolves no boundary layer, so the fluid's force on
        // the body is closed as that on an unresolved sphere (Maxey & Riley
        // 1983, Phys. Fluids 26, without the history term; the added mass's
        // form of Auton, Hunt & Prud'homme 1988, J. Fluid Mech. 197):
        // - the fluid's acceleration, (1 + C_m)ρ_fV Du_f/Dt with C_m = ½: the
        //   pressure gradient that accelerates the fluid there (its hydrostatic
        //   part is the buoyancy in weightForce) and the added mass's share;
        // - added mass ½ρ_fV (Lamb, Hydrodynamics §92) on the body's own
        //   acceleration;
        // - the drag curve's drag on its velocity relative to the fluid's at its
        //   centre, k = 6πρ_fνR(1 + 0.15Re^0.687) (Schiller & Naumann 1933;
        //   finite at Re 0, Stokes's drag);
        // - Stokes's torque 8πμR³(½ω_f − Ω) on its spin relative to the
        //   fluid's (Lamb §334).
        // Both drags are implicit in the new velocity, so a body of any density
        // is stable. The fluid's velocity is that of the vortons beyond the skin
        // plus the stream. So a ball of the fluid's density moves with the
        // fluid, a heavy one lags it and a light one leads it: in a uniformly
        // accelerating fluid dv/dt = 3ρ_f/(2ρ_b + ρ_f) Du_f/Dt.
        const FluidAtCentre fluid = FluidOutsideSkin(m_vortons, b.position, spec.radius, skin);
        const glm::dvec3 uf = fluid.velocity + glm::dvec3(p.freeStream);
        const glm::dvec3 fluidAcceleration = FluidAcceleration(b, fluid, uf, m_time, Spacing());
        b.fluidSampleVelocity = glm::vec3(uf);
        b.fluidSamplePosition = b.position;
        b.fluidSampleTime = m_time;
        const double rho = double(b.fluidDensity);
        const double added = 0.5 * rho * double(volume);  // ½ρ_fV (Lamb §92)
        const double mu = rho * double(p.viscosity);
        const double radius = double(spec.radius);
        const glm::dvec3 v0(b.velocity), w0(b.angularVelocity);
        // At ν = 0 (the viscosity slider's end) k is its limit, 0: k = 6πρνR +
        // 0.9πρR ν^0.313 (2R|v − u_f|)^0.687. Through Re it was 0·∞, and stratified_ball
        // stopped at the next step with a non-finite body state.
        const double nu = double(p.viscosity);
        const double drag =
            nu > 0.0 ? 6.0 * std::numbers::pi * mu * radius *
                           (1.0 + 0.15 * std::pow(2.0 * radius * glm::length(v0 - uf) / nu, 0.687))
                     : 0.0;
        const double friction = 8.0 * std::numbers::pi * mu * radius * radius * radius;
        const glm::dvec3 spinFluid = 0.5 * fluid.vorticity;
        const std::optional<glm::vec3> kinematic = KinematicVelocity(i, dt, m_time + double(dt));
        const bool free = !kinematic && spec.density > 0.0f;
        if (kinematic) {
            b.velocity = *kinematic;  // held, fixed or oscillating
        } else if (free) {
            // (m + ½ρ_fV) dv/dt = W + (3/2)ρ_fV Du_f/Dt + k(u_f − v),
            // (I dΩ/dt = 8πμR³(½ω_f − Ω)), backward Euler in the drags; the
            // new velocity moves the body.
            const double mass = BodyMass(spec);
            const double inertia = BodyInertia(spec), h = double(dt);
            const glm::dvec3 pushed = glm::dvec3(b.weightForce) + 3.0 * added * fluidAcceleration + drag * uf;
            const glm::dvec3 v1 = ((mass + added) * v0 + h * pushed) / (mass + added + drag * h);
            const glm::dvec3 w1 = (inertia * w0 + h * friction * spinFluid) / (inertia + friction * h);
            b.velocity = glm::vec3(v1);
            b.angularVelocity = glm::vec3(w1);
        }
        if (!b.grabbed) b.velocityBeforeGrab = b.velocity;
        b.position += dt * b.velocity;
        const float spin = glm::length(b.angularVelocity);
        if (spin > 0.0f) {
            b.orientation = glm::normalize(glm::angleAxis(spin * dt, b.angularVelocity / spin) * b.orientation);
        }
        if (free) {
            // What moved it besides its weight, from the float velocities
            // stored, so the force reported is exactly the one the state shows.
            const float mass = BodyMass(spec);
            b.fluidForce = mass * (b.velocity - glm::vec3(v0)) / dt - b.weightForce;
            b.fluidTorque = BodyInertia(spec) * (b.angularVelocity - glm::vec3(w0)) / dt;
        } else {
            // A held body: the force and torque the fluid exerts on it (for a
            // fixed one in an accelerating fluid, Taylor's (1 + C_m)ρ_fV Du_f/Dt
            // and the drag).
            b.fluidForce = glm::vec3(3.0 * added * fluidAcceleration + drag * (uf - glm::dvec3(b.velocity)));
            b.fluidTorque = glm::vec3(friction * (spinFluid - glm::dvec3(b.angularVelocity)));
        }
        // The fluid receives the opposite of the closure's force.
        m_collisionImpulse -= glm::dvec3(b.fluidForce) * double(dt);
    }
}

void Simulation::CollideVortons() {
    const std::size_t nv = m_vortons.Size(), nb = m_bodies.size();
    if (nb == 0 || nv == 0) return;
    const SimParams& p = m_setup.params;
    const float h = Spacing();
    const float skin = kSkinSpacings * h;
    // Each vorton is handled by the body whose surface is nearest, on its
    // own: a parallel loop that writes only vorton k's entries.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nv, 512), [&](const auto& range) {
        for (std::size_t k = range.begin(); k != range.end(); ++k) {
            const glm::vec3 x = m_vortons.position[k];
            int hit = -1;
            float gap = skin;
            for (std::size_t b = 0; b < nb; ++b) {
                const float g = glm::length(x - m_bodies[b].position) - m_setup.bodies[b].radius;
                if (g < gap) {
                    gap = g;
                    hit = int(b);
                }
            }
            if (hit < 0) continue;
            const BodySpec& spec = m_setup.bodies[std::size_t(hit)];
            const BodyState& body = m_bodies[std::size_t(hit)];
            const glm::vec3 d = x - body.position;
            const float dist = glm::length(d);
            const glm::vec3 n = dist > 0.0f ? d / dist : glm::vec3(0.0f, 0.0f, 1.0f);
            const glm::vec3 lever = spec.radius * n;  // contact point P − centre
            const glm::vec3 surface = body.velocity + glm::cross(body.angularVelocity, lever);
            // The velocity this vorton moved with: induced by all the others
            // (a regularised vorton induces nothing at its own centre) plus the stream.
            const glm::vec3 u = 0.5f * (m_velocity0[k] + m_velocity1[k]) + p.freeStream;
            const glm::vec3 slip = u - surface;
            const glm::vec3 slipT = slip - glm::dot(slip, n) * n;
            // No-slip: the skin's vortons together form a vortex layer of
            // strength γ = G·u_slip × n per unit area, each carrying the share
            // V/skin of its area. A sheet γ changes the tangential velocity by
            // ½ γ × n = −½G·u_slip on its outer side, so the layer relaxes the
            // slip it sees each step and the fluid next to the body comes to
            // move with its surface. The article instead gives each vorton
            // alone the strength that cancels the whole slip at its contact
            // point; with a skin of overlapping vortons that counts the slip
            // once per neighbour. Measured (h ≈ 0.06 m):
            // - spinning ball (R = 0.2 m, fixed, Ω = 5/s): the smoke next to it
            //   co-rotates at 0.3–0.45 ΩR with G = 0.5, 0.4–0.6 ΩR with G = 1,
            //   both stable for 10 s; G = 2 blows up at 5.9 s; the opposite sign
            //   (2 n × u_slip, the one-sided sheet) drives a counter-rotation
            //   that grows without bound;
            // - ball shot through smoke (R = 0.12 m, 2 m/s): drag coefficient
            //   ≈ 0.5 with G = 0 (collisions only), ≈ 1.5 with G = 0.5, ≈ 6
            //   with G = 1 (it stops within 0.4 m). G = 0.5 keeps both a swirl
            //   and a ball that gets through the smoke.
            // Known flaw: for a translating ball this layer's sign makes the
            // fluid right behind it flow backwards (−0.13 m/s behind a ball at
            // 0.7 m/s), where a real wake follows the ball; the physical sign
            // (n × u_slip) would, but it is unstable here (see above).
            m_vortons.vorticity[k] = kSheetGain * glm::cross(slipT, n) / skin;
            if (dist < spec.radius) {
                // No-through, for what the potential flow did not keep out
                // within the step: a vorton that entered the body goes back
                // just outside its contact point. Its momentum does not move
                // the body: MoveBodies' closure is the whole fluid force (stop
                // 84: with both, the drag was twice the curve's, and single
                // collisions kicked a resting ball sideways at random).
                m_vortons.position[k] = body.position + (spec.radius + 0.5f * skin) * n;
            }
        }
    });
}

}  // namespace vorton
