#pragma once
/// \file
/// The tracers' velocity grid: nested levels around the vortons, each twice
/// as coarse as the one inside it, so tracers anywhere get a velocity whose
/// cost and memory grow with the number of levels (the log of how far the
/// dye has spread), not with the volume it fills.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/uniform_grid.h"

namespace vorton {

/// L levels of the same point dimensions n around one centre c: level 0 is
/// `base` (the vortons' grid, cell H), level ℓ has cells 2^ℓ·H and reaches
/// 2^ℓ times as far from c. A point x belongs to the finest level whose box
/// holds it. Values of all levels live in one array, level after level,
/// each level x-fastest like GridGeometry::Index.
///
/// Why: the velocity induced by the vortons varies on the scale of its
/// distance d from them, so a cell that grows with d keeps the relative
/// error of trilinear interpolation about constant (≈ (H/L₀)² with L₀ the
/// size of level 0), and the far field is evaluated at as many points as
/// there are occupied cells, not at every point of one grid stretched over
/// the whole spread of the dye (issue 10).
struct NestedGrid {
    GridGeometry base;  ///< level 0: cubic cells (spacing equal on every axis)
    int levels = 1;     ///< ≥ 1

    std::size_t LevelPointCount() const { return base.PointCount(); }
    std::size_t PointCount() const { return base.PointCount() * std::size_t(levels); }
    /// Centre c of every level, m.
    glm::vec3 Center() const { return base.origin + 0.5f * glm::vec3(base.points - 1) * base.spacing; }
    /// Level ℓ as a grid of its own.
    GridGeometry Level(int level) const;
    /// Position of the point with flat index `index` (level-major), m.
    glm::vec3 Position(std::size_t index) const;
    /// Levels needed for the finest level holding every point of `box` to exist.
    int LevelsToCover(const Aabb& box) const;
};

/// The most levels a NestedGrid is given (level 15 reaches 32768 times as
/// far as level 0; tracers beyond it take its boundary values).
inline constexpr int kMaxGridLevels = 16;

/// Trilinear lookups on a NestedGrid, for the tracer passes: the cell of a
/// point on its level and the fractions, with every constant hoisted. The
/// SIMD passes (tracer_simd.cpp) repeat Cell's arithmetic lane by lane, so a
/// tracer gets the same bits on either path. Outside the coarsest level and
/// for NaN coordinates the same clamping as GridSampler.
class NestedGridSampler {
public:
    using Float4 = GridSampler::Float4;
    using Int4 = GridSampler::Int4;

    explicit NestedGridSampler(const NestedGrid& grid);

    /// Flat index (level offset included) of the lower corner of x's cell and
    /// the fractions f in [0, 1] (lane 3 unused).
    std::size_t Cell(glm::vec3 x, Float4* f) const {
        const Float4 p{x.x, x.y, x.z, 0.0f};
        const Float4 d = p - m_center;
        const Float4 zero{0.0f, 0.0f, 0.0f, 0.0f};
        const Int4 magnitude = (Int4)d & 0x7fffffff;
        const Float4 ad = (Float4)magnitude * m_inverseHalf;  // |d| / level-0 half width
        float q = ad[0] > ad[1] ? ad[0] : ad[1];
        q = q > ad[2] ? q : ad[2];
        q = q > 0.0f ? q : 0.0f;  // NaN to 0, as the SIMD max
        const int level = LevelOf(q, m_lastLevel);
        const Float4 scale = ScaleOf(level);
        Float4 u = d * (m_inverse * scale) + m_half;
        u = u > zero ? u : zero;  // NaN goes to 0
        u = u < m_topF ? u : m_topF;
        Int4 c = __builtin_convertvector(u, Int4);
        c = c < m_lastCell ? c : m_lastCell;
        *f = u - __builtin_convertvector(c, Float4);
        return std::size_t(level) * m_levelPoints + std::size_t(c[0]) + std::size_t(c[1]) * m_sy +
               std::size_t(c[2]) * m_sz;
    }
    std::size_t CornerOffset(int c) const { return m_corner[c]; }
    glm::vec3 SampleCell(const Float4* values, std::size_t o, Float4 f) const {
        return GridSampler::SampleCell(values, o, f, m_sy, m_sz);
    }
    glm::vec3 Sample(const Float4* values, glm::vec3 x) const {
        Float4 f;
        const std::size_t o = Cell(x, &f);
        return SampleCell(values, o, f);
    }

    /// ⌈log₂ q⌉ for q > 1 from the float's bits (exact at powers of two),
    /// 0 for q ≤ 1, at most lastLevel; NaN and ∞ give lastLevel.
    static int LevelOf(float q, int lastLevel) {
        std::int32_t bits;
        __builtin_memcpy(&bits, &q, sizeof bits);
        int level = ((bits - 1) >> 23) - 126;
        level = level > 0 ? level : 0;
        return level < lastLevel ? level : lastLevel;
    }
    /// 2^−level in lanes 0–2.
    static Float4 ScaleOf(int level) {
        const std::int32_t bits = (127 - level) << 23;
        float s;
        __builtin_memcpy(&s, &bits, sizeof s);
        return Float4{s, s, s, 0.0f};
    }

    // The constants, for the SIMD kernels.
    const Float4& Center() const { return m_center; }
    const Float4& Inverse() const { return m_inverse; }
    const Float4& InverseHalf() const { return m_inverseHalf; }
    const Float4& Half() const { return m_half; }
    const Float4& TopF() const { return m_topF; }
    const Int4& LastCell() const { return m_lastCell; }
    int LastLevel() const { return m_lastLevel; }
    std::size_t LevelPoints() const { return m_levelPoints; }
    std::size_t StrideY() const { return m_sy; }
    std::size_t StrideZ() const { return m_sz; }

private:
    Float4 m_center;
    Float4 m_inverse;      // 1 / level-0 cell
    Float4 m_inverseHalf;  // 1 / level-0 half width
    Float4 m_half;         // (points − 1) / 2
    Float4 m_topF;         // points − 1
    Int4 m_lastCell;       // points − 2
    int m_lastLevel;
    std::size_t m_levelPoints, m_sy, m_sz;
    std::size_t m_corner[8];
};

/// A tracers' grid as a step used it: its geometry, its values (m/s, without
/// the free stream; (x, y, z, unused) per point, grid.PointCount() of them,
/// level after level, each x-fastest; evaluated at least at the corners of
/// the cells the tracers are in), and a serial number that names the values:
/// two views with the same non-zero serial hold the same values (0: unknown).
struct TracerGridView {
    NestedGrid grid;
    std::span<const GridSampler::Float4> values;
    std::uint64_t serial = 0;
};

/// Sets a mask byte that several threads mark to 1 (relaxed: every writer
/// stores the same 1, so the mask does not depend on the order), writing only
/// when it is not set yet: a cell that many tracers mark then stays a shared
/// cache line on every core instead of bouncing between them (the tracer
/// predictor cost 4 times the corrector on 2 vCPUs with unconditional stores).
inline void MarkByte(std::uint8_t& byte) {
    std::atomic_ref<std::uint8_t> mark(byte);
    if (mark.load(std::memory_order_relaxed) == 0) mark.store(1, std::memory_order_relaxed);
}

/// Marks every point of the grid next to a marked cell: points[o] = 1 when
/// one of the up to 8 cells around point o has cells[cell] set (a cell is
/// named by its lower corner's index). Works level by level on a NestedGrid
/// (the levels are stacked along z; no cell of a level's top plane is ever
/// marked, so nothing leaks between levels). The first `whole` points (whole
/// levels whose every point is known) are set without looking. Parallel;
/// `points` is resized.
void ExpandCellMask(const NestedGrid& grid, std::span<const std::uint8_t> cells, std::vector<std::uint8_t>& points,
                    std::size_t whole = 0);

}  // namespace vorton
