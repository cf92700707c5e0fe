#pragma once
/// \file
/// Internal to the Simulation's .cpp files: the clock, finite checks and the
/// parallel loops and scans a step is made of (all exact in any order).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <span>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace vorton {

/// A cell's (or lattice point's) integer index packed into one sortable key, 21 bits an
/// axis (wraps beyond ±2²⁰ cells); z varies fastest in the keys' order.
inline std::uint64_t CellKey(glm::ivec3 c) {
    return (std::uint64_t(std::uint32_t(c.x) & 0x1FFFFFu) << 42) | (std::uint64_t(std::uint32_t(c.y) & 0x1FFFFFu) << 21) |
           std::uint64_t(std::uint32_t(c.z) & 0x1FFFFFu);
}

}  // namespace vorton

/// On x86-64 with GCC or Clang, builds a function twice, for AVX2 and for the
/// baseline, and picks one when the program loads; elsewhere, once.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(VORTON_NO_TARGET_CLONES)
#define VORTON_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VORTON_AVX2_CLONES
#endif

namespace vorton::step {

inline std::int64_t Now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline bool Finite(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Largest |v|² and count of non-finite entries; both exact in any order.
struct Scan {
    float maxNorm2 = 0.0f;
    std::size_t nonFinite = 0;
    void Add(glm::vec3 v) {
        if (Finite(v)) {
            maxNorm2 = std::max(maxNorm2, glm::dot(v, v));
        } else {
            ++nonFinite;
        }
    }
};

/// Runs body(i, scan) for i in [0, n) in parallel and merges the scans.
template <typename Body>
Scan ParallelScan(std::size_t n, Body&& body) {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, n, 4096), Scan{},
        [&](const tbb::blocked_range<std::size_t>& r, Scan s) {
            for (std::size_t i = r.begin(); i != r.end(); ++i) body(i, s);
            return s;
        },
        [](Scan a, const Scan& b) {
            a.maxNorm2 = std::max(a.maxNorm2, b.maxNorm2);
            a.nonFinite += b.nonFinite;
            return a;
        });
}

inline Scan ScanVectors(std::span<const glm::vec3> values) {
    return ParallelScan(values.size(), [&](std::size_t i, Scan& s) { s.Add(values[i]); });
}

/// Elements per task of ParallelFor: its loops do a few dozen flops per element.
inline constexpr std::size_t kElementGrain = 4096;

/// Runs body(i) for i in [0, n) in parallel, `grain` or more at a time (1 when
/// each i is itself a large block of work).
template <typename F>
void ParallelFor(std::size_t n, F&& body, std::size_t grain = kElementGrain) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) body(i);
    });
}

}  // namespace vorton::step
