#include "app/ui/rewind.h"

#include <algorithm>
#include <cmath>

namespace vorton {

void RewindRing::Configure(std::size_t budgetBytes, double seconds, double dt) {
    m_budget = budgetBytes;
    m_seconds = seconds;
    m_dt = dt;
}

std::size_t RewindRing::IntervalFor(std::size_t stateBytes) const {
    const double steps = m_dt > 0.0 ? std::ceil(m_seconds / m_dt) : 1.0;
    if (stateBytes == 0 || m_budget == 0) return 1;
    const double fit = std::floor(double(m_budget) / double(stateBytes));  // states the budget holds
    if (fit < 2.0) return std::size_t(std::max(1.0, steps));               // one state: keep the newest
    return std::size_t(std::max(1.0, std::ceil(steps / fit)));
}

bool RewindRing::Due(std::int64_t step, std::size_t stateBytes) const {
    if (m_entries.empty() || step <= m_entries.back().step) return true;
    return std::size_t(step - m_entries.back().step) >= IntervalFor(stateBytes);
}

void RewindRing::Push(Entry entry) {
    TruncateAfter(entry.step - 1);
    m_bytes += entry.Bytes();
    m_entries.push_back(std::move(entry));
    Trim();
}

void RewindRing::Trim() {
    while (m_entries.size() > 1 && m_bytes > m_budget) {
        m_bytes -= m_entries.front().Bytes();
        m_entries.pop_front();
    }
}

void RewindRing::AttachGpuTracers(std::uint64_t command, std::vector<glm::vec3> positions) {
    for (Entry& e : m_entries) {
        if (e.gpuCommand != command || !e.awaitingGpu) continue;
        m_bytes -= e.Bytes();
        e.gpuPositions = std::move(positions);
        e.awaitingGpu = false;
        m_bytes += e.Bytes();
        Trim();
        return;
    }
}

const RewindRing::Entry* RewindRing::AtOrBefore(double time) const {
    const Entry* found = nullptr;
    for (const Entry& e : m_entries) {
        if (e.time <= time + 1e-9 && !e.awaitingGpu) found = &e;
    }
    return found;
}

void RewindRing::TruncateAfter(std::int64_t step) {
    while (!m_entries.empty() && m_entries.back().step > step) {
        m_bytes -= m_entries.back().Bytes();
        m_entries.pop_back();
    }
}

std::vector<double> RewindRing::Times() const {
    std::vector<double> times;
    times.reserve(m_entries.size());
    for (const Entry& e : m_entries) {
        if (!e.awaitingGpu) times.push_back(e.time);
    }
    return times;
}

}  // namespace vorton
