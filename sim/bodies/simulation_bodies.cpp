// Fluid–body interaction (Gourlay part 4) and body buoyancy (part 9) in a
// stratified ambient: the parts of Simulation that concern rigid spheres.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/simulation.h"
#include "sim/simulation_internals.h"

namespace vorton {

namespace {

/// The 14 directions (6 faces, 8 corners of a cube) at which the fluid density
/// around a body is sampled.
const std::array<glm::vec3, 14>& SampleDirections() {
    static const std::array<glm::vec3, 14> dirs = [] {
        std::array<glm::vec3, 14> d{};
        int n = 0;
        for (int a = 0; a < 3; ++a) {
            for (const float s : {-1.0f, 1.0f}) {
                glm::vec3 v(0.0f);
                v[a] = s;
                d[std::size_t(n++)] = v;
            }
        }
        for (const float x : {-1.0f, 1.0f}) {
            for (const float y : {-1.0f, 1.0f}) {
                for (const float z : {-1.0f, 1.0f}) d[std::size_t(n++)] = glm::normalize(glm::vec3(x, y, z));
            }
        }
        return d;
    }();
    return dirs;
}

}  // namespace

std::optional<std::vector<int>> Simulation::SyncBodies() {
    const std::size_t nb = m_setup.bodies.size();
    bool same = m_bodies.size() == nb && m_bodyNames.size() == nb;
    for (std::size_t i = 0; same && i < nb; ++i) same = m_bodyNames[i] == m_setup.bodies[i].name;
    if (same) return std::nullopt;
    // An edit added, removed or reordered bodies (or a reset, with none kept):
    // each keeps its state by name, a new one starts at its spec.
    const bool sheetsBefore = m_setup.params.bodySheet && !m_bodies.empty();
    const std::vector<int> from = MatchBodies(m_bodyNames, m_setup.bodies);
    std::vector<BodyState> bodies(nb);
    std::vector<std::uint8_t> fresh(nb, 1);
    std::vector<glm::dvec3> pending(m_pendingPushImpulse.empty() ? 0 : nb, glm::dvec3(0.0));
    std::vector<char> kept(m_bodies.size(), 0);
    for (std::size_t i = 0; i < nb; ++i) {
        const int j = from[i];
        if (j >= 0 && std::size_t(j) < m_bodies.size()) {
            kept[std::size_t(j)] = 1;
            bodies[i] = m_bodies[std::size_t(j)];
            if (std::size_t(j) < m_bodyFresh.size()) fresh[i] = m_bodyFresh[std::size_t(j)];
            if (std::size_t(j) < m_pendingPushImpulse.size()) pending[i] = m_pendingPushImpulse[std::size_t(j)];
            continue;
        }
        const BodySpec& spec = m_setup.bodies[i];
        BodyState& b = bodies[i];
        b.position = spec.position;
        b.velocity = spec.velocity;
        b.velocityBeforeGrab = spec.velocity;
        b.angularVelocity = spec.angularVelocity;
    }
    if (sheetsBefore) {
        // Kelvin's sum counts each body's own vorticity 2ΩV (CoupleBodies): a
        // body that goes takes its share with it, or the sheets of the others
        // would put it into the fluid.
        for (std::size_t j = 0; j < m_bodies.size(); ++j) {
            if (kept[j] || j >= m_bodyRadii.size()) continue;
            m_kelvinStrength -= 2.0 * double(SphereVolume(m_bodyRadii[j])) * glm::dvec3(m_bodies[j].angularVelocity);
        }
    }
    m_bodies = std::move(bodies);
    m_bodyFresh = std::move(fresh);
    m_pendingPushImpulse = std::move(pending);
    m_bodyNames.resize(nb);
    m_bodyRadii.resize(nb);
    for (std::size_t i = 0; i < nb; ++i) {
        m_bodyNames[i] = m_setup.bodies[i].name;
        m_bodyRadii[i] = m_setup.bodies[i].radius;
    }
    // Kelvin's sum is kept only while there are bodies: the first body of a
    // fluid that had none starts from the fluid's Σα, as a reset does.
    if (!sheetsBefore && BodySheets()) m_kelvinStrength = TotalStrength();
    // The image flow and the velocities cached at the step's start were those
    // of the old bodies.
    m_internals->images.clear();
    m_internals->surfaceVelocity.clear();
    m_cacheValid = false;
    return from;
}

void Simulation::CollideBodies(float dt) {
    const std::size_t nb = m_bodies.size();
    if (nb < 2) return;
    std::vector<ContactSphere>& spheres = m_contactSpheres;
    spheres.resize(nb);
    for (std::size_t b = 0; b < nb; ++b) {
        const BodySpec& spec = m_setup.bodies[b];
        const BodyState& body = m_bodies[b];
        // Held and fixed bodies, and massless ones, do not give way (as they do not to the fluid).
        const bool movable = !KinematicVelocity(b, dt, m_time + double(dt)) && spec.density > 0.0f;
        spheres[b] = ContactSphere{body.position, body.velocity, spec.radius, movable ? 1.0f / BodyMass(spec) : 0.0f,
                                   body.angularVelocity, movable ? 1.0f / BodyInertia(spec) : 0.0f};
    }
    // Closing slower than gravity's pull gives in two steps: a ball resting on another, which
    // would otherwise bounce a little every step.
    const float resting = 2.0f * glm::length(m_setup.params.gravity) * dt;
    if (ResolveSphereContacts(spheres, m_setup.params.bodyRestitution, resting, m_setup.params.bodyFriction) == 0) return;
    for (std::size_t b = 0; b < nb; ++b) {
        BodyState& body = m_bodies[b];
        if (!(spheres[b].inverseMass > 0.0f)) continue;
        body.position = spheres[b].position;
        body.velocity = spheres[b].velocity;
        body.velocityBeforeGrab = body.velocity;
        body.angularVelocity = spheres[b].angularVelocity;
    }
}

float Simulation::FluidDensityAround(std::size_t i) const {
    const BodySpec& spec = m_setup.bodies[i];
    const BodyState& body = m_bodies[i];
    // The ambient profile, integrated over the sphere's volume.
    float rho = m_setup.params.ambientDensity + m_internals->profile.SphereMean(body.position.z, spec.radius);
    // The deviation carried by vortons: none are inside the body (they are
    // pushed out), so it is sampled on a shell just outside it, where the
    // displaced fluid would be, at 14 points; outside the density grid it is 0.
    if (m_densityGridValid) {
        const GridGeometry& grid = m_internals->baroclinicGenerator.Grid();
        const std::span<const float> density = m_internals->baroclinicGenerator.Density();
        const glm::vec3 lo = grid.origin, hi = grid.Max();
        const float shell = spec.radius + 0.5f * Spacing();
        double sum = 0.0;
        for (const glm::vec3& d : SampleDirections()) {
            const glm::vec3 x = body.position + shell * d;
            if (glm::all(glm::greaterThanEqual(x, lo)) && glm::all(glm::lessThanEqual(x, hi))) {
                sum += Interpolate(grid, density, x);
            }
        }
        rho += float(sum / double(SampleDirections().size()));
    }
    return rho;
}

void Simulation::CollideTracers() {
    const std::size_t nt = m_tracers.Size(), nb = m_bodies.size();
    if (nb == 0 || nt == 0) return;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nt, 4096), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            for (std::size_t b = 0; b < nb; ++b) {
                const float radius = m_setup.bodies[b].radius;
                const BodyState& body = m_bodies[b];
                const glm::vec3 d = m_tracers.position[i] - body.position;
                const float dist2 = glm::dot(d, d);
                if (dist2 >= radius * radius) continue;
                const float dist = std::sqrt(dist2);
                const glm::vec3 n = dist > 0.0f ? d / dist : glm::vec3(0.0f, 0.0f, 1.0f);
                // Passive: back onto the surface, moving with it.
                m_tracers.position[i] = body.position + radius * 1.0001f * n;
                m_tracers.velocity[i] = body.velocity + glm::cross(body.angularVelocity, radius * n);
            }
        }
    });
}

}  // namespace vorton
