#pragma once
/// \file
/// Eight tracers at a time: the two Heun passes of tracer advection in AVX2,
/// the eight corners of each cell read as four 32-byte x-neighbour pairs and
/// transposed (no gather instructions), chosen at run time when the CPU has
/// AVX2 (x86-64). Every lane does exactly the IEEE operations of the scalar
/// code in Simulation::Step (NestedGridSampler::Cell and SampleCell; no fused
/// multiply-add), so a tracer gets the same bits whichever path moves it, and
/// results stay independent of the thread count, which decides which tracers
/// fall in a chunk's scalar remainder.

#include <cstddef>
#include <cstdint>

#include <glm/vec3.hpp>

#include "sim/numerics/aabb.h"
#include "sim/tracers/nested_grid.h"
#include "sim/numerics/uniform_grid.h"

namespace vorton {

/// True when the SIMD passes below can run on this CPU. When false they
/// return `begin` and the scalar loops do all the work.
bool TracerSimdAvailable();

/// Predictor on tracers [begin, begin + 8k), the largest such range inside
/// [begin, end): u0 = grid0(x) + freeStream into velocity; when `cells` is not null,
/// marks cells[cell of x + dt·u0 in grid1] = 1. Returns begin + 8k (the first
/// tracer left for the scalar loop).
std::size_t PredictTracersSimd(const NestedGridSampler& sample0, const GridSampler::Float4* grid0,
                               const NestedGridSampler& sample1, std::uint8_t* cells, glm::vec3 freeStream, float dt,
                               const glm::vec3* position, glm::vec3* velocity, std::size_t begin, std::size_t end);

/// What the corrector gathers besides moving the tracers.
struct TracerPassScan {
    float maxNorm2 = 0.0f;      ///< largest |u|² of a finite u
    std::size_t nonFinite = 0;  ///< non-finite u, plus non-finite new positions
    Aabb box;                   ///< of the finite new positions
};

/// Corrector on tracers [begin, begin + 8k) (see PredictTracersSimd): from
/// u0 in velocity, p = x + dt·u0, u = ½((u0 + grid1(p)) + freeStream), x += dt·u,
/// velocity = u; accumulates into *scan. With `needed` given, a tracer whose
/// new cell is not p's marks that cell's corners that `needed` lacks in
/// `missing` and sets *anyMissing. Returns begin + 8k.
std::size_t CorrectTracersSimd(const NestedGridSampler& sample1, const GridSampler::Float4* grid1, glm::vec3 freeStream,
                               float dt, glm::vec3* position, glm::vec3* velocity, std::size_t begin,
                               std::size_t end, TracerPassScan* scan, const std::uint8_t* needed,
                               std::uint8_t* missing, bool* anyMissing);

/// After bodies and emitters moved tracers, on tracers [begin, begin + 8k)
/// (see PredictTracersSimd): grows *box by their finite positions and, for a
/// tracer whose cell in grid1 is not marked in `cells` (the cells that hold a
/// predicted tracer, whose corners are all in `needed`), marks the corners
/// `needed` lacks in `missing` and sets *anyMissing. Returns begin + 8k.
std::size_t ScanMovedTracersSimd(const NestedGridSampler& sample1, const std::uint8_t* cells,
                                 const std::uint8_t* needed, std::uint8_t* missing, const glm::vec3* position,
                                 std::size_t begin, std::size_t end, Aabb* box, bool* anyMissing);

}  // namespace vorton
