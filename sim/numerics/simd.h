#pragma once
/// \file
/// The portable SIMD vector types of the solver's inner loops (GCC/Clang
/// vector extensions: element-wise arithmetic, compiled to SSE/AVX as the
/// target allows, with no FMA contraction under -ffp-contract=off, so the
/// vector and scalar paths give the same bits).

#include <cstdint>
#include <cstring>

namespace vorton {

using Float4 = float __attribute__((vector_size(16)));
using Int4 = std::int32_t __attribute__((vector_size(16)));
using Float8 = float __attribute__((vector_size(32)));
using Int8 = std::int32_t __attribute__((vector_size(32)));

// The eight-lane helpers are always inlined, so no 32-byte vector crosses a
// call: the ABI note about them without AVX does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

/// Eight floats from p (any alignment).
[[gnu::always_inline]] inline Float8 Load8(const float* p) {
    Float8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// Eight floats to p (any alignment).
[[gnu::always_inline]] inline void Store8(float* p, Float8 v) { std::memcpy(p, &v, sizeof v); }

/// The lanes' sum in a fixed pairwise order (the same bits on every path).
[[gnu::always_inline]] inline float Sum8(Float8 a) {
    return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

#pragma GCC diagnostic pop

}  // namespace vorton
