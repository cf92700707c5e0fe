// The whole state of a run as bytes, and back (Simulation::AppendState / RestoreState):
// what snapshots (scene/snapshot.h) and the app's rewind keep. The state, not the numerics:
// nothing here changes how a step computes.
#include "sim/simulation.h"
#include "sim/simulation_internals.h"

#include <cstring>
#include <sstream>
#include <type_traits>

namespace vorton {

namespace {

/// Appends raw bytes of trivially copyable values and arrays (length first, u64).
struct Writer {
    std::string& out;

    template <typename T>
    void Put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        out.append(reinterpret_cast<const char*>(&value), sizeof(T));
    }
    template <typename T>
    void PutArray(const std::vector<T>& values) {
        static_assert(std::is_trivially_copyable_v<T>);
        Put(std::uint64_t(values.size()));
        if (!values.empty()) out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    }
};

/// Reads what Writer wrote; the first shortfall is kept as an error naming the field.
struct Reader {
    std::string_view bytes;
    std::size_t at = 0;
    std::string error;

    bool Need(std::size_t n, const char* field) {
        if (!error.empty()) return false;
        if (n <= bytes.size() - at) return true;
        std::ostringstream msg;
        msg << "truncated: " << field << " needs " << n << " bytes at byte " << at << ", " << bytes.size() - at
            << " left";
        error = msg.str();
        return false;
    }
    template <typename T>
    void Get(T& value, const char* field) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (Need(sizeof(T), field)) {
            std::memcpy(&value, bytes.data() + at, sizeof(T));
            at += sizeof(T);
        }
    }
    template <typename T>
    void GetArray(std::vector<T>& values, const char* field) {
        std::uint64_t n = 0;
        Get(n, field);
        if (!error.empty()) return;
        // Checked against what is left before allocating: a corrupt length is an error, not a bad_alloc.
        if (n > (bytes.size() - at) / sizeof(T)) {
            std::ostringstream msg;
            msg << "truncated: " << field << " has " << n << " elements of " << sizeof(T) << " bytes at byte " << at
                << ", " << bytes.size() - at << " left";
            error = msg.str();
            return;
        }
        values.resize(std::size_t(n));
        if (n == 0) return;  // an empty vector's data() may be null, which memcpy may not be given
        std::memcpy(values.data(), bytes.data() + at, std::size_t(n) * sizeof(T));
        at += std::size_t(n) * sizeof(T);
    }
};

static_assert(sizeof(Aabb) == 24 && sizeof(Lattice) == 16 && sizeof(GridGeometry) == 36,
              "snapshot layout: no padding in the structs written whole");

/// A bool as one byte.
std::uint8_t Byte(bool b) { return b ? 1 : 0; }

}  // namespace

Status Simulation::AppendState(std::string& out) const {
    Writer w{out};
    w.Put(m_time);
    w.Put(std::int64_t(m_steps));
    w.PutArray(m_vortons.position);
    w.PutArray(m_vortons.vorticity);
    w.PutArray(m_vortons.radius);
    w.PutArray(m_vortons.volume);
    w.PutArray(m_vortons.group);
    w.PutArray(m_vortons.massFraction);
    w.PutArray(m_vortons.birthHeight);
    w.PutArray(m_tracers.position);
    w.PutArray(m_tracers.velocity);
    w.PutArray(m_tracers.group);
    w.Put(m_lattice);
    w.Put(std::uint64_t(m_seededVortons));
    w.Put(m_seededSpacing);
    w.Put(std::int64_t(m_remeshCount));
    w.Put(std::int64_t(m_remeshCapped));
    w.Put(m_remeshDropped);
    w.Put(std::uint64_t(m_lastRemesh.before));
    w.Put(std::uint64_t(m_lastRemesh.after));
    w.Put(m_lastRemesh.droppedStrength);
    w.Put(Byte(m_lastRemesh.capped));
    w.Put(std::int32_t(m_lastRemesh.coarsened));
    w.Put(m_lastRemesh.lattice);
    w.Put(m_lastRemesh.sigma);
    w.Put(m_kelvinStrength);
    w.Put(m_collisionImpulse);
    w.Put(m_lastMaxSpeed);
    w.Put(m_lastVortonSpeed);
    w.Put(m_bounds);
    w.Put(std::uint8_t(m_activeSolver));
    w.Put(m_stageMs);
    w.Put(m_stepMs);
    w.Put(std::uint64_t(m_work.vortons));
    w.Put(std::uint64_t(m_work.solverGridPoints));
    w.Put(std::uint64_t(m_work.solverPoints));
    w.Put(std::uint64_t(m_work.tracerGridPoints));
    // The velocities the last step computed for the next one, so the continuation reuses
    // them as the uninterrupted run does rather than relying on a fresh evaluation (on the
    // first step's grid, not the last step's) giving the same bits.
    w.Put(Byte(m_cacheValid));
    w.Put(std::uint8_t(m_cacheKey.solver));
    w.Put(m_cacheKey.theta);
    w.Put(std::int32_t(m_cacheKey.leafSize));
    w.Put(std::int32_t(m_cacheKey.gridCells));
    w.Put(m_cacheKey.gridSpacing);
    w.Put(std::uint64_t(m_cacheKey.vortons));
    w.Put(std::uint64_t(m_cacheKey.tracers));
    w.PutArray(m_velocity0);
    w.PutArray(m_stretch0);
    w.PutArray(m_gridPacked0);
    w.Put(m_velocityGrid.base);
    w.Put(std::int32_t(m_velocityGrid.levels));
    w.Put(m_tracerBounds);
    w.Put(Byte(m_tracerBoundsValid));
    w.PutArray(m_gridNeeded);
    // The bodies: their motion and what the next coupling counts. Each field on its own:
    // BodyState has padding. Not the image flow of bodies that make their own vorticity: every
    // step evaluates it again before coupling (Snapshot.LoadedRunContinuesBitForBit covers
    // falling_ball and ball_through_smoke).
    w.Put(std::uint64_t(m_bodies.size()));
    for (const BodyState& b : m_bodies) {
        w.Put(b.position);
        w.Put(b.velocity);
        w.Put(b.angularVelocity);
        w.Put(b.orientation);
        w.Put(b.fluidForce);
        w.Put(b.weightForce);
        w.Put(b.fluidTorque);
        w.Put(b.fluidDensity);
        w.Put(Byte(b.grabbed));
        w.Put(b.grabTarget);
    }
    w.PutArray(m_pendingPushImpulse);
    w.PutArray(m_bodyFresh);
    return Ok{};
}

Status Simulation::RestoreState(std::string_view bytes) {
    // Everything is read into copies first; the simulation changes only once all of it was read and checked.
    Reader r{bytes, 0, {}};
    double time = 0.0;
    std::int64_t steps = 0;
    Vortons vortons;
    Tracers tracers;
    r.Get(time, "time");
    r.Get(steps, "step count");
    r.GetArray(vortons.position, "vortons.position");
    r.GetArray(vortons.vorticity, "vortons.vorticity");
    r.GetArray(vortons.radius, "vortons.radius");
    r.GetArray(vortons.volume, "vortons.volume");
    r.GetArray(vortons.group, "vortons.group");
    r.GetArray(vortons.massFraction, "vortons.massFraction");
    r.GetArray(vortons.birthHeight, "vortons.birthHeight");
    r.GetArray(tracers.position, "tracers.position");
    r.GetArray(tracers.velocity, "tracers.velocity");
    r.GetArray(tracers.group, "tracers.group");
    Lattice lattice;
    std::uint64_t seededVortons = 0, before = 0, after = 0;
    float seededSpacing = 0.0f;
    std::int64_t remeshCount = 0, remeshCapped = 0;
    double remeshDropped = 0.0;
    RemeshReport lastRemesh;
    std::uint8_t capped = 0;
    std::int32_t coarsened = 0;
    r.Get(lattice, "lattice");
    r.Get(seededVortons, "seeded vortons");
    r.Get(seededSpacing, "seeded spacing");
    r.Get(remeshCount, "remesh count");
    r.Get(remeshCapped, "remesh capped count");
    r.Get(remeshDropped, "remesh dropped strength");
    r.Get(before, "last remesh");
    r.Get(after, "last remesh");
    r.Get(lastRemesh.droppedStrength, "last remesh");
    r.Get(capped, "last remesh");
    r.Get(coarsened, "last remesh");
    r.Get(lastRemesh.lattice, "last remesh");
    r.Get(lastRemesh.sigma, "last remesh");
    lastRemesh.before = std::size_t(before);
    lastRemesh.after = std::size_t(after);
    lastRemesh.capped = capped != 0;
    lastRemesh.coarsened = coarsened;
    glm::dvec3 kelvin(0.0), collision(0.0);
    double lastMaxSpeed = 0.0, lastVortonSpeed = 0.0, stepMs = 0.0;
    Aabb bounds, tracerBounds;
    std::uint8_t activeSolver = 0, cacheValid = 0, tracerBoundsValid = 0, keySolver = 0;
    StageTimes stageMs{};
    std::uint64_t work[4] = {};
    r.Get(kelvin, "Kelvin strength");
    r.Get(collision, "collision impulse");
    r.Get(lastMaxSpeed, "last max speed");
    r.Get(lastVortonSpeed, "last vorton speed");
    r.Get(bounds, "bounds");
    r.Get(activeSolver, "active solver");
    r.Get(stageMs, "stage times");
    r.Get(stepMs, "step time");
    for (std::uint64_t& wk : work) r.Get(wk, "step work");
    CacheKey key{};
    std::int32_t leafSize = 0, gridCells = 0, levels = 0;
    std::uint64_t keyVortons = 0, keyTracers = 0;
    r.Get(cacheValid, "velocity cache");
    r.Get(keySolver, "velocity cache key");
    r.Get(key.theta, "velocity cache key");
    r.Get(leafSize, "velocity cache key");
    r.Get(gridCells, "velocity cache key");
    r.Get(key.gridSpacing, "velocity cache key");
    r.Get(keyVortons, "velocity cache key");
    r.Get(keyTracers, "velocity cache key");
    std::vector<glm::vec3> velocity0, stretch0;
    std::vector<GridSampler::Float4> packed0;
    NestedGrid grid;
    std::vector<std::uint8_t> needed;
    r.GetArray(velocity0, "cached vorton velocities");
    r.GetArray(stretch0, "cached vorton stretching");
    r.GetArray(packed0, "cached tracer grid");
    r.Get(grid.base, "tracer grid geometry");
    r.Get(levels, "tracer grid levels");
    r.Get(tracerBounds, "tracer bounds");
    r.Get(tracerBoundsValid, "tracer bounds");
    r.GetArray(needed, "tracer grid mask");
    std::uint64_t bodyCount = 0;
    r.Get(bodyCount, "body count");
    std::vector<BodyState> bodies;
    if (r.error.empty() && bodyCount != m_setup.bodies.size()) {
        return Error{"a state with " + std::to_string(bodyCount) + " bodies, but the scene has " +
                     std::to_string(m_setup.bodies.size()) + " (a state of another scene)"};
    }
    bodies.resize(std::size_t(r.error.empty() ? bodyCount : 0));
    for (BodyState& b : bodies) {
        std::uint8_t grabbed = 0;
        r.Get(b.position, "body");
        r.Get(b.velocity, "body");
        r.Get(b.angularVelocity, "body");
        r.Get(b.orientation, "body");
        r.Get(b.fluidForce, "body");
        r.Get(b.weightForce, "body");
        r.Get(b.fluidTorque, "body");
        r.Get(b.fluidDensity, "body");
        r.Get(grabbed, "body");
        r.Get(b.grabTarget, "body");
        b.grabbed = grabbed != 0;
    }
    std::vector<glm::dvec3> pendingPush;
    std::vector<std::uint8_t> bodyFresh;
    r.GetArray(pendingPush, "pending push impulse");
    r.GetArray(bodyFresh, "fresh bodies");
    if (!r.error.empty()) return Error{r.error};
    if (pendingPush.size() > bodies.size() || bodyFresh.size() != m_bodyFresh.size()) {
        return Error{"per-body entries that do not fit " + std::to_string(bodies.size()) + " bodies"};
    }
    if (r.at != bytes.size()) {
        return Error{std::to_string(bytes.size() - r.at) + " bytes after the end of the state (not a state of this version)"};
    }
    // Sizes and indices that must agree with each other and with this setup.
    const std::size_t n = vortons.position.size();
    if (vortons.vorticity.size() != n || vortons.radius.size() != n || vortons.volume.size() != n ||
        vortons.group.size() != n || vortons.massFraction.size() != n || vortons.birthHeight.size() != n) {
        return Error{"the vortons' arrays differ in length"};
    }
    if (tracers.group.size() != tracers.position.size() ||
        (!tracers.velocity.empty() && tracers.velocity.size() != tracers.position.size())) {
        return Error{"the tracers' arrays differ in length"};
    }
    const std::size_t groups = m_setup.groups.size();
    for (const std::uint16_t g : vortons.group) {
        if (g != kAmbientGroup && g >= groups) {
            return Error{"a vorton of group " + std::to_string(g) + ", but the scene has " + std::to_string(groups) +
                         " groups (a state of another scene)"};
        }
    }
    for (const std::uint16_t g : tracers.group) {
        if (g >= groups) {
            return Error{"a tracer of group " + std::to_string(g) + ", but the scene has " + std::to_string(groups) +
                         " groups (a state of another scene)"};
        }
    }
    if (activeSolver > std::uint8_t(Solver::Auto) || keySolver > std::uint8_t(Solver::Auto)) {
        return Error{"an unknown solver"};
    }
    if (levels < 1 || levels > kMaxGridLevels) return Error{"a tracer grid of " + std::to_string(levels) + " levels"};
    grid.levels = levels;
    if (cacheValid) {
        if (velocity0.size() != n || stretch0.size() != n) return Error{"cached velocities of another vorton count"};
        if (!tracers.position.empty() && (packed0.size() != grid.PointCount() || needed.size() != grid.PointCount())) {
            return Error{"a cached tracer grid of another size than its geometry"};
        }
    }
    key.solver = Solver(keySolver);
    key.leafSize = leafSize;
    key.gridCells = gridCells;
    key.vortons = std::size_t(keyVortons);
    key.tracers = std::size_t(keyTracers);

    // All read and checked: the state is replaced.
    m_time = time;
    m_steps = steps;
    m_vortons = std::move(vortons);
    m_tracers = std::move(tracers);
    m_lattice = lattice;
    m_seededVortons = std::size_t(seededVortons);
    m_seededSpacing = seededSpacing;
    m_remeshCount = remeshCount;
    m_remeshCapped = remeshCapped;
    m_remeshDropped = remeshDropped;
    m_lastRemesh = lastRemesh;
    m_kelvinStrength = kelvin;
    m_collisionImpulse = collision;
    m_lastMaxSpeed = lastMaxSpeed;
    m_lastVortonSpeed = lastVortonSpeed;
    m_bounds = bounds;
    m_activeSolver = Solver(activeSolver);
    m_stageMs = stageMs;
    m_stepMs = stepMs;
    m_work = StepWork{std::size_t(work[0]), std::size_t(work[1]), std::size_t(work[2]), std::size_t(work[3])};
    m_cacheValid = cacheValid != 0;
    m_cacheKey = key;
    m_velocity0 = std::move(velocity0);
    m_stretch0 = std::move(stretch0);
    m_gridPacked0 = std::move(packed0);
    m_velocityGrid = grid;
    m_tracerBounds = tracerBounds;
    m_tracerBoundsValid = tracerBoundsValid != 0;
    m_gridNeeded = std::move(needed);
    m_densityGridValid = false;
    m_internals->profile.Build(m_setup.groups, m_seededSpacing);
    m_bodies = std::move(bodies);
    m_pendingPushImpulse = std::move(pendingPush);
    m_bodyFresh = std::move(bodyFresh);
    return Ok{};
}

}  // namespace vorton
