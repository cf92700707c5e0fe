#pragma once
/// \file
/// The portable SIMD vector types of the solver's inner loops (GCC/Clang
/// vector extensions: element-wise arithmetic, compiled to SSE/AVX as the
/// target allows, with no FMA contraction under -ffp-contract=off, so the
/// vector and scalar paths give the same bits).

#include <cstdint>

namespace vorton {

using Float4 = float __attribute__((vector_size(16)));
using Int4 = std::int32_t __attribute__((vector_size(16)));
using Float8 = float __attribute__((vector_size(32)));
using Int8 = std::int32_t __attribute__((vector_size(32)));

}  // namespace vorton
