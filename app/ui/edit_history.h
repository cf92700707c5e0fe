#pragma once
/// \file
/// Undo and redo of the panel's edits (Ctrl+Z / Ctrl+Y). The panel hands its state to Track()
/// once per frame; a change that has settled (no widget held) becomes one undo step, so a
/// slider dragged through a hundred values is one step back.

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <utility>

namespace vorton {

template <typename State, typename Equal = std::equal_to<State>>
class EditHistory {
public:
    /// At most `limit` undo steps are kept (the oldest go first).
    explicit EditHistory(std::size_t limit = 200) : m_limit(limit) {}

    /// Starts over from `state` (a new scene, or a reset to its defaults that is not to be undone).
    void Restart(const State& state) {
        m_settled = state;
        m_undo.clear();
        m_redo.clear();
    }

    /// Called each frame with the current state. While `editing` (a widget held) nothing is
    /// recorded; once the state differs from the last settled one, that one becomes an undo step
    /// and the redo steps are dropped (an edit after undoing branches). Returns true when a step
    /// was recorded.
    bool Track(const State& current, bool editing) {
        if (!m_settled) {
            m_settled = current;
            return false;
        }
        if (editing || m_equal(current, *m_settled)) return false;
        m_undo.push_back(std::move(*m_settled));
        if (m_undo.size() > m_limit) m_undo.pop_front();
        m_redo.clear();
        m_settled = current;
        return true;
    }

    /// The state to go back to from `current`, or none at the start of the history.
    std::optional<State> Undo(const State& current) { return Step(m_undo, m_redo, current); }
    /// The state undone last, or none.
    std::optional<State> Redo(const State& current) { return Step(m_redo, m_undo, current); }
    bool CanUndo() const { return !m_undo.empty(); }
    bool CanRedo() const { return !m_redo.empty(); }

private:
    std::optional<State> Step(std::deque<State>& from, std::deque<State>& to, const State& current) {
        if (from.empty()) return std::nullopt;
        // An edit not yet tracked is kept too: the redo after this undo brings it back.
        to.push_back(current);
        State target = std::move(from.back());
        from.pop_back();
        m_settled = target;
        return target;
    }

    std::size_t m_limit;
    Equal m_equal{};
    std::optional<State> m_settled;
    std::deque<State> m_undo;
    std::deque<State> m_redo;
};

}  // namespace vorton
