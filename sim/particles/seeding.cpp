#include "sim/particles/seeding.h"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <random>
#include <set>
#include <sstream>

#include <glm/geometric.hpp>

namespace vorton {

namespace {
constexpr float kPi = std::numbers::pi_v<float>;

/// True when x lies inside one of the rigid spheres (no fluid is seeded there).
bool InsideBody(const SceneSetup& setup, glm::vec3 x) {
    for (const BodySpec& b : setup.bodies) {
        const glm::vec3 d = x - b.position;
        if (glm::dot(d, d) < b.radius * b.radius) return true;
    }
    return false;
}

float WaveOffset(const DensityGroup& g, glm::vec3 x) {
    if (g.waveAmplitude == 0.0f) return 0.0f;
    const float k = 2.0f * kPi / g.waveLength;
    return g.waveAmplitude * std::cos(k * x.x) * std::cos(k * x.y);
}
}  // namespace

std::string SetupProblem(const SceneSetup& setup) {
    std::set<std::string> names;
    for (const DensityGroup& g : setup.groups) {
        if (!names.insert(g.name).second) return "duplicate name '" + g.name + "'";
        if ((g.layer || g.emit) && g.shape != DensityGroup::Shape::Box) {
            return "group '" + g.name + "': " + (g.layer ? "a layer" : "an emitter") + " must be a box";
        }
    }
    for (const BodySpec& b : setup.bodies) {
        if (b.name.empty()) return "a body needs a name";
        if (!names.insert(b.name).second) return "duplicate name '" + b.name + "' (bodies and groups share names)";
        if (!(b.radius > 0.0f)) return "body '" + b.name + "': radius must be > 0 m";
        if (!b.fixed && !(b.density > 0.0f)) {
            return "body '" + b.name + "': a free body needs density > 0 kg/m^3 (it would have no mass); "
                   "give it a density or make it fixed";
        }
        if (b.oscillationPeriod > 0.0f && !b.fixed) {
            return "body '" + b.name + "': only a fixed body can oscillate (oscillation_period > 0 prescribes its "
                   "motion); make it fixed or set oscillation_period to 0";
        }
    }
    const SimParams& p = setup.params;
    if (!(p.ambientDensity > 0.0f)) return "ambient_density must be > 0 kg/m^3";
    if (p.bodySheet && !setup.bodies.empty() && p.remeshEvery < 1) {
        // Measured: falling_ball with remesh_every 0 had 33,936 vortons at 2 s and blew up at 4 s.
        return "remesh_every 0 with body_sheet: each body releases a sheet of new vortons every step, and only "
               "remeshing merges them into the lattice and bounds the wake (without it the count grows by a "
               "sheet a step and the run blows up within seconds); give remesh_every >= 1 (the scenes use 5 or 10)";
    }
    for (const DensityGroup& g : setup.groups) {
        // A layer's deviation is relative to the ambient too (the profile's ends).
        const float rho = p.ambientDensity + g.densityDeviation;
        if (!(rho > 0.0f)) {
            std::ostringstream msg;
            msg << "group '" << g.name << "': ambient_density + density_deviation = " << rho
                << " kg/m^3; a fluid's density must be > 0";
            return msg.str();
        }
    }
    for (std::size_t a = 0; a < setup.bodies.size(); ++a) {
        for (std::size_t b = a + 1; b < setup.bodies.size(); ++b) {
            const BodySpec& A = setup.bodies[a];
            const BodySpec& B = setup.bodies[b];
            if (glm::length(A.position - B.position) < A.radius + B.radius) {
                return "body '" + A.name + "' and body '" + B.name +
                       "' overlap (centres closer than the sum of their radii); move them apart";
            }
        }
    }
    // A group whose whole shape lies inside one body would seed no fluid.
    for (const DensityGroup& g : setup.groups) {
        const Aabb box = ShapeBounds(g, g.halo);
        for (const BodySpec& b : setup.bodies) {
            bool inside = true;
            for (int c = 0; c < 8 && inside; ++c) {
                const glm::vec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                                       (c & 4) ? box.max.z : box.min.z);
                inside = glm::length(corner - b.position) < b.radius;
            }
            if (inside) {
                return "group '" + g.name + "' lies entirely inside body '" + b.name +
                       "', so it would have no fluid; make the body smaller or move it";
            }
        }
    }
    for (const DensityGroup& g : setup.groups) {
        if (g.releaseBeyond > 0.0f && setup.bodies.empty()) {
            return "group '" + g.name + "' has release_beyond = " + std::to_string(g.releaseBeyond) +
                   " but the scene has no body to release its dye; add a body or set it to 0";
        }
    }
    if (setup.groups.empty() && !setup.params.bodySheet) {
        return "a scene without groups (clear water) needs body_sheet = true: only bodies that make their own "
               "vorticity move the fluid there";
    }
    // The lattice's points are each tested against the groups: a box far
    // larger than the groups' volume (a wave amplitude of kilometres) would
    // take minutes to seed, and as many vortons' spacing for nothing.
    const SeedingGrid grid = SeedingGridOf(setup);
    const double most = kSeedingPointsPerVorton * double(p.vortonCount) + double(kSeedingPointsFloor);
    if (grid.points > most) {
        std::ostringstream msg;
        msg << std::fixed << std::setprecision(0) << "the groups' bounding box spans " << grid.points << " seeding lattice points for vorton_count = "
            << p.vortonCount << " (at most " << most
            << "): their shapes reach far beyond their volume (a wave_amplitude larger than its box, or groups "
               "far apart); make the shapes compact or the count larger";
        return msg.str();
    }
    Vortons trial;
    SeedVortons(setup, trial, nullptr);
    bool anySeeded = false;
    for (std::size_t g = 0; g < setup.groups.size(); ++g) anySeeded = anySeeded || SeedsVortons(setup, g);
    if (trial.Size() == 0 && anySeeded) {
        return "vorton_count = " + std::to_string(p.vortonCount) +
               " seeds no vorton (the lattice spacing it gives is larger than the groups); use a larger count";
    }
    return {};
}

float ShapeVolume(const DensityGroup& g) {
    switch (g.shape) {
        case DensityGroup::Shape::Sphere: return 4.0f / 3.0f * kPi * g.radius * g.radius * g.radius;
        case DensityGroup::Shape::Box: return 8.0f * g.halfExtents.x * g.halfExtents.y * g.halfExtents.z;
        case DensityGroup::Shape::Torus: return 2.0f * kPi * kPi * g.radius * g.minorRadius * g.minorRadius;
    }
    return 0.0f;
}

bool ShapeContains(const DensityGroup& g, glm::vec3 x, float grow) {
    const glm::vec3 d = x - g.center;
    switch (g.shape) {
        case DensityGroup::Shape::Sphere: return glm::dot(d, d) < (g.radius + grow) * (g.radius + grow);
        case DensityGroup::Shape::Box: {
            const glm::vec3 he = g.halfExtents + glm::vec3(grow);
            const float dz = d.z - WaveOffset(g, x);
            return std::abs(d.x) < he.x && std::abs(d.y) < he.y && std::abs(dz) < he.z;
        }
        case DensityGroup::Shape::Torus: {
            const float rho = std::sqrt(d.x * d.x + d.y * d.y) - g.radius;
            const float a = g.minorRadius + grow;
            return rho * rho + d.z * d.z < a * a;
        }
    }
    return false;
}

Aabb ShapeBounds(const DensityGroup& g, float grow) {
    glm::vec3 half(0.0f);
    switch (g.shape) {
        case DensityGroup::Shape::Sphere: half = glm::vec3(g.radius); break;
        case DensityGroup::Shape::Box:
            half = g.halfExtents + glm::vec3(0.0f, 0.0f, std::abs(g.waveAmplitude));
            break;
        case DensityGroup::Shape::Torus:
            half = glm::vec3(g.radius + g.minorRadius, g.radius + g.minorRadius, g.minorRadius);
            break;
    }
    half += glm::vec3(grow);
    return Aabb{g.center - half, g.center + half};
}

SeedingGrid SeedingGridOf(const SceneSetup& setup) {
    SeedingGrid grid;
    if (setup.params.vortonCount <= 0) return grid;
    float totalVolume = 0.0f;
    Aabb bounds;
    for (std::size_t gi = 0; gi < setup.groups.size(); ++gi) {
        if (!SeedsVortons(setup, gi)) continue;
        const DensityGroup& g = setup.groups[gi];
        DensityGroup grown = g;
        grown.radius += g.shape == DensityGroup::Shape::Torus ? 0.0f : g.halo;
        grown.minorRadius += g.halo;
        grown.halfExtents += glm::vec3(g.halo);
        totalVolume += ShapeVolume(grown);
        bounds.Grow(ShapeBounds(g, g.halo));
    }
    if (!(totalVolume > 0.0f)) return grid;
    grid.h = std::cbrt(totalVolume / float(setup.params.vortonCount));
    // Counted in double: a box far larger than the groups' volume (a huge
    // wave) would overflow an int.
    const glm::vec3 cells = glm::max(glm::ceil(bounds.Extent() / grid.h), glm::vec3(1.0f));
    grid.points = double(cells.x) * double(cells.y) * double(cells.z);
    if (grid.points > 1.0e12 || glm::max(cells.x, glm::max(cells.y, cells.z)) > 1.0e9f) return grid;  // n left 0
    grid.n = glm::ivec3(cells);
    // Centre the lattice on the bounds so symmetric scenes seed symmetrically.
    grid.origin = bounds.Center() - 0.5f * grid.h * glm::vec3(grid.n) + glm::vec3(0.5f * grid.h);
    return grid;
}

float ClearWaterSpacing(std::span<const BodySpec> bodies, float bodyResolution) {
    const float resolution = std::max(1.0f, bodyResolution);
    const float floorSpans = std::min(resolution, kMinSheetBodySpans);
    float h = bodies.front().radius / resolution;
    for (const BodySpec& b : bodies) h = std::min(h, b.radius / floorSpans);
    return h;
}

bool SeedsVortons(const SceneSetup& setup, std::size_t g) {
    const DensityGroup& group = setup.groups[g];
    const bool inert = group.densityDeviation == 0.0f && group.circulation == 0.0f && !group.layer;
    return !(inert && setup.params.bodySheet && !setup.bodies.empty());
}

void SeedVortons(const SceneSetup& setup, Vortons& vortons, Lattice* lattice) {
    vortons.Clear();
    if (lattice) *lattice = Lattice{};
    const auto& groups = setup.groups;
    assert(groups.size() < kAmbientGroup);
    if (groups.empty() || setup.params.vortonCount <= 0) return;

    const SeedingGrid grid = SeedingGridOf(setup);
    if (grid.Points() == 0) return;  // only dye: the bodies set the lattice
    const float h = grid.h;
    const glm::ivec3 n = grid.n;
    const glm::vec3 origin = grid.origin;
    const float volume = h * h * h;
    const float sigma = setup.params.coreOverlap * h;
    if (lattice) *lattice = Lattice{origin, h};

    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 x = origin + h * glm::vec3(i, j, k);
                if (InsideBody(setup, x)) continue;
                std::uint16_t owner = kAmbientGroup;
                bool inHalo = false;
                for (std::size_t g = 0; g < groups.size(); ++g) {
                    if (!SeedsVortons(setup, g)) continue;
                    if (ShapeContains(groups[g], x)) {
                        owner = std::uint16_t(g);
                        break;
                    }
                    inHalo = inHalo || (groups[g].halo > 0.0f && ShapeContains(groups[g], x, groups[g].halo));
                }
                if (owner == kAmbientGroup && !inHalo) continue;
                glm::vec3 omega(0.0f);
                if (owner != kAmbientGroup) {
                    const DensityGroup& g = groups[owner];
                    if (g.shape == DensityGroup::Shape::Torus && g.circulation != 0.0f) {
                        const glm::vec3 d = x - g.center;
                        const float rho = std::sqrt(d.x * d.x + d.y * d.y);
                        if (rho > 0.0f) {
                            const glm::vec3 azimuth(-d.y / rho, d.x / rho, 0.0f);
                            omega = azimuth * (g.circulation / (kPi * g.minorRadius * g.minorRadius));
                        }
                    }
                }
                vortons.Add(x, omega, sigma, volume, owner);
            }
        }
    }
}

void SeedTracers(const SceneSetup& setup, Tracers& tracers) {
    tracers.Clear();
    const auto& groups = setup.groups;
    const int total = setup.params.tracerCount;
    if (groups.empty() || total <= 0) return;
    float totalVolume = 0.0f;
    for (const auto& g : groups) totalVolume += ShapeVolume(g);
    if (totalVolume <= 0.0f) return;

    tracers.position.reserve(std::size_t(total));
    int assigned = 0;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const DensityGroup& g = groups[gi];
        // The last group takes the remainder so the count is exact.
        const int count = gi + 1 == groups.size() ? total - assigned
                                                  : int(std::lround(total * ShapeVolume(g) / totalVolume));
        assigned += count;
        std::mt19937 rng(std::uint32_t(setup.params.seed) * 7919u + std::uint32_t(gi));
        const Aabb box = ShapeBounds(g);
        auto uniform = [&rng] { return float(rng() >> 8) * (1.0f / 16777216.0f); };
        for (int placed = 0, tries = 0; placed < count && tries < 100 * count + 1000; ++tries) {
            const glm::vec3 x = box.min + glm::vec3(uniform(), uniform(), uniform()) * box.Extent();
            if (!ShapeContains(g, x) || InsideBody(setup, x)) continue;
            tracers.Add(x, std::uint16_t(gi));
            ++placed;
        }
    }
    SortTracersSpatially(tracers);
}

void SortTracersSpatially(Tracers& tracers) {
    const std::size_t n = tracers.Size();
    if (n < 2) return;
    const Aabb box = BoundsOf(tracers.position);
    if (box.Empty()) return;
    const glm::vec3 scale = 1023.0f / glm::max(box.Extent(), glm::vec3(1.0e-6f));
    auto spread = [](std::uint64_t v) {  // two zero bits between each of 10 bits
        v &= 0x3ff;
        v = (v | v << 16) & 0x30000ffull;
        v = (v | v << 8) & 0x300f00full;
        v = (v | v << 4) & 0x30c30c3ull;
        v = (v | v << 2) & 0x9249249ull;
        return v;
    };
    struct KeyIndex {
        std::uint64_t key;
        std::uint32_t index;
    };
    std::vector<KeyIndex> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        const glm::vec3 u = glm::clamp((tracers.position[i] - box.min) * scale, glm::vec3(0.0f), glm::vec3(1023.0f));
        keys[i] = {spread(std::uint64_t(u.x)) | spread(std::uint64_t(u.y)) << 1 | spread(std::uint64_t(u.z)) << 2,
                   std::uint32_t(i)};
    }
    // (key, index) is a total order: one result whatever the threads do.
    tbb::parallel_sort(keys.begin(), keys.end(), [](const KeyIndex& a, const KeyIndex& b) {
        return a.key < b.key || (a.key == b.key && a.index < b.index);
    });
    Tracers sorted;
    sorted.position.resize(n);
    sorted.velocity.resize(n);
    sorted.group.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t k = keys[i].index;
        sorted.position[i] = tracers.position[k];
        sorted.velocity[i] = tracers.velocity[k];
        sorted.group[i] = tracers.group[k];
    }
    tracers = std::move(sorted);
}

}  // namespace vorton
