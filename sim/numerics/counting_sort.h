#pragma once
/// \file
/// The stable counting sort the solvers use to group particles by cell,
/// plane or layer before a parallel loop over the groups.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vorton {

/// Sorts the indices 0 … N−1 by `keys` (N keys, each < bins), stable: index
/// order within a key. Afterwards `order` (size N) lists the indices key by
/// key, and the indices of key b are order[start[b]] … order[start[b + 1] − 1]
/// (`start` has bins + 1 entries, start[bins] = N). Serial on purpose: the
/// parallel loops that follow owe their thread-count independence to this
/// one fixed order (docs/METHOD.md §7). O(N + bins).
inline void CountingSort(std::span<const std::uint32_t> keys, std::size_t bins, std::vector<std::uint32_t>& start,
                         std::vector<std::uint32_t>& order) {
    start.assign(bins + 1, 0);
    for (const std::uint32_t k : keys) ++start[std::size_t(k) + 1];
    for (std::size_t b = 0; b < bins; ++b) start[b + 1] += start[b];
    order.resize(keys.size());
    // start[b] serves as key b's cursor, then is shifted back to its first entry.
    for (std::size_t p = 0; p < keys.size(); ++p) order[start[keys[p]]++] = std::uint32_t(p);
    for (std::size_t b = bins; b > 0; --b) start[b] = start[b - 1];
    start[0] = 0;
}

}  // namespace vorton
