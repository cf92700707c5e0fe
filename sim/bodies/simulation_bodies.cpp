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

void Simulation::SyncBodies() {
    // Bodies added to the setup since the last reset start at their spec.
    while (m_bodies.size() < m_setup.bodies.size()) {
        const BodySpec& spec = m_setup.bodies[m_bodies.size()];
        BodyState b;
        b.position = spec.position;
        b.velocity = spec.velocity;
        b.velocityBeforeGrab = spec.velocity;
        b.angularVelocity = spec.angularVelocity;
        m_bodies.push_back(b);
    }
    m_bodies.resize(m_setup.bodies.size());
    m_bodyFresh.resize(m_bodies.size(), 1);
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
