// The whole state of a run as bytes, and back (Simulation::AppendState / RestoreState):
// what snapshots (scene/snapshot.h) and the app's rewind keep. The state, not the numerics:
// nothing here changes how a step computes.
#include "sim/simulation.h"
#include "sim/simulation_internals.h"

#include <cassert>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace vorton {

namespace {

/// Appends raw bytes of trivially copyable values and arrays (length first, u64).
struct Writer {
    std::string& out;

    template <typename T>
    void Field(const T& value, const char* /*field*/) {
        static_assert(std::is_trivially_copyable_v<T>);
        out.append(reinterpret_cast<const char*>(&value), sizeof(T));
    }
    /// A value stored as type S (a size as u64, a bool as a byte, an enum as its underlying type).
    template <typename S, typename T>
    void As(const T& value, const char* field) {
        Field(static_cast<S>(value), field);
    }
    template <typename T>
    void Array(const std::vector<T>& values, const char* field) {
        static_assert(std::is_trivially_copyable_v<T>);
        Field(std::uint64_t(values.size()), field);
        if (!values.empty()) out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    }
    /// The bodies' count was written; nothing to check.
    template <typename T>
    bool Resize(const std::vector<T>& /*values*/, std::uint64_t /*count*/) {
        return true;
    }
};

/// Reads what Writer wrote; the first shortfall is kept as an error naming the field.
struct Reader {
    std::string_view bytes;
    std::size_t at = 0;
    std::string error;
    std::size_t bodies = 0;  ///< the scene's body count: a state with another is refused

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
    void Field(T& value, const char* field) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (Need(sizeof(T), field)) {
            std::memcpy(&value, bytes.data() + at, sizeof(T));
            at += sizeof(T);
        }
    }
    template <typename S, typename T>
    void As(T& value, const char* field) {
        S stored{};
        Field(stored, field);
        value = static_cast<T>(stored);
    }
    template <typename T>
    void Array(std::vector<T>& values, const char* field) {
        std::uint64_t n = 0;
        Field(n, field);
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
    /// Sizes the bodies to the count read; false (and an error) for another count than the scene's.
    template <typename T>
    bool Resize(std::vector<T>& values, std::uint64_t count) {
        if (!error.empty()) return false;
        if (count != bodies) {
            error = "a state with " + std::to_string(count) + " bodies, but the scene has " + std::to_string(bodies) +
                    " (a state of another scene)";
            return false;
        }
        values.resize(std::size_t(count));
        return true;
    }
};

static_assert(sizeof(Aabb) == 24 && sizeof(Lattice) == 16 && sizeof(GridGeometry) == 36,
              "snapshot layout: no padding in the structs written whole");

}  // namespace

/// Named as Simulation's members, so that TransferState reads into it as into the simulation.
struct Simulation::StagedState {
    decltype(Simulation::m_time) m_time{};
    decltype(Simulation::m_steps) m_steps{};
    Vortons m_vortons;
    Tracers m_tracers;
    decltype(Simulation::m_lattice) m_lattice{};
    decltype(Simulation::m_seededVortons) m_seededVortons{};
    decltype(Simulation::m_seededSpacing) m_seededSpacing{};
    decltype(Simulation::m_seededBox) m_seededBox{};
    decltype(Simulation::m_remeshCount) m_remeshCount{};
    decltype(Simulation::m_remeshCapped) m_remeshCapped{};
    decltype(Simulation::m_remeshDropped) m_remeshDropped{};
    decltype(Simulation::m_lastRemesh) m_lastRemesh{};
    decltype(Simulation::m_kelvinStrength) m_kelvinStrength{};
    decltype(Simulation::m_collisionImpulse) m_collisionImpulse{};
    decltype(Simulation::m_lastMaxSpeed) m_lastMaxSpeed{};
    decltype(Simulation::m_lastVortonSpeed) m_lastVortonSpeed{};
    decltype(Simulation::m_bounds) m_bounds{};
    decltype(Simulation::m_activeSolver) m_activeSolver{};
    decltype(Simulation::m_clusterCell) m_clusterCell{};
    decltype(Simulation::m_stageMs) m_stageMs{};
    decltype(Simulation::m_stepMs) m_stepMs{};
    decltype(Simulation::m_work) m_work{};
    decltype(Simulation::m_cacheValid) m_cacheValid{};
    decltype(Simulation::m_cacheKey) m_cacheKey{};
    decltype(Simulation::m_velocity0) m_velocity0;
    decltype(Simulation::m_stretch0) m_stretch0;
    decltype(Simulation::m_gridPacked0) m_gridPacked0;
    decltype(Simulation::m_velocityGrid) m_velocityGrid{};
    decltype(Simulation::m_tracerBounds) m_tracerBounds{};
    decltype(Simulation::m_tracerBoundsValid) m_tracerBoundsValid{};
    decltype(Simulation::m_gridNeeded) m_gridNeeded;
    decltype(Simulation::m_bodies) m_bodies;
    decltype(Simulation::m_pendingPushImpulse) m_pendingPushImpulse;
    decltype(Simulation::m_bodyFresh) m_bodyFresh;
};

template <class Io, class State>
void Simulation::TransferState(Io& io, State& s) {
    io.Field(s.m_time, "time");
    io.template As<std::int64_t>(s.m_steps, "step count");
    io.Array(s.m_vortons.position, "vortons.position");
    io.Array(s.m_vortons.vorticity, "vortons.vorticity");
    io.Array(s.m_vortons.radius, "vortons.radius");
    io.Array(s.m_vortons.volume, "vortons.volume");
    io.Array(s.m_vortons.group, "vortons.group");
    io.Array(s.m_vortons.massFraction, "vortons.massFraction");
    io.Array(s.m_vortons.birthHeight, "vortons.birthHeight");
    io.Array(s.m_tracers.position, "tracers.position");
    io.Array(s.m_tracers.velocity, "tracers.velocity");
    io.Array(s.m_tracers.group, "tracers.group");
    io.Field(s.m_lattice, "lattice");
    io.template As<std::uint64_t>(s.m_seededVortons, "seeded vortons");
    io.Field(s.m_seededSpacing, "seeded spacing");
    io.Field(s.m_seededBox, "seeded box");
    io.template As<std::int64_t>(s.m_remeshCount, "remesh count");
    io.template As<std::int64_t>(s.m_remeshCapped, "remesh capped count");
    io.Field(s.m_remeshDropped, "remesh dropped strength");
    io.template As<std::uint64_t>(s.m_lastRemesh.before, "last remesh");
    io.template As<std::uint64_t>(s.m_lastRemesh.after, "last remesh");
    io.Field(s.m_lastRemesh.droppedStrength, "last remesh");
    io.template As<std::uint8_t>(s.m_lastRemesh.capped, "last remesh");
    io.template As<std::int32_t>(s.m_lastRemesh.coarsened, "last remesh");
    io.Field(s.m_lastRemesh.lattice, "last remesh");
    io.Field(s.m_lastRemesh.sigma, "last remesh");
    io.Field(s.m_kelvinStrength, "Kelvin strength");
    io.Field(s.m_collisionImpulse, "collision impulse");
    io.Field(s.m_lastMaxSpeed, "last max speed");
    io.Field(s.m_lastVortonSpeed, "last vorton speed");
    io.Field(s.m_bounds, "bounds");
    io.template As<std::uint8_t>(s.m_activeSolver, "active solver");
    io.Field(s.m_clusterCell, "solver group cell");
    io.Field(s.m_stageMs, "stage times");
    io.Field(s.m_stepMs, "step time");
    io.template As<std::uint64_t>(s.m_work.vortons, "step work");
    io.template As<std::uint64_t>(s.m_work.solverGridPoints, "step work");
    io.template As<std::uint64_t>(s.m_work.solverPoints, "step work");
    io.template As<std::uint64_t>(s.m_work.tracerGridPoints, "step work");
    // The velocities the last step computed for the next one, so the continuation reuses
    // them as the uninterrupted run does rather than relying on a fresh evaluation (on the
    // first step's grid, not the last step's) giving the same bits.
    io.template As<std::uint8_t>(s.m_cacheValid, "velocity cache");
    io.template As<std::uint8_t>(s.m_cacheKey.solver, "velocity cache key");
    io.Field(s.m_cacheKey.theta, "velocity cache key");
    io.template As<std::int32_t>(s.m_cacheKey.leafSize, "velocity cache key");
    io.template As<std::int32_t>(s.m_cacheKey.gridCells, "velocity cache key");
    io.Field(s.m_cacheKey.gridSpacing, "velocity cache key");
    io.template As<std::uint64_t>(s.m_cacheKey.vortons, "velocity cache key");
    io.template As<std::uint64_t>(s.m_cacheKey.tracers, "velocity cache key");
    io.Field(s.m_cacheKey.clusterCell, "velocity cache key");
    io.Array(s.m_velocity0, "cached vorton velocities");
    io.Array(s.m_stretch0, "cached vorton stretching");
    io.Array(s.m_gridPacked0, "cached tracer grid");
    io.Field(s.m_velocityGrid.base, "tracer grid geometry");
    io.template As<std::int32_t>(s.m_velocityGrid.levels, "tracer grid levels");
    io.Field(s.m_tracerBounds, "tracer bounds");
    io.template As<std::uint8_t>(s.m_tracerBoundsValid, "tracer bounds");
    io.Array(s.m_gridNeeded, "tracer grid mask");
    // The bodies: their motion and what the next coupling counts. Each field on its own:
    // BodyState has padding. Not the image flow of bodies that make their own vorticity: every
    // step evaluates it again before coupling (Snapshot.LoadedRunContinuesBitForBit covers
    // falling_ball and ball_through_smoke).
    std::uint64_t bodyCount = s.m_bodies.size();
    io.Field(bodyCount, "body count");
    if (!io.Resize(s.m_bodies, bodyCount)) return;
    for (auto& b : s.m_bodies) {
        io.Field(b.position, "body");
        io.Field(b.velocity, "body");
        io.Field(b.angularVelocity, "body");
        io.Field(b.orientation, "body");
        io.Field(b.fluidForce, "body");
        io.Field(b.weightForce, "body");
        io.Field(b.fluidTorque, "body");
        io.Field(b.fluidDensity, "body");
        io.template As<std::uint8_t>(b.grabbed, "body");
        io.Field(b.grabTarget, "body");
        io.Field(b.velocityBeforeGrab, "body");
        io.Field(b.fluidSampleVelocity, "body");
        io.Field(b.fluidSamplePosition, "body");
        io.Field(b.fluidSampleTime, "body");
    }
    io.Array(s.m_pendingPushImpulse, "pending push impulse");
    io.Array(s.m_bodyFresh, "fresh bodies");
}

Status Simulation::AppendState(std::string& out) const {
    Writer w{out};
    TransferState(w, *this);
    return Ok{};
}

Status Simulation::RestoreState(std::string_view bytes) {
    // Read into a staged copy and checked first; the simulation changes only once all of it
    // was read and checked, by reading the same bytes again into it.
    Reader r{bytes, 0, {}, m_setup.bodies.size()};
    StagedState s;
    TransferState(r, s);
    if (!r.error.empty()) return Error{r.error};
    if (s.m_pendingPushImpulse.size() > s.m_bodies.size() || s.m_bodyFresh.size() != m_bodyFresh.size()) {
        return Error{"per-body entries that do not fit " + std::to_string(s.m_bodies.size()) + " bodies"};
    }
    if (r.at != bytes.size()) {
        return Error{std::to_string(bytes.size() - r.at) + " bytes after the end of the state (not a state of this version)"};
    }
    // Sizes and indices that must agree with each other and with this setup.
    const Vortons& vortons = s.m_vortons;
    const Tracers& tracers = s.m_tracers;
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
    if (std::uint8_t(s.m_activeSolver) > std::uint8_t(Solver::Auto) ||
        std::uint8_t(s.m_cacheKey.solver) > std::uint8_t(Solver::Auto)) {
        return Error{"an unknown solver"};
    }
    const int levels = s.m_velocityGrid.levels;
    if (levels < 1 || levels > kMaxGridLevels) return Error{"a tracer grid of " + std::to_string(levels) + " levels"};
    if (s.m_cacheValid) {
        if (s.m_velocity0.size() != n || s.m_stretch0.size() != n) return Error{"cached velocities of another vorton count"};
        const std::size_t points = s.m_velocityGrid.PointCount();
        if (!tracers.position.empty() && (s.m_gridPacked0.size() != points || s.m_gridNeeded.size() != points)) {
            return Error{"a cached tracer grid of another size than its geometry"};
        }
    }

    // All read and checked: the state is replaced.
    Reader again{bytes, 0, {}, m_setup.bodies.size()};
    TransferState(again, *this);
    assert(again.error.empty() && again.at == bytes.size());
    // The state's bodies are the setup's, in its order.
    m_bodyNames.clear();
    m_bodyRadii.clear();
    for (const BodySpec& b : m_setup.bodies) {
        m_bodyNames.push_back(b.name);
        m_bodyRadii.push_back(b.radius);
    }
    m_densityGridValid = false;
    m_internals->profile.Build(m_setup.groups, m_seededSpacing);
    // Other grid values under the same geometry: new serials. A saved cache only covers
    // the saved tracers, not the outside ones.
    NewGridSerial();
    m_startGridSerial = 0;
    m_substepGrids.clear();
    if (m_externalTracers) m_cacheValid = false;
    return Ok{};
}

}  // namespace vorton
