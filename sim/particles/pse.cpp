// Eight-lane vectors passed between inline helpers of this file only (and
// ExpNonPositive of pse.h): the ABI note about 32-byte vectors without AVX
// does not concern us.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "sim/particles/pse.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cassert>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/numerics/aabb.h"
#include "sim/numerics/step_helpers.h"
#include "sim/numerics/counting_sort.h"
#include "sim/numerics/simd.h"

namespace vorton {

namespace {
constexpr float kCutoff = 3.0f;  // in units of ε
/// Vortons from which equal cores take the pairwise path (measured crossover on 2 cores).
constexpr std::size_t kPairwiseFrom = 500;
/// From this many layers of cells the pairwise path runs in three phases of
/// layers (8 tasks a phase and more); below, in blocks with their own buffers.
constexpr int kPhasedFromLayers = 24;
/// Cells are this many times narrower along x (the rows' axis) than along y
/// and z: a row's run then ends within a quarter cell of the sphere's chord
/// through it, where whole cells overshot by up to one: 17 % fewer eight-lane
/// iterations on a jittered lattice (a model of the runs; 11 % with 2, 20 %
/// with 8), and the diffusion stage 5–10 % faster in developed flow.
constexpr int kSplitX = 4;
// Cells (half a reach wide) per vorton past which a flow counts as spread thin
// (SplitIntoSlabs): a ball's wake has about 1, two wakes 80 m apart about 100.
constexpr double kSparseCellsPerVorton = 32.0;
/// Cells searched either side along x (along y and z: 2, as a y or z cell is half the reach wide).
constexpr int kSearchX = 2 * kSplitX;
/// Floats past each row block's buffer of rates (PseBlock writes a run's last eight lanes whole).
constexpr std::uint32_t kBlockPad = 8;
const float kEtaNorm = float(4.0 / std::pow(std::numbers::pi, 1.5));

/// Everything the pair loop reads: the cell list and the cell-ordered copies.
struct PseView {
    std::span<const glm::vec3> position, vorticity;  // as given (not permuted)
    glm::ivec3 axes;  // the cell list's x, y, z are these axes of the positions

    std::span<const float> radius, volume, eddyViscosity;
    std::span<glm::vec3> rate;
    const GridGeometry* cells;
    const std::uint32_t* start;
    const float *sx, *sy, *sz, *sax, *say, *saz, *svol, *srad, *seddy;
    float nu, reach, invEps2, reach2, etaOverEps2;
    bool uniform;
};

/// x with its components in the cell list's axis order.
inline glm::vec3 Permuted(glm::vec3 x, glm::ivec3 axes) { return {x[axes.x], x[axes.y], x[axes.z]}; }

/// The run of the sorted arrays that row (j, k) of the cell list holds within
/// reach of a point at `rel` (m from the cell origin): only the cells the
/// sphere's chord through the row spans, between columns lo and hi. The reach
/// is padded, so the cutoff test of the pair term (symmetric in p and q)
/// decides every pair. False if the sphere misses the row.
[[gnu::always_inline]] inline bool RowRun(const PseView& v, glm::vec3 rel, int j, int k, int lo, int hi,
                                          std::uint32_t* begin, std::uint32_t* end) {
    const float h = v.cells->spacing.y, hx = v.cells->spacing.x;
    const float reachPad = 1.001f * v.reach;
    const float gz = std::max({0.0f, float(k) * h - rel.z, rel.z - float(k + 1) * h});
    const float gy = std::max({0.0f, float(j) * h - rel.y, rel.y - float(j + 1) * h});
    const float chord2 = reachPad * reachPad - gy * gy - gz * gz;
    if (chord2 <= 0.0f) return false;
    const float chord = std::sqrt(chord2);
    const int i0 = std::max(lo, int(std::floor((rel.x - chord) / hx)));
    const int i1 = std::min(hi, int(std::floor((rel.x + chord) / hx)));
    if (i0 > i1) return false;
    *begin = v.start[v.cells->Index(i0, j, k)];
    *end = v.start[v.cells->Index(i1, j, k) + 1];
    return true;
}

/// Equal cores: the pair terms (V_p α_q − V_q α_p) ν_pq η/ε² of vorton p with
/// the eight candidates from sorted index s, zero past `end` and beyond the
/// cutoff. No divisions (ε is one for all pairs).
struct Terms8 {
    Float8 x, y, z;
};
[[gnu::always_inline]] inline Terms8 PairTerms8(const PseView& v, glm::vec3 xp, glm::vec3 alphaP, float vp,
                                                float eddyP, std::uint32_t s, std::uint32_t end) {
    const Float8 dx = xp.x - Load8(v.sx + s), dy = xp.y - Load8(v.sy + s), dz = xp.z - Load8(v.sz + s);
    const Float8 d2 = dx * dx + dy * dy + dz * dz;
    const Float8 nuPair = v.nu + 0.5f * (eddyP + Load8(v.seddy + s));
    const Float8 e = ExpNonPositive<Float8, Int8>(-d2 * v.invEps2);
    const Int8 inside = (d2 < v.reach2) & (Int8{0, 1, 2, 3, 4, 5, 6, 7} < int(end - s));
    const Float8 w = inside ? nuPair * e * v.etaOverEps2 : Float8{};
    const Float8 vq = Load8(v.svol + s);
    return {(vp * Load8(v.sax + s) - vq * alphaP.x) * w, (vp * Load8(v.say + s) - vq * alphaP.y) * w,
            (vp * Load8(v.saz + s) - vq * alphaP.z) * w};
}

/// Rates of vortons [begin, end). Built twice, for AVX2 and for the baseline,
/// picked at load time; the eight-lane vectors make both do the same
/// operations lane by lane, so they give the same bits.
VORTON_AVX2_CLONES void PseRange(const PseView& v, std::size_t begin, std::size_t end) {
    const glm::vec3 h = v.cells->spacing;
    const glm::ivec3 dims = v.cells->points;
    const glm::ivec3 search(kSearchX, 2, 2);
    const float cutoff2 = kCutoff * kCutoff;
    const bool eddy = !v.eddyViscosity.empty();
    for (std::size_t p = begin; p != end; ++p) {
        const glm::vec3 xp = Permuted(v.position[p], v.axes);
        const glm::vec3 alphaP = v.vorticity[p] * v.volume[p];
        const float vp = v.volume[p], rp = v.radius[p], eddyP = eddy ? v.eddyViscosity[p] : 0.0f;
        const glm::ivec3 c =
            glm::clamp(glm::ivec3(glm::floor((xp - v.cells->origin) / h)), glm::ivec3(0), dims - 1);
        const glm::ivec3 lo = glm::max(c - search, glm::ivec3(0)), hi = glm::min(c + search, dims - 1);
        float sumX = 0.0f, sumY = 0.0f, sumZ = 0.0f;
        Float8 accX{}, accY{}, accZ{};
        const glm::vec3 rel = xp - v.cells->origin;
        for (int k = lo.z; k <= hi.z; ++k) {
            for (int j = lo.y; j <= hi.y; ++j) {
                std::uint32_t runBegin, runEnd;
                if (!RowRun(v, rel, j, k, lo.x, hi.x, &runBegin, &runEnd)) continue;
                // The self term is exactly zero (V_p α_p − V_p α_p), so p needs no skip.
                if (v.uniform) {
                    // Eight candidates at a time (the arrays are padded past the end).
                    for (std::uint32_t s = runBegin; s < runEnd; s += 8) {
                        const Terms8 t = PairTerms8(v, xp, alphaP, vp, eddyP, s, runEnd);
                        accX += t.x;
                        accY += t.y;
                        accZ += t.z;
                    }
                    continue;
                }
                for (std::uint32_t s = runBegin; s < runEnd; ++s) {
                    const float dx = xp.x - v.sx[s], dy = xp.y - v.sy[s], dz = xp.z - v.sz[s];
                    const float eps = 0.5f * (rp + v.srad[s]);
                    const float d2 = dx * dx + dy * dy + dz * dz, eps2 = eps * eps;
                    const float nuPair = v.nu + 0.5f * (eddyP + v.seddy[s]);
                    const float eta = kEtaNorm / (eps2 * eps) * ExpNonPositive(-d2 / eps2);
                    const float w = d2 < cutoff2 * eps2 ? nuPair * eta / eps2 : 0.0f;
                    const float vq = v.svol[s];
                    sumX += (vp * v.sax[s] - vq * alphaP.x) * w;
                    sumY += (vp * v.say[s] - vq * alphaP.y) * w;
                    sumZ += (vp * v.saz[s] - vq * alphaP.z) * w;
                }
            }
        }
        v.rate[p] = glm::vec3(sumX + Sum8(accX), sumY + Sum8(accY), sumZ + Sum8(accZ));
    }
}

/// Uniform cores, each pair once: the vortons of rows [rowBegin, rowEnd) of
/// z-layer `layer` of the cell list (its z is the box's longest axis), in
/// sorted order, meet only the neighbours after them in that order (the rest
/// of their own row, the next two rows of their layer, rows ±2 of the next
/// two layers), add the pair term to themselves and subtract it from the
/// neighbour. Rates are cell-ordered: sorted vorton s's is r[s − base]. Such
/// a block writes only to layers layer..layer+2 and rows rowBegin−2..rowEnd+1
/// (BlockWrites), and to each rate in one fixed order. Sorted vortons from
/// `base` up to `own` (exclusive) are the block's alone: a run's last eight
/// lanes are written whole when they end below it (the lanes past the run
/// subtract a zero term, which leaves a rate's bits as they are: a rate
/// starts at +0 and so is never −0), one by one otherwise.
VORTON_AVX2_CLONES void PseBlock(const PseView& view, int layer, int rowBegin, int rowEnd, std::uint32_t base,
                                 std::uint32_t own, float* __restrict rx, float* __restrict ry,
                                 float* __restrict rz) {
    // A copy the rates' stores cannot alias: the pair loop keeps its pointers in registers.
    const PseView v = view;
    const glm::vec3 h = v.cells->spacing;
    const glm::ivec3 dims = v.cells->points;
    const std::uint32_t first = v.start[v.cells->Index(0, rowBegin, layer)];
    const std::uint32_t last = v.start[v.cells->Index(dims.x - 1, rowEnd - 1, layer) + 1];
    for (std::uint32_t sp = first; sp < last; ++sp) {
        const glm::vec3 xp(v.sx[sp], v.sy[sp], v.sz[sp]);
        const glm::vec3 alphaP(v.sax[sp], v.say[sp], v.saz[sp]);
        const float vp = v.svol[sp], eddyP = v.seddy[sp];
        const glm::ivec3 c =
            glm::clamp(glm::ivec3(glm::floor((xp - v.cells->origin) / h)), glm::ivec3(0), dims - 1);
        Float8 accX{}, accY{}, accZ{};
        const glm::vec3 rel = xp - v.cells->origin;
        for (int k = c.z; k <= std::min(c.z + 2, dims.z - 1); ++k) {
            for (int j = k == c.z ? c.y : std::max(c.y - 2, 0); j <= std::min(c.y + 2, dims.y - 1); ++j) {
                std::uint32_t runBegin, runEnd;
                if (!RowRun(v, rel, j, k, std::max(c.x - kSearchX, 0), std::min(c.x + kSearchX, dims.x - 1),
                            &runBegin, &runEnd)) {
                    continue;
                }
                if (k == c.z && j == c.y) runBegin = std::max(runBegin, sp + 1);
                for (std::uint32_t s = runBegin; s < runEnd; s += 8) {
                    const Terms8 t = PairTerms8(v, xp, alphaP, vp, eddyP, s, runEnd);
                    accX += t.x;
                    accY += t.y;
                    accZ += t.z;
                    const int lanes = int(runEnd - s);
                    if (lanes >= 8 || s + 8 <= own) {
                        const std::uint32_t o = s - base;
                        const Float8 nx = Load8(rx + o) - t.x, ny = Load8(ry + o) - t.y, nz = Load8(rz + o) - t.z;
                        Store8(rx + o, nx);
                        Store8(ry + o, ny);
                        Store8(rz + o, nz);
                    } else {
                        // Past the run are other vortons, maybe another layer's: not touched.
                        for (int l = 0; l < lanes; ++l) {
                            rx[s - base + l] -= t.x[l];
                            ry[s - base + l] -= t.y[l];
                            rz[s - base + l] -= t.z[l];
                        }
                    }
                }
            }
        }
        rx[sp - base] += Sum8(accX);
        ry[sp - base] += Sum8(accY);
        rz[sp - base] += Sum8(accZ);
    }
}

/// The sorted vortons a PseBlock of rows [rowBegin, rowEnd) of `layer` may
/// write, [first, last): from its own first vorton to the end of row rowEnd+1
/// two layers up.
std::pair<std::uint32_t, std::uint32_t> BlockWrites(const GridGeometry& cells, const std::uint32_t* start, int layer,
                                                    int rowBegin, int rowEnd) {
    const glm::ivec3 dims = cells.points;
    const std::uint32_t first = start[cells.Index(0, rowBegin, layer)];
    const std::uint32_t last =
        start[cells.Index(dims.x - 1, std::min(rowEnd + 1, dims.y - 1), std::min(layer + 2, dims.z - 1)) + 1];
    return {first, last};
}

}  // namespace

void ParticleStrengthExchange::ComputeRates(std::span<const glm::vec3> position,
                                            std::span<const glm::vec3> vorticity,
                                            std::span<const float> radius, std::span<const float> volume,
                                            float viscosity, std::span<glm::vec3> rate,
                                            std::span<const float> eddyViscosity) {
    const std::size_t n = position.size();
    assert(vorticity.size() == n && radius.size() == n && volume.size() == n && rate.size() == n);
    std::fill(rate.begin(), rate.end(), glm::vec3(0.0f));
    const bool eddy = !eddyViscosity.empty();
    assert(!eddy || eddyViscosity.size() == n);
    if (n == 0 || (viscosity == 0.0f && !eddy)) return;

    const float maxRadius = *std::max_element(radius.begin(), radius.end());
    const float reach = kCutoff * maxRadius;  // largest interaction distance
    if (!SplitIntoSlabs(position, reach)) {
        ComputeRatesOnCells(position, vorticity, radius, volume, viscosity, rate, eddyViscosity);
        return;
    }
    // Each slab on its own cell list: the cells cover the vortons, not the space between.
    for (std::size_t slab = 0; slab + 1 < m_slabStart.size(); ++slab) {
        const std::span<const std::uint32_t> members(m_slabVortons.data() + m_slabStart[slab],
                                                     m_slabStart[slab + 1] - m_slabStart[slab]);
        const std::size_t m = members.size();
        m_subPosition.resize(m);
        m_subVorticity.resize(m);
        m_subRate.assign(m, glm::vec3(0.0f));
        m_subRadius.resize(m);
        m_subVolume.resize(m);
        m_subEddy.resize(eddy ? m : 0);
        for (std::size_t i = 0; i < m; ++i) {
            const std::uint32_t p = members[i];
            m_subPosition[i] = position[p];
            m_subVorticity[i] = vorticity[p];
            m_subRadius[i] = radius[p];
            m_subVolume[i] = volume[p];
            if (eddy) m_subEddy[i] = eddyViscosity[p];
        }
        ComputeRatesOnCells(m_subPosition, m_subVorticity, m_subRadius, m_subVolume, viscosity, m_subRate, m_subEddy);
        for (std::size_t i = 0; i < m; ++i) rate[members[i]] = m_subRate[i];
    }
}

bool ParticleStrengthExchange::SplitIntoSlabs(std::span<const glm::vec3> position, float reach) {
    const std::size_t n = position.size();
    const Aabb box = BoundsOf(position);
    const glm::vec3 extent = box.Extent();
    const double cell = 0.5 * double(reach);
    const double cells = (double(extent.x) / cell + 1.0) * (double(extent.y) / cell + 1.0) * (double(extent.z) / cell + 1.0);
    if (!(reach > 0.0f) || cells <= double(kSparseCellsPerVorton) * double(n)) return false;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    // Buckets one reach wide along the axis: an empty bucket between two
    // occupied ones is a gap of at least `reach`, across which no pair
    // interacts (the cutoff is a strict d < 3ε ≤ reach).
    const std::size_t buckets = std::size_t(std::min(double(extent[axis]) / double(reach), double(n))) + 1;
    const float width = std::max(extent[axis] / float(buckets), reach);
    const auto bucketOf = [&](const glm::vec3& x) {
        return std::min(buckets - 1, std::size_t(std::max(0.0f, (x[axis] - box.min[axis]) / width)));
    };
    if (width * float(buckets) < extent[axis]) return false;  // (rounding: one bucket too few)
    m_bucketCount.assign(buckets, 0);
    for (const glm::vec3& x : position) ++m_bucketCount[bucketOf(x)];
    // Slab of each bucket: a new slab after each run of empty buckets.
    std::uint32_t slabs = 0;
    bool inGap = true;
    for (std::size_t k = 0; k < buckets; ++k) {
        if (m_bucketCount[k] == 0) {
            inGap = true;
            continue;
        }
        if (inGap) ++slabs;
        inGap = false;
        m_bucketCount[k] = slabs - 1;  // now the bucket's slab
    }
    if (slabs < 2) return false;
    m_slabOf.resize(n);
    for (std::size_t p = 0; p < n; ++p) m_slabOf[p] = m_bucketCount[bucketOf(position[p])];
    CountingSort(m_slabOf, slabs, m_slabStart, m_slabVortons);  // each slab's vortons in index order
    return true;
}

void ParticleStrengthExchange::ComputeRatesOnCells(std::span<const glm::vec3> position,
                                                   std::span<const glm::vec3> vorticity,
                                                   std::span<const float> radius, std::span<const float> volume,
                                                   float viscosity, std::span<glm::vec3> rate,
                                                   std::span<const float> eddyViscosity) {
    const std::size_t n = position.size();
    const bool eddy = !eddyViscosity.empty();
    const float maxRadius = *std::max_element(radius.begin(), radius.end());
    const float reach = kCutoff * maxRadius;  // largest interaction distance
    const Aabb box = BoundsOf(position);
    // The pairwise path runs in layers along the cell list's slowest axis, so
    // that axis is the box's longest: a flat layer of vortons (a stratified
    // interface) then still splits into many layers. z stays unless another
    // axis is 1.5× longer (a roundish cloud keeps its order, and its bits).
    // Pair distances do not depend on the axis order.
    const glm::vec3 extent = box.Extent();
    glm::ivec3 axes(0, 1, 2);
    if (extent.x > 1.5f * extent.z && extent.x >= extent.y) {
        axes = glm::ivec3(1, 2, 0);
    } else if (extent.y > 1.5f * extent.z && extent.y > extent.x) {
        axes = glm::ivec3(0, 2, 1);
    }
    Aabb cellBox;
    cellBox.min = Permuted(box.min, axes);
    cellBox.max = Permuted(box.max, axes);
    // A cell per grid point: point (i,j,k) owns [origin + i·h, origin + (i+1)·h).
    // Cells half the reach wide, searched ±2 cells, test ~40 % fewer
    // candidates than reach-wide cells searched ±1; along x they are split
    // in kSplitX (exactly: a power of two), searched ±kSearchX.
    m_cells = FitGridWithCell(cellBox, 0.0f, 0.5f * reach, (std::size_t(1) << 22) / kSplitX);
    m_cells.points.x *= kSplitX;  // the same x range in cells kSplitX times narrower
    m_cells.spacing.x /= float(kSplitX);
    const glm::vec3 h = m_cells.spacing;
    const glm::ivec3 dims = m_cells.points;
    const std::size_t cellCount = m_cells.PointCount();

    // The vortons sorted by cell.
    m_cellOf.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
        const glm::ivec3 c = glm::clamp(glm::ivec3(glm::floor((Permuted(position[p], axes) - m_cells.origin) / h)),
                                        glm::ivec3(0), dims - 1);
        m_cellOf[p] = std::uint32_t(m_cells.Index(c.x, c.y, c.z));
    }
    CountingSort(m_cellOf, cellCount, m_start, m_sorted);

    // Cell-ordered copies of what the pair term reads.
    // Seven zeros past the end, so eight-wide loads of a run's last candidates stay inside.
    for (auto* v : {&m_x, &m_y, &m_z, &m_ax, &m_ay, &m_az, &m_volume, &m_radius, &m_eddy}) v->assign(n + 7, 0.0f);
    for (std::size_t s = 0; s < n; ++s) {
        const std::uint32_t q = m_sorted[s];
        const glm::vec3 x = Permuted(position[q], axes);
        m_x[s] = x.x;
        m_y[s] = x.y;
        m_z[s] = x.z;
        const glm::vec3 a = vorticity[q] * volume[q];
        m_ax[s] = a.x;
        m_ay[s] = a.y;
        m_az[s] = a.z;
        m_volume[s] = volume[q];
        m_radius[s] = radius[q];
        m_eddy[s] = eddy ? eddyViscosity[q] : 0.0f;
    }

    // All cores alike (the usual case): ε = σ, and the kernel's constants hoist.
    const float eps = maxRadius, eps2 = eps * eps;
    PseView view;
    view.position = position;
    view.vorticity = vorticity;
    view.axes = axes;
    view.radius = radius;
    view.volume = volume;
    view.eddyViscosity = eddyViscosity;
    view.rate = rate;
    view.cells = &m_cells;
    view.start = m_start.data();
    view.sx = m_x.data();
    view.sy = m_y.data();
    view.sz = m_z.data();
    view.sax = m_ax.data();
    view.say = m_ay.data();
    view.saz = m_az.data();
    view.svol = m_volume.data();
    view.srad = m_radius.data();
    view.seddy = m_eddy.data();
    view.nu = viscosity;
    view.reach = reach;
    view.invEps2 = 1.0f / eps2;
    view.reach2 = kCutoff * kCutoff * eps2;
    view.etaOverEps2 = kEtaNorm / (eps2 * eps) / eps2;
    view.uniform = *std::min_element(radius.begin(), radius.end()) == maxRadius;
    // Few vortons: the gather's one parallel loop beats three phases of few layers.
    if (!view.uniform || n < kPairwiseFrom) {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 64),
                          [&](const auto& r) { PseRange(view, r.begin(), r.end()); });
        return;
    }
    // Each pair once (half the work of the gather).
    const int layers = dims.z;
    if (layers >= kPhasedFromLayers) {
        // Many layers: in three phases, layers three apart at once, so no two
        // tasks write the same rate.
        for (auto* r : {&m_rx, &m_ry, &m_rz}) r->assign(n + 7, 0.0f);
        for (int phase = 0; phase < 3; ++phase) {
            const int tasks = (layers - phase + 2) / 3;
            tbb::parallel_for(tbb::blocked_range<int>(0, std::max(0, tasks), 1), [&](const tbb::blocked_range<int>& r) {
                for (int t = r.begin(); t != r.end(); ++t) {
                    // Up to the end of its layer + 2: the next task of the phase starts at layer + 3.
                    const int layer = phase + 3 * t;
                    const std::uint32_t own = BlockWrites(m_cells, m_start.data(), layer, 0, dims.y).second;
                    PseBlock(view, layer, 0, dims.y, 0, own, m_rx.data(), m_ry.data(), m_rz.data());
                }
            });
        }
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const auto& r) {
            for (std::size_t s = r.begin(); s != r.end(); ++s) rate[m_sorted[s]] = glm::vec3(m_rx[s], m_ry[s], m_rz[s]);
        });
        return;
    }
    // Few layers (a small or flat cloud: three phases of one or two layers
    // leave threads idle): a block per row of a layer, all at once, each
    // writing its own buffer over the vortons it may touch; then each rate is
    // the sum of its blocks' terms in block order. The same bits for any
    // thread count.
    const int blocks = layers * dims.y;
    m_blockFirst.resize(std::size_t(blocks));
    m_blockLast.resize(std::size_t(blocks));
    m_blockOffset.resize(std::size_t(blocks) + 1);
    m_blockOffset[0] = 0;
    for (int b = 0; b < blocks; ++b) {
        const auto [first, last] = BlockWrites(m_cells, m_start.data(), b / dims.y, b % dims.y, b % dims.y + 1);
        m_blockFirst[std::size_t(b)] = first;
        // Kept non-decreasing (a conservative end: the top layers clamp).
        m_blockLast[std::size_t(b)] = b > 0 ? std::max(last, m_blockLast[std::size_t(b) - 1]) : last;
        // Eight floats past each buffer: a run's last eight lanes are written whole.
        m_blockOffset[std::size_t(b) + 1] =
            m_blockOffset[std::size_t(b)] + (m_blockLast[std::size_t(b)] - first) + kBlockPad;
    }
    const std::size_t total = m_blockOffset[std::size_t(blocks)];
    for (auto* r : {&m_rx, &m_ry, &m_rz}) r->assign(total, 0.0f);
    tbb::parallel_for(tbb::blocked_range<int>(0, blocks, 1), [&](const tbb::blocked_range<int>& r) {
        for (int b = r.begin(); b != r.end(); ++b) {
            const std::size_t o = m_blockOffset[std::size_t(b)];
            PseBlock(view, b / dims.y, b % dims.y, b % dims.y + 1, m_blockFirst[std::size_t(b)],
                     m_blockLast[std::size_t(b)] + kBlockPad, m_rx.data() + o, m_ry.data() + o, m_rz.data() + o);
        }
    });
    // Both ends of the blocks' ranges grow with b, so the blocks that cover a
    // chunk of vortons are consecutive.
    constexpr std::size_t kChunk = 256;  // vortons summed at once (on the stack)
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const auto& r) {
        for (std::size_t c = r.begin(); c != r.end(); ++c) {
            const std::uint32_t s0 = std::uint32_t(c * kChunk), s1 = std::uint32_t(std::min(n, (c + 1) * kChunk));
            const int b0 = int(std::upper_bound(m_blockLast.begin(), m_blockLast.end(), s0) - m_blockLast.begin());
            float sx[kChunk] = {}, sy[kChunk] = {}, sz[kChunk] = {};
            for (int b = b0; b < blocks && m_blockFirst[std::size_t(b)] < s1; ++b) {
                const std::uint32_t first = m_blockFirst[std::size_t(b)];
                const std::uint32_t lo = std::max(s0, first), hi = std::min(s1, m_blockLast[std::size_t(b)]);
                const std::size_t o = m_blockOffset[std::size_t(b)] - first;
                for (std::uint32_t s = lo; s < hi; ++s) {
                    sx[s - s0] += m_rx[o + s];
                    sy[s - s0] += m_ry[o + s];
                    sz[s - s0] += m_rz[o + s];
                }
            }
            for (std::uint32_t s = s0; s < s1; ++s) rate[m_sorted[s]] = glm::vec3(sx[s - s0], sy[s - s0], sz[s - s0]);
        }
    });
}

}  // namespace vorton
