// Fluid added at run time (the app's paint mode): a group of the setup seeded into the running
// fluid as the scene's groups are seeded at reset (sim/particles/seeding.cpp).
#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <glm/geometric.hpp>

namespace vorton {

namespace {

/// Inside one of the bodies where they are now.
bool InsideBodyNow(std::span<const BodyState> bodies, const std::vector<BodySpec>& specs, glm::vec3 x) {
    for (std::size_t b = 0; b < bodies.size() && b < specs.size(); ++b) {
        if (glm::length(x - bodies[b].position) < specs[b].radius) return true;
    }
    return false;
}

}  // namespace

Status Simulation::SeedGroupNow(std::size_t g, int tracers, glm::vec3 velocity) {
    if (g >= m_setup.groups.size()) {
        return Error{"no group " + std::to_string(g) + " (the scene has " + std::to_string(m_setup.groups.size()) + ")"};
    }
    const DensityGroup& group = m_setup.groups[g];
    if (group.layer || group.emit) return Error{"group " + group.name + " is a layer or an emitter, not a blob"};
    const float h = m_lattice.spacing;
    if (!(h > 0.0f)) return Error{"no vorton lattice to seed " + group.name + " on (a scene of bodies in clear water)"};
    const float volume = h * h * h;
    const float sigma = m_setup.params.coreOverlap * h;
    // The lattice points of the shape grown by its halo, by index about the lattice's origin.
    const bool thrown = velocity != glm::vec3(0.0f);
    if (thrown && group.shape != DensityGroup::Shape::Sphere) return Error{"only a sphere can be thrown"};
    // The sheet's shell, h thick about the surface, may reach past the halo.
    const Aabb box = ShapeBounds(group, std::max(group.halo, thrown ? h : 0.0f));
    auto sheet = [&](glm::vec3 x) {
        if (!thrown) return glm::vec3(0.0f);
        const glm::vec3 d = x - group.center;
        const float r = glm::length(d);
        if (r <= 0.0f || std::abs(r - group.radius) >= 0.5f * h) return glm::vec3(0.0f);
        return -1.5f * glm::cross(d / r, velocity) / h;
    };
    const glm::ivec3 lo(glm::floor((box.min - m_lattice.origin) / h));
    const glm::ivec3 hi(glm::ceil((box.max - m_lattice.origin) / h));
    Vortons added;
    std::size_t inside = 0;
    for (int k = lo.z; k <= hi.z; ++k) {
        for (int j = lo.y; j <= hi.y; ++j) {
            for (int i = lo.x; i <= hi.x; ++i) {
                const glm::vec3 x = m_lattice.origin + h * glm::vec3(i, j, k);
                if (InsideBodyNow(m_bodies, m_setup.bodies, x)) continue;
                if (ShapeContains(group, x)) {
                    added.Add(x, sheet(x), sigma, volume, std::uint16_t(g));
                    ++inside;
                } else if ((group.halo > 0.0f && ShapeContains(group, x, group.halo)) || sheet(x) != glm::vec3(0.0f)) {
                    added.Add(x, sheet(x), sigma, volume, kAmbientGroup);
                }
            }
        }
    }
    if (thrown) {
        // The shell's lattice points are not quite symmetric about the centre: their Σα is
        // ~3e-3 of their Σ|α| instead of 0. Shared out over them, it is 0 to round-off (the
        // impulse moves by ½(Σx)×net, of the same small order).
        glm::dvec3 net(0.0);
        std::size_t carriers = 0;
        for (std::size_t k = 0; k < added.Size(); ++k) {
            if (added.vorticity[k] == glm::vec3(0.0f)) continue;
            net += glm::dvec3(added.vorticity[k]) * double(added.volume[k]);
            ++carriers;
        }
        const glm::vec3 share = carriers ? glm::vec3(net / (double(carriers) * double(volume))) : glm::vec3(0.0f);
        for (glm::vec3& w : added.vorticity) {
            if (w != glm::vec3(0.0f)) w -= share;
        }
    }
    if (inside == 0) return Error{group.name + " holds no lattice point (radius below the spacing " + std::to_string(h) + " m)"};
    for (std::size_t k = 0; k < added.Size(); ++k) {
        m_vortons.Add(added.position[k], added.vorticity[k], added.radius[k], added.volume[k], added.group[k], 1.0f,
                      added.birthHeight[k]);
    }
    m_seededVortons += added.Size();
    for (const glm::vec3& x : added.position) m_seededBox.Grow(x);
    // Kelvin's theorem keeps the fluid's Σα at what was seeded (bodies with sheets): the thrown
    // blob's sheet is seeded too.
    for (std::size_t k = 0; k < added.Size(); ++k) m_kelvinStrength += glm::dvec3(added.vorticity[k]) * double(added.volume[k]);
    // Tracers as SeedTracers places a group's: uniform in the shape, outside the bodies.
    std::mt19937 rng(std::uint32_t(m_setup.params.seed) * 7919u + std::uint32_t(g));
    auto uniform = [&rng] { return float(rng() >> 8) * (1.0f / 16777216.0f); };
    const Aabb shape = ShapeBounds(group);
    for (int placed = 0, tries = 0; placed < tracers && tries < 100 * tracers + 1000; ++tries) {
        const glm::vec3 x = shape.min + glm::vec3(uniform(), uniform(), uniform()) * shape.Extent();
        if (!ShapeContains(group, x) || InsideBodyNow(m_bodies, m_setup.bodies, x)) continue;
        m_tracers.Add(x, std::uint16_t(g));
        ++placed;
    }
    m_cacheValid = false;
    m_tracerBoundsValid = false;
    return Ok{};
}

}  // namespace vorton
