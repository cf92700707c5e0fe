// Emitters (box groups with "emit" in a free stream): the stream's outflow
// and inflow, for vortons and tracers. The parts of Simulation that feed
// the stream (docs/METHOD.md §5). And dye released by bodies (groups with
// release_beyond): a moving body's trail of dye.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/simulation.h"
#include "sim/simulation_internals.h"

namespace vorton {

namespace {

/// Deterministic uniform [0, 1) from two integers (a 64-bit mix, SplitMix64 finaliser).
float Hash01(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return float(z >> 40) * (1.0f / 16777216.0f);
}

}  // namespace

void Simulation::EmitVortons() {
    const SimParams& p = m_setup.params;
    const float speed = glm::length(p.freeStream);
    if (speed == 0.0f || m_vortons.Size() == 0) return;
    const glm::vec3 dir = p.freeStream / speed;
    // The emitters' outlets are the stream's outflow: every vorton past one
    // leaves the flow (FillEmitters brings fresh fluid in at the inlets), or
    // the wake would trail downstream for ever.
    float outlet = std::numeric_limits<float>::max();  // along dir
    for (const DensityGroup& group : m_setup.groups) {
        if (!group.emit) continue;
        outlet = std::min(outlet, glm::dot(group.center, dir) + glm::dot(glm::abs(dir), group.halfExtents));
    }
    if (outlet == std::numeric_limits<float>::max()) return;
    // Nor before wake_length past a body: a box thin along the stream (flow_past_ball's
    // smoke sheet, 24 mm, with the stream turned across it) would otherwise cut the
    // wake of a ball beside it at once, where ForgetFarWake lets it reach wake_length.
    // Past max(outlet, this), a vorton is farther than wake_length from every body, where
    // the far wake's cut lets go what carries only vorticity.
    if (p.wakeLength > 0.0f) {
        for (const BodyState& body : m_bodies) outlet = std::max(outlet, glm::dot(body.position, dir) + p.wakeLength);
    }
    m_keep.assign(m_vortons.Size(), 1);
    bool anyGone = false;
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        if (glm::dot(m_vortons.position[k], dir) > outlet) {
            m_keep[k] = 0;
            anyGone = true;
            m_kelvinStrength -= glm::dvec3(m_vortons.vorticity[k]) * double(m_vortons.volume[k]);
        }
    }
    if (anyGone) {
        m_vortons.Compact(m_keep);
        m_cacheValid = false;
    }
}

void Simulation::FillEmitters() {
    const float h = m_lattice.spacing;
    if (!(h > 0.0f) || glm::dot(m_setup.params.freeStream, m_setup.params.freeStream) == 0.0f) return;
    const float sigma = m_vortons.Size() ? m_vortons.radius[0] : m_setup.params.coreOverlap * h;
    for (std::size_t g = 0; g < m_setup.groups.size(); ++g) {
        const DensityGroup& group = m_setup.groups[g];
        if (!group.emit || !SeedsVortons(m_setup, g)) continue;
        // The lattice points of the emitter's box, and which of them hold a vorton.
        const glm::ivec3 lo = glm::ivec3(glm::ceil((group.center - group.halfExtents - m_lattice.origin) / h));
        const glm::ivec3 hi = glm::ivec3(glm::floor((group.center + group.halfExtents - m_lattice.origin) / h));
        const glm::ivec3 dims = hi - lo + 1;
        if (dims.x <= 0 || dims.y <= 0 || dims.z <= 0) continue;
        m_keep.assign(std::size_t(dims.x) * std::size_t(dims.y) * std::size_t(dims.z), 0);
        auto index = [&](glm::ivec3 c) {
            const glm::ivec3 l = c - lo;
            return (std::size_t(l.z) * std::size_t(dims.y) + std::size_t(l.y)) * std::size_t(dims.x) + std::size_t(l.x);
        };
        for (const glm::vec3& x : m_vortons.position) {
            const glm::ivec3 c = glm::ivec3(glm::round((x - m_lattice.origin) / h));
            if (glm::all(glm::greaterThanEqual(c, lo)) && glm::all(glm::lessThanEqual(c, hi))) m_keep[index(c)] = 1;
        }
        const std::size_t before = m_vortons.Size();
        for (int k = lo.z; k <= hi.z; ++k) {
            for (int j = lo.y; j <= hi.y; ++j) {
                for (int i = lo.x; i <= hi.x; ++i) {
                    if (m_keep[index({i, j, k})]) continue;
                    const glm::vec3 x = m_lattice.origin + h * glm::vec3(i, j, k);
                    bool inBody = false;
                    for (std::size_t b = 0; b < m_bodies.size(); ++b) {
                        const glm::vec3 d = x - m_bodies[b].position;
                        inBody = inBody || glm::dot(d, d) < m_setup.bodies[b].radius * m_setup.bodies[b].radius;
                    }
                    if (!inBody) m_vortons.Add(x, glm::vec3(0.0f), sigma, h * h * h, std::uint16_t(g));
                }
            }
        }
        if (m_vortons.Size() != before) m_cacheValid = false;
    }
}

void Simulation::EmitTracers() {
    const SimParams& p = m_setup.params;
    const float speed = glm::length(p.freeStream);
    if (speed == 0.0f) return;
    const glm::vec3 dir = p.freeStream / speed;
    const std::uint64_t step = std::uint64_t(m_steps);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m_tracers.Size(), 4096), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            const DensityGroup& group = m_setup.groups[m_tracers.group[i]];
            if (!group.emit) continue;
            const float reach = glm::dot(glm::abs(dir), group.halfExtents);
            const glm::vec3 rel = m_tracers.position[i] - group.center;
            const float s = glm::dot(rel, dir);
            if (s <= reach) continue;
            // Fresh smoke at the inlet face: uniform across the box, behind
            // the face by as far as this one had passed the outlet.
            const glm::vec3 uniform(Hash01(i, 3 * step), Hash01(i, 3 * step + 1), Hash01(i, 3 * step + 2));
            glm::vec3 x = group.center + (2.0f * uniform - 1.0f) * group.halfExtents;
            x += (-reach + (s - reach) - glm::dot(x - group.center, dir)) * dir;
            m_tracers.position[i] = x;
            m_tracers.velocity[i] = p.freeStream;
        }
    });
}

void Simulation::ReleaseBodyDye() {
    const std::size_t ng = m_setup.groups.size(), nb = m_bodies.size();
    const auto releases = [](const DensityGroup& g) { return g.releaseBeyond > 0.0f; };
    if (nb == 0 || std::none_of(m_setup.groups.begin(), m_setup.groups.end(), releases)) return;
    // Per group: its body, or −1. The first whose reset position is in the group's shape
    // (grown by its radius); else the one nearest the group's centre. First, not nearest:
    // a ball added from the panel (appended) beside the scene's does not take its dye.
    std::vector<int> source(ng, -1);
    for (std::size_t g = 0; g < ng; ++g) {
        if (!releases(m_setup.groups[g])) continue;
        for (std::size_t b = 0; b < nb && source[g] < 0; ++b) {
            if (ShapeContains(m_setup.groups[g], m_setup.bodies[b].position, m_setup.bodies[b].radius)) source[g] = int(b);
        }
        if (source[g] >= 0) continue;
        float best = std::numeric_limits<float>::max();
        for (std::size_t b = 0; b < nb; ++b) {
            const glm::vec3 d = m_setup.bodies[b].position - m_setup.groups[g].center;
            if (glm::dot(d, d) < best) {
                best = glm::dot(d, d);
                source[g] = int(b);
            }
        }
    }
    const std::uint64_t step = std::uint64_t(m_steps);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m_tracers.Size(), 4096), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            const std::uint16_t g = m_tracers.group[i];
            if (g >= ng || source[g] < 0) continue;
            const BodyState& body = m_bodies[std::size_t(source[g])];
            const float reach = m_setup.groups[g].releaseBeyond;
            const glm::vec3 rel = m_tracers.position[i] - body.position;
            if (glm::dot(rel, rel) <= reach * reach) continue;
            // A uniform point of the sphere (z and azimuth uniform), just
            // outside the surface so the collision with the body keeps it;
            // on the half facing away from the body's motion through the
            // fluid, where the boundary layer leaves it for the wake.
            const float z = 2.0f * Hash01(i, 2 * step + 1) - 1.0f;
            const float phi = 2.0f * std::numbers::pi_v<float> * Hash01(i, 2 * step + 2);
            const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
            glm::vec3 n(r * std::cos(phi), r * std::sin(phi), z);
            if (glm::dot(n, body.velocity - m_setup.params.freeStream) > 0.0f) n = -n;
            const float radius = m_setup.bodies[std::size_t(source[g])].radius;
            m_tracers.position[i] = body.position + 1.02f * radius * n;
            m_tracers.velocity[i] = body.velocity + glm::cross(body.angularVelocity, radius * n);
        }
    });
}

}  // namespace vorton
