#pragma once
/// \file
/// The rewind ring (issue 14, item 4): the last seconds of a run's states
/// (Simulation::AppendState), bounded in bytes, to scrub back to and resume from. No GL, no
/// threads: the simulation's worker keeps one and the panel shows its times.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace vorton {

/// States kept every `Interval()` steps, oldest dropped first so the bytes held stay within the budget.
class RewindRing {
public:
    struct Entry {
        std::int64_t step = 0;
        double time = 0.0;  ///< simulated, s
        std::string state;  ///< Simulation::AppendState
        /// Tracers that lived on the GPU then (the state has none): their positions (m), which
        /// arrive later (AttachGpuTracers; until then the entry is not offered), and groups.
        std::vector<glm::vec3> gpuPositions;
        std::vector<std::uint16_t> gpuGroups;
        std::uint64_t gpuCommand = 0;  ///< the worker's id for the step whose positions these are
        bool awaitingGpu = false;
        std::size_t Bytes() const {
            return state.size() + gpuPositions.size() * sizeof(glm::vec3) + gpuGroups.size() * sizeof(std::uint16_t);
        }
    };

    /// `budgetBytes`: the most the states may hold together; `seconds`: the span to cover;
    /// `dt`: the step, s.
    RewindRing(std::size_t budgetBytes = std::size_t(256) << 20, double seconds = 10.0, double dt = 0.02)
        : m_budget(budgetBytes), m_seconds(seconds), m_dt(dt) {}

    void Clear() { m_entries.clear(), m_bytes = 0; }
    void Configure(std::size_t budgetBytes, double seconds, double dt);
    /// Steps between kept states for a state of `stateBytes`: 1 when `seconds` of every step fit
    /// the budget, else as many as make the states over `seconds` fit it.
    std::size_t IntervalFor(std::size_t stateBytes) const;
    /// Whether the state after `step` is due (at least Interval steps after the newest kept).
    bool Due(std::int64_t step, std::size_t stateBytes) const;
    /// Keeps a state; entries at or after its step (a branch after a rewind) go first, then
    /// the oldest until the bytes fit the budget (the newest always stays).
    void Push(Entry entry);
    /// The newest complete entry (not awaiting its GPU tracers) at or before `time`, if any.
    const Entry* AtOrBefore(double time) const;
    /// The GPU tracers' positions for the entry that awaits those of the worker's `command`.
    void AttachGpuTracers(std::uint64_t command, std::vector<glm::vec3> positions);
    /// Drops the entries after `step` (a rewind: what followed is no longer this run's future).
    void TruncateAfter(std::int64_t step);

    const std::deque<Entry>& Entries() const { return m_entries; }
    std::size_t Bytes() const { return m_bytes; }
    std::size_t Budget() const { return m_budget; }
    /// The complete kept states' times, oldest first (for the panel's timeline).
    std::vector<double> Times() const;

private:
    void Trim();  // oldest first until the budget holds (the newest stays)
    std::size_t m_budget;
    double m_seconds, m_dt;
    std::deque<Entry> m_entries;
    std::size_t m_bytes = 0;
};

}  // namespace vorton
