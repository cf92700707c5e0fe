// The skin model of a body (Gourlay part 4, as this project had it before
// issue 12): the translation potential flow, the spin as a lumped vorton,
// a vortex layer in the vortons within a spacing of the surface, and
// collisions that push vortons out. Used when body_sheet is off.
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/bodies/body_surface.h"
#include "sim/simulation.h"
#include "sim/simulation_internals.h"
#include "sim/solvers/biot_savart.h"

namespace vorton {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;
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
        BodyField f{bodies[b].position, bodies[b].velocity - setup.params.freeStream,
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

void Simulation::MoveBodies(float dt) {
    const SimParams& p = m_setup.params;
    for (std::size_t i = 0; i < m_bodies.size(); ++i) {
        const BodySpec& spec = m_setup.bodies[i];
        BodyState& b = m_bodies[i];
        const float volume = SphereVolume(spec.radius);
        b.fluidDensity = FluidDensityAround(i);
        // Archimedes (part 9): weight minus the weight of the fluid displaced.
        b.weightForce = p.gravity * (BodyMass(spec) - b.fluidDensity * volume);
        if (b.grabbed) {
            // Kinematic: there in one step, at the velocity that takes it there.
            glm::vec3 v = (b.grabTarget - b.position) / dt;
            const float vmax = 0.5f * p.maxSpeed;
            if (glm::length(v) > vmax) v *= vmax / glm::length(v);
            b.velocity = v;
        } else if (spec.fixed && spec.oscillationPeriod > 0.0f) {
            b.velocity = CarriedVelocity(spec, m_time + double(dt));
        } else if (!spec.fixed && spec.density > 0.0f) {
            // Semi-implicit Euler: the new velocity moves the body.
            b.velocity += dt * b.weightForce / BodyMass(spec);
        }
        b.position += dt * b.velocity;
        const float spin = glm::length(b.angularVelocity);
        if (spin > 0.0f) {
            b.orientation = glm::normalize(glm::angleAxis(spin * dt, b.angularVelocity / spin) * b.orientation);
        }
        b.fluidForce = glm::vec3(0.0f);
        b.fluidTorque = glm::vec3(0.0f);
    }
}

void Simulation::CollideVortons(float dt) {
    m_collisionImpulse = glm::dvec3(0.0);
    const std::size_t nv = m_vortons.Size(), nb = m_bodies.size();
    if (nb == 0 || nv == 0) return;
    const SimParams& p = m_setup.params;
    const float h = Spacing();
    const float skin = kSkinSpacings * h;
    m_contactBody.assign(nv, -1);
    m_contactImpulse.resize(nv);
    m_contactAngular.resize(nv);
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
            const float volume = m_vortons.volume[k];
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
            const glm::vec3 omegaOld = m_vortons.vorticity[k];
            const glm::vec3 omegaNew = kSheetGain * glm::cross(slipT, n) / skin;
            m_vortons.vorticity[k] = omegaNew;
            glm::vec3 dp(0.0f);
            if (dist < spec.radius) {
                // No-through, for what the potential flow did not keep out
                // within the step: a vorton that entered the body goes back
                // just outside its contact point, and its parcel of fluid,
                // mass ρ₀V, leaves with the body's surface velocity (an
                // inelastic collision, part 4); that momentum comes from the body.
                m_vortons.position[k] = body.position + (spec.radius + 0.5f * skin) * n;
                dp = p.ambientDensity * volume * (surface - u);
            }
            // The parcel's spin ½Iω changes with its vorticity (I = 2/5·m·r²
            // of a sphere of the vorton's volume): an impulsive torque on the body.
            const float r = std::cbrt(volume * (3.0f / (4.0f * kPi)));
            const float inertia = 0.4f * p.ambientDensity * volume * r * r;
            m_contactBody[k] = hit;
            m_contactImpulse[k] = dp;
            m_contactAngular[k] = glm::cross(lever, dp) + 0.5f * inertia * (omegaNew - omegaOld);
        }
    });
    // What the fluid gained the bodies lose; summed in vorton order, so the
    // totals do not depend on the thread count.
    std::vector<glm::dvec3> impulse(nb, glm::dvec3(0.0)), angular(nb, glm::dvec3(0.0));
    for (std::size_t k = 0; k < nv; ++k) {
        const int b = m_contactBody[k];
        if (b < 0) continue;
        impulse[std::size_t(b)] -= glm::dvec3(m_contactImpulse[k]);
        angular[std::size_t(b)] -= glm::dvec3(m_contactAngular[k]);
        m_collisionImpulse += glm::dvec3(m_contactImpulse[k]);
    }
    for (std::size_t b = 0; b < nb; ++b) {
        const BodySpec& spec = m_setup.bodies[b];
        BodyState& body = m_bodies[b];
        body.fluidForce = glm::vec3(impulse[b] / double(dt));
        body.fluidTorque = glm::vec3(angular[b] / double(dt));
        if (spec.fixed || body.grabbed || !(spec.density > 0.0f)) continue;
        body.velocity += glm::vec3(impulse[b] / double(BodyMass(spec)));
        body.angularVelocity += glm::vec3(angular[b] / double(BodyInertia(spec)));
    }
}

}  // namespace vorton
