// The rigid spheres' boundary conditions and their motion (issue 12):
// no-through by image sources, no-slip by a vortex sheet released each step,
// and the fluid's force from the impulse the body gives the vorticity.
//
// Sources: Cottet & Koumoutsakos, *Vortex Methods* (2000), ch. 4 (the
// potential-flow correction) and ch. 6 (vorticity flux at walls);
// Koumoutsakos, Leonard & Pépin (1994), J. Comput. Phys. 113, 52–61;
// Wu (1981), AIAA J. 19, 432–441 (force from the vortical impulse).
#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/simulation.h"
#include "sim/simulation_internals.h"

namespace vorton {

namespace {

constexpr double kPi = std::numbers::pi;
/// New vortons of the sheet are released this many spacings off the surface;
/// vortons closer than kPushSpacings are moved out to the same shell.
constexpr float kReleaseSpacings = 0.5f;
constexpr float kPushSpacings = 0.25f;
/// The wall layer: vortons within this many spacings of the surface.
constexpr float kWallLayerSpacings = 2.0f;
/// Width (standard deviation) of the smoothing of the slip, in spacings.
constexpr double kSlipSmoothSpacings = 1.0;

glm::dvec3 D(glm::vec3 v) { return glm::dvec3(v); }

}  // namespace

void Simulation::UpdateBodyImages(
    const std::function<void(std::span<const glm::vec3>, std::span<glm::vec3>)>& evaluate) {
    Internals& in = *m_internals;
    const std::size_t nb = m_bodies.size();
    in.stencils.resize(nb);
    in.images.resize(nb);
    in.surfaceVelocity.resize(nb);
    if (nb == 0) return;
    const float h = Spacing();
    std::vector<glm::vec3> points;
    for (std::size_t b = 0; b < nb; ++b) {
        const float radius = m_setup.bodies[b].radius;
        const std::size_t m = SurfacePointsFor(radius, h);
        if (in.stencils[b].Points() != m) in.stencils[b] = MakeSurfaceStencil(m);
        for (const glm::vec3& n : in.stencils[b].normal) points.push_back(m_bodies[b].position + radius * n);
    }
    std::vector<glm::vec3> fluid(points.size(), glm::vec3(0.0f));
    if (m_vortons.Size() > 0) evaluate(points, fluid);
    std::size_t offset = 0;
    for (std::size_t b = 0; b < nb; ++b) {
        const SurfaceStencil& stencil = in.stencils[b];
        const std::size_t m = stencil.Points();
        BodyImage& image = in.images[b];
        image.center = m_bodies[b].position;
        image.radius = m_setup.bodies[b].radius;
        image.relative = m_bodies[b].velocity - m_setup.params.freeStream;
        image.rigidVelocity = image.relative;
        image.angularVelocity = m_bodies[b].angularVelocity;
        const std::span<const glm::vec3> u(fluid.data() + offset, m);
        FitImageSources(stencil, u, image);
        std::vector<glm::vec3>& surface = in.surfaceVelocity[b];
        surface.resize(m);
        for (std::size_t j = 0; j < m; ++j) {
            glm::vec3 v = u[j], unused(0.0f);
            image.Add<false>(points[offset + j], glm::vec3(0.0f), &v, &unused);
            surface[j] = v;
        }
        offset += m;
    }
}

void Simulation::AddBodyVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                                 std::span<const glm::vec3> vorticity, std::span<glm::vec3> stretch) const {
    if (!BodySheets()) {
        AddSkinBodyVelocity(points, velocity, vorticity, stretch);
        return;
    }
    const std::vector<BodyImage>& images = m_internals->images;
    if (images.empty()) return;
    const bool withStretch = !vorticity.empty();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 512), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            const glm::vec3 x = points[i];
            glm::vec3 v(0.0f), s(0.0f);
            bool inside = false;
            for (const BodyImage& image : images) {
                if (image.Inside(x)) {
                    // Inside a body the fluid is the body: its rigid motion.
                    velocity[i] = image.rigidVelocity + glm::cross(image.angularVelocity, x - image.center);
                    inside = true;
                    break;
                }
                if (withStretch) {
                    image.Add<true>(x, vorticity[i], &v, &s);
                } else {
                    image.Add<false>(x, glm::vec3(0.0f), &v, &s);
                }
            }
            if (inside) continue;
            velocity[i] += v;
            if (withStretch) stretch[i] += s;

        }
    });
}

void Simulation::PushVortonsOutOfBodies(std::vector<glm::dvec3>* impulse, std::vector<glm::dvec3>* angular) {
    const std::size_t nb = m_bodies.size();
    impulse->resize(nb, glm::dvec3(0.0));
    angular->resize(nb, glm::dvec3(0.0));
    if (nb == 0) return;
    const float h = Spacing();
    // Serial, in vorton order: the sums do not depend on the thread count.
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        const glm::vec3 x = m_vortons.position[k];
        for (std::size_t b = 0; b < nb; ++b) {
            const float radius = m_setup.bodies[b].radius;
            const glm::vec3 c = m_bodies[b].position;
            const glm::vec3 y = x - c;
            const float r2 = glm::dot(y, y);
            const float layer = radius + kWallLayerSpacings * h;
            if (r2 >= layer * layer) continue;
            const float r = std::sqrt(r2);
            const glm::vec3 n = r > 0.0f ? y / r : glm::vec3(0.0f, 0.0f, 1.0f);
            // No-slip makes the wall-normal vorticity vanish at the wall
            // (ω·n involves only tangential derivatives of the tangential
            // velocity, which is the wall's). The sheet only ever adds
            // tangential vorticity; what tilting gives the wall layer along
            // n would, unchecked, be stretched without bound where the flow
            // leaves the wall (the rear stagnation point). Removing it
            // changes neither impulse nor angular impulse about the centre.
            // On a turning wall the normal vorticity is the wall's, 2Ω·n.
            const float wall = 2.0f * glm::dot(m_bodies[b].angularVelocity, n);
            m_vortons.vorticity[k] -= (glm::dot(m_vortons.vorticity[k], n) - wall) * n;
            const float limit = radius + kPushSpacings * h;
            if (r2 >= limit * limit) break;
            const glm::vec3 y1 = (radius + kReleaseSpacings * h) * n;
            const glm::dvec3 alpha = D(m_vortons.vorticity[k]) * double(m_vortons.volume[k]);
            (*impulse)[b] += 0.5 * glm::cross(D(y1) - D(y), alpha);
            (*angular)[b] += (glm::cross(D(y1), glm::cross(D(y1), alpha)) - glm::cross(D(y), glm::cross(D(y), alpha))) / 3.0;
            m_vortons.position[k] = c + y1;
            break;
        }
    }
}

void Simulation::ForgetFarWake() {
    const float reach = m_setup.params.wakeLength;
    if (!(reach > 0.0f) || m_bodies.empty() || m_vortons.Size() == 0) return;
    m_keep.assign(m_vortons.Size(), 0);
    bool anyGone = false;
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        for (const BodyState& body : m_bodies) {
            const glm::vec3 d = m_vortons.position[k] - body.position;
            if (glm::dot(d, d) <= reach * reach) {
                m_keep[k] = 1;
                break;
            }
        }
        anyGone = anyGone || !m_keep[k];
    }
    if (anyGone) {
        m_vortons.Compact(m_keep);
        m_cacheValid = false;
    }
}

void Simulation::CoupleBodies(float dt) {
    const SimParams& p = m_setup.params;
    const std::size_t nb = m_bodies.size();
    const double rho = p.ambientDensity;
    const float h = Spacing();
    Internals& in = *m_internals;
    std::vector<glm::dvec3> pushI = std::move(m_pendingPushImpulse), pushA = std::move(m_pendingPushAngular);
    m_pendingPushImpulse.clear();
    m_pendingPushAngular.clear();
    pushI.resize(nb, glm::dvec3(0.0));
    pushA.resize(nb, glm::dvec3(0.0));
    {
        std::vector<glm::dvec3> i1, a1;
        PushVortonsOutOfBodies(&i1, &a1);
        for (std::size_t b = 0; b < nb; ++b) {
            pushI[b] += i1[b];
            pushA[b] += a1[b];
        }
    }
    if (in.images.size() != nb) {
        // No velocity evaluated yet with these bodies: the image flow of the bodies alone.
        UpdateBodyImages([](std::span<const glm::vec3>, std::span<glm::vec3>) {});
    }
    const float sigma = m_vortons.Size() > 0 ? m_vortons.radius[0] : p.coreOverlap * h;
    const float cellVolume = h * h * h;
    m_collisionImpulse = glm::dvec3(0.0);
    for (std::size_t b = 0; b < nb; ++b) {
        const BodySpec& spec = m_setup.bodies[b];
        BodyState& body = m_bodies[b];
        const SurfaceStencil& stencil = in.stencils[b];
        const std::vector<glm::vec3>& surface = in.surfaceVelocity[b];
        const std::size_t m = stencil.Points();
        const double radius = spec.radius;
        const double volume = SphereVolume(spec.radius);
        const double mass = BodyMass(spec);
        const double inertia = BodyInertia(spec);
        body.fluidDensity = FluidDensityAround(b);
        body.weightForce = p.gravity * (float(mass) - body.fluidDensity * float(volume));
        const double area = 4.0 * kPi * radius * radius / double(m);
        // The angular impulse a rigidly turning fluid sphere's sheet carries per ΔΩ.
        const double wu = 8.0 / 9.0 * kPi * std::pow(radius, 5.0);
        const double release = radius + double(kReleaseSpacings * h);
        const glm::dvec3 v0 = D(body.velocity), w0 = D(body.angularVelocity);
                // Slip on the surface: the fluid's velocity minus the surface's.
        std::vector<glm::dvec3> slip(m);
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(stencil.normal[j]);
            slip[j] = D(surface[j]) + D(p.freeStream) - v0 - glm::cross(w0, radius * n);
        }
        // Only what the released vortons can cancel: the slip smoothed over
        // about a spacing (finer patterns of slip barely move the fluid at the
        // wall when released h/2 off it with cores of 1.5 h, so cancelling them
        // would pile up vorticity step after step).
        {
            {
                const double s2 = 2.0 * (kSlipSmoothSpacings * h) * (kSlipSmoothSpacings * h);
                std::vector<glm::dvec3> smooth(m, glm::dvec3(0.0));
                for (std::size_t j = 0; j < m; ++j) {
                    double wsum = 0.0;
                    const glm::dvec3 nj = D(stencil.normal[j]);
                    for (std::size_t k = 0; k < m; ++k) {
                        const glm::dvec3 dn = radius * (nj - D(stencil.normal[k]));
                        const double d2 = glm::dot(dn, dn);
                        if (d2 > 4.5 * s2) continue;
                        const double w = std::exp(-d2 / s2);
                        smooth[j] += w * slip[k];
                        wsum += w;
                    }
                    smooth[j] /= wsum;
                }
                slip.swap(smooth);
            }
        }
        // The sheet α_j = dA n_j × (slip_j − 3/2 ΔV − ΔΩ × R n_j) at x_j = c + (R + d) n_j
        // (the new body velocity changes its own dipole's slip by −½ΔV and its
        // surface's by −ΔV): impulse ½Σx×α = I0 + L ΔV, angular impulse
        // ⅓Σy×(y×α) = A0 + K ΔΩ about the centre.
        // Impulses of the sheet are taken about the body's centre: its net
        // vorticity Σα is what the body's own (2Ω over its volume) loses,
        // whose impulse about any point cancels ½c×Σα; about the centre
        // neither appears (and the result does not depend on the origin).
        glm::dvec3 i0(0.0), a0(0.0);
        glm::dmat3 lin(0.0), ang(0.0);
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(stencil.normal[j]);
            const glm::dvec3 y = release * n;
            const glm::dvec3 alpha = area * glm::cross(n, slip[j]);
            i0 += 0.5 * glm::cross(y, alpha);
            a0 += glm::cross(y, glm::cross(y, alpha)) / 3.0;
            for (int k = 0; k < 3; ++k) {
                glm::dvec3 e(0.0);
                e[k] = 1.0;
                lin[k] += 0.5 * glm::cross(y, area * glm::cross(n, -1.5 * e));
                const glm::dvec3 da = area * glm::cross(n, -glm::cross(e, radius * n));
                ang[k] += glm::cross(y, glm::cross(y, da)) / 3.0;
            }
        }
        glm::dvec3 bound(0.0), boundA(0.0);
        if (m_bodyFresh[b]) {
            bound = i0;
            boundA = a0;
            m_bodyFresh[b] = 0;
        }
        glm::dvec3 dv(0.0), dw(0.0);
        if (body.grabbed) {
            // Kinematic: there in one step, at the velocity that takes it there.
            glm::vec3 v = (body.grabTarget - body.position) / dt;
            const float vmax = 0.5f * p.maxSpeed;
            if (glm::length(v) > vmax) v *= vmax / glm::length(v);
            dv = D(v) - v0;
        } else if (!spec.fixed && spec.density > 0.0f) {
            // Momentum of body and fluid (Wu 1981): m ΔV = F dt − ρ ΔI + ρ V_b ΔV,
            // with ΔI = ΔI_push + I0 + L ΔV; for the spin the body's own
            // share is (8/9)πR⁵ ρ ΔΩ (the sheet of a rigidly turning fluid sphere).
            const glm::dmat3 a = glm::dmat3(mass - rho * volume) + rho * lin;
            dv = glm::inverse(a) * (D(body.weightForce) * double(dt) - rho * (pushI[b] + i0 - bound));
            const glm::dmat3 aw = glm::dmat3(inertia - rho * wu) + rho * ang;
            dw = glm::inverse(aw) * (-rho * (pushA[b] + a0 - boundA));
        }
        body.velocity = glm::vec3(v0 + dv);
        body.angularVelocity = glm::vec3(w0 + dw);
        body.position += dt * body.velocity;
        const float spin = glm::length(body.angularVelocity);
        if (spin > 0.0f) {
            body.orientation = glm::normalize(glm::angleAxis(spin * dt, body.angularVelocity / spin) * body.orientation);
        }
        // Release the sheet around the moved body.
        glm::dvec3 gained = pushI[b] - bound, gainedA = pushA[b] - boundA;
        const glm::dvec3 c2 = D(body.position);
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(stencil.normal[j]);
            const glm::dvec3 s = slip[j] - 1.5 * dv - glm::cross(dw, radius * n);
            const glm::dvec3 alpha = area * glm::cross(n, s);
            if (glm::dot(alpha, alpha) == 0.0) continue;
            const glm::dvec3 y = release * n;
            gained += 0.5 * glm::cross(y, alpha);
            gainedA += glm::cross(y, glm::cross(y, alpha)) / 3.0;
            const glm::vec3 x = glm::vec3(c2 + y);
            m_vortons.Add(x, glm::vec3(alpha / double(cellVolume)), sigma, cellVolume, kAmbientGroup, 0.0f, x.z);
        }
        const glm::dvec3 fluidMomentum = rho * gained - rho * volume * dv;
        body.fluidForce = glm::vec3(-fluidMomentum / double(dt));
        body.fluidTorque = glm::vec3(-(rho * gainedA - rho * wu * dw) / double(dt));
        m_collisionImpulse += fluidMomentum;
    }
}

}  // namespace vorton
