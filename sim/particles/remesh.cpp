#include "sim/particles/remesh.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/numerics/aabb.h"
#include "sim/numerics/counting_sort.h"
#include "sim/numerics/uniform_grid.h"

namespace vorton {

namespace {

/// M4′ interpolation kernel of Monaghan (1985), argument in lattice units.
float M4Prime(float x) {
    x = std::abs(x);
    if (x < 1.0f) return 1.0f - 2.5f * x * x + 1.5f * x * x * x;
    if (x < 2.0f) return 0.5f * (2.0f - x) * (2.0f - x) * (1.0f - x);
    return 0.0f;
}

/// Why a lattice point is kept, weakest first: the cap drops in this order.
/// A body's shell ranks above a group's fluid: without it a skin-model body
/// meets no vortons and feels no drag, where the fluid's dropped volume goes
/// to the points that keep it. A diffusion receiver (empty, next to kept
/// vorticity) goes before any vorticity: at the cap it displaced flow_past_ball's
/// wake, and the wake stopped shedding.
enum Tier : std::uint8_t {
    kDropped = 0, kDiffusionReceiver = 1, kVorticity = 2, kReceiver = 3, kFluid = 4, kShell = 5, kInside = 6
};

/// The lattice points a remesh visits: for each row (j, k) of the lattice
/// box, the interval of i that the vortons' kernels, their receivers and the
/// bodies reach (empty rows hold nothing). Points are numbered row by row in
/// (k, j, i) order, so the numbering follows the lexicographic order of the
/// box's points and what sorts by it (ties broken by index, the output order)
/// is the same as on the dense box; the cost grows with the points the
/// vortons and bodies reach, not with the box (a ball 100 m from the layers).
struct LatticeRows {
    glm::ivec3 lo{0}, dims{0};
    std::vector<int> first, last;  ///< per row r = (k − lo.z)·dims.y + (j − lo.y), inclusive; first > last: empty
    std::vector<std::size_t> start;  ///< per row, index of its first point; start[rows] = points

    std::size_t Row(int j, int k) const { return std::size_t(k - lo.z) * std::size_t(dims.y) + std::size_t(j - lo.y); }
    /// Widens the rows of [j0, j1] × [k0, k1] (clipped to the box) to reach [i0, i1].
    void Cover(glm::ivec3 p0, glm::ivec3 p1) {
        p0 = glm::max(p0, lo);
        p1 = glm::min(p1, lo + dims - 1);
        for (int k = p0.z; k <= p1.z; ++k) {
            for (int j = p0.y; j <= p1.y; ++j) {
                const std::size_t r = Row(j, k);
                first[r] = std::min(first[r], p0.x);
                last[r] = std::max(last[r], p1.x);
            }
        }
    }
    std::size_t Finish() {
        start.assign(first.size() + 1, 0);
        for (std::size_t r = 0; r < first.size(); ++r) {
            start[r + 1] = start[r] + (first[r] <= last[r] ? std::size_t(last[r] - first[r] + 1) : 0);
        }
        return start.back();
    }
    /// Index of (i, j, k), or SIZE_MAX if the point is not visited.
    std::size_t At(int i, int j, int k) const {
        if (j < lo.y || k < lo.z || j >= lo.y + dims.y || k >= lo.z + dims.z) return SIZE_MAX;
        const std::size_t r = Row(j, k);
        if (i < first[r] || i > last[r]) return SIZE_MAX;
        return start[r] + std::size_t(i - first[r]);
    }
    /// visit(idx, i, j, k) for every visited point, in index order.
    template <typename F>
    void ForEach(F&& visit) const {
        for (int k = lo.z; k < lo.z + dims.z; ++k) {
            for (int j = lo.y; j < lo.y + dims.y; ++j) {
                const std::size_t r = Row(j, k);
                for (int i = first[r]; i <= last[r]; ++i) visit(start[r] + std::size_t(i - first[r]), i, j, k);
            }
        }
    }
};

/// visit(r, q) for every row r of the box and every other row q within
/// `reach` of it along `axis` (1: j, 2: k), clipped to the box; r in index
/// order, then q from the lowest up.
template <typename F>
void ForRowsWithin(const LatticeRows& rows, int axis, int reach, F&& visit) {
    const int ny = rows.dims.y, nz = rows.dims.z;
    const std::ptrdiff_t stride = axis == 1 ? 1 : std::ptrdiff_t(ny);
    for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
            const std::size_t r = std::size_t(k) * std::size_t(ny) + std::size_t(j);
            const int c = axis == 1 ? j : k, n = axis == 1 ? ny : nz;
            for (int d = std::max(-reach, -c); d <= std::min(reach, n - 1 - c); ++d) {
                if (d != 0) visit(r, r + std::size_t(std::ptrdiff_t(d) * stride));
            }
        }
    }
}

/// Widens every row's interval to what the rows within `reach` (Chebyshev,
/// in j and k) hold, each by `reach` in i: the rows' hull grown by `reach`
/// lattice steps in every direction, clipped to the box.
void GrowRows(LatticeRows& rows, int reach) {
    if (reach <= 0) return;
    for (int axis = 1; axis <= 2; ++axis) {
        const std::vector<int> first = rows.first, last = rows.last;
        ForRowsWithin(rows, axis, reach, [&](std::size_t r, std::size_t q) {
            rows.first[r] = std::min(rows.first[r], first[q]);
            rows.last[r] = std::max(rows.last[r], last[q]);
        });
    }
    const int x0 = rows.lo.x, x1 = rows.lo.x + rows.dims.x - 1;
    for (std::size_t r = 0; r < rows.first.size(); ++r) {
        if (rows.first[r] > rows.last[r]) continue;
        rows.first[r] = std::max(x0, rows.first[r] - reach);
        rows.last[r] = std::min(x1, rows.last[r] + reach);
    }
}

/// Sets mask points within `reach` lattice steps (Chebyshev) of a set point:
/// three separable 1D dilations, each point taking the OR of the points within
/// `reach` of it along the axis (points not visited count as unset).
void Dilate(std::vector<std::uint8_t>& mask, const LatticeRows& rows, int reach) {
    if (reach <= 0) return;
    std::vector<std::uint8_t> in = mask;
    // Along i, within each row.
    for (std::size_t r = 0; r < rows.first.size(); ++r) {
        if (rows.first[r] > rows.last[r]) continue;
        const int n = rows.last[r] - rows.first[r] + 1;
        std::uint8_t* m = mask.data() + rows.start[r];
        const std::uint8_t* line = in.data() + rows.start[r];
        int last = -reach - 1;  // last set point seen going up
        for (int i = 0; i < n; ++i) {
            if (line[i]) last = i;
            if (i - last <= reach) m[i] = 1;
        }
        last = n + reach + 1;  // going down
        for (int i = n - 1; i >= 0; --i) {
            if (line[i]) last = i;
            if (last - i <= reach) m[i] = 1;
        }
    }
    // Along j, then k: each row ORs the rows within reach over the i they share.
    for (int axis = 1; axis <= 2; ++axis) {
        in = mask;
        ForRowsWithin(rows, axis, reach, [&](std::size_t r, std::size_t q) {
            const int i0 = std::max(rows.first[r], rows.first[q]), i1 = std::min(rows.last[r], rows.last[q]);
            if (i0 > i1) return;  // also when either row is empty
            const std::uint8_t* src = in.data() + rows.start[q] + std::ptrdiff_t(i0 - rows.first[q]);
            std::uint8_t* dst = mask.data() + rows.start[r] + std::ptrdiff_t(i0 - rows.first[r]);
            for (int i = 0; i <= i1 - i0; ++i) dst[i] |= src[i];
        });
    }
}

}  // namespace

namespace {

/// What the vortons' M4′ weights put on each visited lattice point.
struct LatticeSums {
    std::vector<glm::vec3> alpha;         // Σ w α, m³/s
    std::vector<float> occupancy;         // Σ w
    std::vector<float> birth;             // Σ w · birth height
    std::vector<float> birthMin, birthMax;  // range of the birth heights that reach it
    std::vector<float> volume;            // per point and channel: Σ w · the group's fluid volume
    std::size_t channels;

    LatticeSums(std::size_t points, std::size_t channelCount)
        : alpha(points, glm::vec3(0.0f)), occupancy(points, 0.0f), birth(points, 0.0f),
          birthMin(points, std::numeric_limits<float>::max()), birthMax(points, -std::numeric_limits<float>::max()),
          volume(points * channelCount, 0.0f), channels(channelCount) {}
};

/// Spreads each vorton onto the 4×4×4 lattice points of its M4′ kernel (all
/// visited by `rows`); channelOf[g] is group g's volume channel (−1: none).
/// In parallel by slabs of z-layers (a slab's points are one index range): a
/// slab visits the vortons whose kernel reaches it in vorton order, so every
/// point receives its terms in vorton order, as a serial loop over the
/// vortons would add them: the same bits for any thread count.
void SpreadOntoLattice(const Lattice& lattice, const LatticeRows& rows, const Vortons& vortons,
                       std::span<const int> channelOf, LatticeSums& sums) {
    const std::size_t n = vortons.Size(), groupCount = channelOf.size(), channels = sums.channels;
    const float h = lattice.spacing;
    const glm::ivec3 lo = rows.lo, dims = rows.dims;
    std::vector<glm::vec3>& alpha = sums.alpha;
    std::vector<float> &occupancy = sums.occupancy, &birth = sums.birth, &birthMin = sums.birthMin,
                      &birthMax = sums.birthMax, &volume = sums.volume;
    std::vector<std::uint32_t> layerOf(n), layerStart, byLayer;
    for (std::size_t p = 0; p < n; ++p) {
        const int base = int(std::floor((vortons.position[p].z - lattice.origin.z) / h));
        layerOf[p] = std::uint32_t(std::clamp(base - 1 - lo.z, 0, dims.z - 1));  // the kernel's lowest layer
    }
    CountingSort(layerOf, std::size_t(dims.z), layerStart, byLayer);
    constexpr int kSlab = 4;  // layers
    const int slabs = (dims.z + kSlab - 1) / kSlab;
    tbb::parallel_for(tbb::blocked_range<int>(0, slabs, 1), [&](const tbb::blocked_range<int>& range) {
        std::vector<std::uint32_t> visit;
        for (int slab = range.begin(); slab != range.end(); ++slab) {
            const int k0 = slab * kSlab, k1 = std::min(dims.z, k0 + kSlab);  // layers [k0, k1), box-relative
            visit.clear();
            for (int f = std::max(0, k0 - 3); f < k1; ++f) {
                visit.insert(visit.end(), byLayer.begin() + layerStart[std::size_t(f)],
                             byLayer.begin() + layerStart[std::size_t(f) + 1]);
            }
            std::sort(visit.begin(), visit.end());
            for (const std::uint32_t p : visit) {
                const glm::vec3 u = (vortons.position[p] - lattice.origin) / h;
                const glm::ivec3 base = glm::ivec3(glm::floor(u));
                float w[3][4];
                for (int a = 0; a < 3; ++a) {
                    for (int o = 0; o < 4; ++o) w[a][o] = M4Prime(u[a] - float(base[a] - 1 + o));
                }
                const glm::vec3 a = vortons.vorticity[p] * vortons.volume[p];
                const std::uint16_t g = vortons.group[p];
                const int channel = g == kAmbientGroup || g >= groupCount ? -1 : channelOf[g];
                const float m = channel < 0 ? 0.0f : vortons.massFraction[p] * vortons.volume[p];
                const float z0 = vortons.birthHeight[p];
                for (int k = 0; k < 4; ++k) {
                    const int layer = base.z - 1 + k - lo.z;
                    if (layer < k0 || layer >= k1) continue;
                    for (int j = 0; j < 4; ++j) {
                        const float wzy = w[2][k] * w[1][j];
                        if (wzy == 0.0f) continue;
                        // The kernel's row (always visited): its first point's index.
                        const std::size_t row0 = rows.At(base.x - 1, base.y - 1 + j, base.z - 1 + k);
                        for (int i = 0; i < 4; ++i) {
                            const float weight = wzy * w[0][i];
                            if (weight == 0.0f) continue;
                            const std::size_t idx = row0 + std::size_t(i);
                            alpha[idx] += weight * a;
                            occupancy[idx] += weight;
                            birth[idx] += weight * z0;
                            birthMin[idx] = std::min(birthMin[idx], z0);
                            birthMax[idx] = std::max(birthMax[idx], z0);
                            if (channel >= 0) volume[idx * channels + std::size_t(channel)] += weight * m;
                        }
                    }
                }
            }
        }
    });
}

/// One remesh onto `lattice`: fills `out` (vortons of core `sigma`) and the
/// report; false if the lattice box is too large. With more than `earlyOut`
/// points to keep it stops before filling `out` (report.after says how many).
bool RemeshOnto(const Lattice& lattice, float sigma, const RemeshSettings& settings, std::size_t earlyOut,
                const Vortons& vortons, Vortons& out, RemeshReport& report) {
    const std::size_t n = vortons.Size();
    const float h = lattice.spacing;
    Aabb box = BoundsOf(vortons.position);
    if (box.Empty()) return false;
    if (settings.bodyShell > 0.0f) {
        for (const glm::vec4& body : settings.bodies) {
            box.Grow(glm::vec3(body) - (body.w + settings.bodyShell));
            box.Grow(glm::vec3(body) + (body.w + settings.bodyShell));
        }
    }
    const glm::ivec3 lo = glm::ivec3(glm::floor((box.min - lattice.origin) / h)) - 2;
    const glm::ivec3 hi = glm::ivec3(glm::floor((box.max - lattice.origin) / h)) + 3;
    const glm::ivec3 dims = hi - lo + 1;
    if (double(dims.y) * double(dims.z) > double(settings.maxPoints)) return false;
    LatticeRows rows;
    rows.lo = lo;
    rows.dims = dims;
    rows.first.assign(std::size_t(dims.y) * std::size_t(dims.z), std::numeric_limits<int>::max());
    rows.last.assign(rows.first.size(), std::numeric_limits<int>::min());
    // Each vorton's kernel (base − 1 … base + 2) and the receivers within
    // receiverReach of it; each body's shell and inside.
    for (std::size_t p = 0; p < n; ++p) {
        const glm::ivec3 base = glm::ivec3(glm::floor((vortons.position[p] - lattice.origin) / h));
        rows.Cover(base - 1, base + 2);
    }
    GrowRows(rows, std::max(0, settings.receiverReach));
    for (const glm::vec4& body : settings.bodies) {
        const float outer = body.w + std::max(0.0f, settings.bodyShell);
        rows.Cover(glm::ivec3(glm::floor((glm::vec3(body) - outer - lattice.origin) / h)) - 1,
                   glm::ivec3(glm::ceil((glm::vec3(body) + outer - lattice.origin) / h)) + 1);
    }
    const std::size_t points = rows.Finish();
    if (points > settings.maxPoints) return false;

    // Each group present gets a volume channel (usually one or two).
    const std::size_t groupCount = settings.buoyantGroup.size();
    std::vector<int> channelOf(groupCount, -1);
    std::vector<std::uint16_t> groupOfChannel;
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint16_t g = vortons.group[k];
        if (g != kAmbientGroup && g < groupCount && channelOf[g] < 0) {
            channelOf[g] = int(groupOfChannel.size());
            groupOfChannel.push_back(g);
        }
    }
    const std::size_t channels = groupOfChannel.size();
    LatticeSums sums(points, channels);
    SpreadOntoLattice(lattice, rows, vortons, channelOf, sums);
    std::vector<glm::vec3>& alpha = sums.alpha;
    const std::vector<float>& occupancy = sums.occupancy;
    const std::vector<float>& birth = sums.birth;
    const std::vector<float>& birthMin = sums.birthMin;
    const std::vector<float>& birthMax = sums.birthMax;
    const std::vector<float>& volume = sums.volume;

    // Fluid: the group with the most volume at each point, if above the floor.
    const float cellVolume = h * h * h;
    const float floorVolume = settings.groupFloor * cellVolume;
    std::vector<std::int8_t> best(points, -1);
    std::vector<std::uint8_t> tier(points, kDropped);
    // What makes a point a receiver: 0 none, kNearBuoyant (within reach of a
    // buoyant group's fluid; Dilate spreads the 1s), kInShell (a body's shell).
    constexpr std::uint8_t kNearBuoyant = 1, kInShell = 2;
    std::vector<std::uint8_t> receiver(points, 0);
    bool anyBuoyant = false;
    for (std::size_t idx = 0; idx < points; ++idx) {
        float bestVolume = floorVolume;
        for (std::size_t c = 0; c < channels; ++c) {
            const float m = volume[idx * channels + c];
            if (m >= bestVolume) {
                bestVolume = m;
                best[idx] = std::int8_t(c);
            }
        }
        if (best[idx] < 0) continue;
        tier[idx] = kFluid;
        if (settings.buoyantGroup[groupOfChannel[std::size_t(best[idx])]]) {
            receiver[idx] = kNearBuoyant;
            anyBuoyant = true;
        }
    }
    if (anyBuoyant) Dilate(receiver, rows, settings.receiverReach);
    // visit(idx, d²) for the lattice points within `outer` of c (d: their distance to c).
    auto forPointsWithin = [&](glm::vec3 c, float outer, auto&& visit) {
        const glm::ivec3 b0 = glm::max(glm::ivec3(glm::floor((c - outer - lattice.origin) / h)), lo);
        const glm::ivec3 b1 = glm::min(glm::ivec3(glm::ceil((c + outer - lattice.origin) / h)), hi);
        for (int k = b0.z; k <= b1.z; ++k) {
            for (int j = b0.y; j <= b1.y; ++j) {
                for (int i = b0.x; i <= b1.x; ++i) {
                    const glm::vec3 d = lattice.origin + h * glm::vec3(i, j, k) - c;
                    const float d2 = glm::dot(d, d);
                    if (d2 < outer * outer) visit(rows.At(i, j, k), d2);  // covered by rows.Cover
                }
            }
        }
    };
    // Lattice points in the shell around a body are receivers.
    if (settings.bodyShell > 0.0f) {
        for (const glm::vec4& body : settings.bodies) {
            const float r2 = body.w * body.w;
            forPointsWithin(glm::vec3(body), body.w + settings.bodyShell, [&](std::size_t idx, float d2) {
                if (d2 >= r2) receiver[idx] = kInShell;
            });
        }
    }
    // Lattice points inside a body.
    for (const glm::vec4& body : settings.bodies) {
        forPointsWithin(glm::vec3(body), body.w, [&](std::size_t idx, float) {
            tier[idx] = kInside;
            best[idx] = -1;  // no group's fluid inside a body
            receiver[idx] = 0;
        });
    }

    // Vorticity: everything else with |α| > 0, minus the weakest within the budget.
    double totalStrength = 0.0;
    std::vector<std::pair<float, std::uint32_t>> weak;  // (|α|, point) of points with only vorticity
    for (std::size_t idx = 0; idx < points; ++idx) {
        const float s = glm::length(alpha[idx]);
        totalStrength += double(s);
        if (tier[idx] == kFluid || tier[idx] == kInside) continue;
        if (receiver[idx]) {
            tier[idx] = receiver[idx] == kInShell ? kShell : kReceiver;
        } else if (s > 0.0f) {
            tier[idx] = kVorticity;
            weak.emplace_back(s, std::uint32_t(idx));
        }
    }
    // The weakest go first until the budget is spent. Only the first k in
    // sorted order are sorted, k growing until the budget runs out within
    // them: the pairs are unique, so these are the full sort's first k.
    double dropped = 0.0;
    const double budget = double(settings.cullFraction) * totalStrength;
    bool spent = false;
    for (std::size_t sorted = 0, k = std::min<std::size_t>(weak.size(), 4096); !spent && sorted < weak.size();
         sorted = k, k = std::min(weak.size(), 4 * k)) {
        if (k < weak.size()) std::nth_element(weak.begin() + std::ptrdiff_t(sorted), weak.begin() + std::ptrdiff_t(k), weak.end());
        std::sort(weak.begin() + std::ptrdiff_t(sorted), weak.begin() + std::ptrdiff_t(k));
        for (std::size_t w = sorted; w < k; ++w) {
            const auto [s, idx] = weak[w];
            if (dropped + double(s) > budget) {
                spent = true;
                break;
            }
            dropped += double(s);
            tier[idx] = kDropped;
        }
    }

    // The floor, whatever the budget: a flow that decays everywhere at once
    // (a ball come to rest in still water) would otherwise keep every vorton.
    if (settings.cullVorticity > 0.0f) {
        const float least = settings.cullVorticity * h * h * h;
        for (const auto& [s, idx] : weak) {
            if (tier[idx] != kVorticity || !(s < least)) continue;
            tier[idx] = kDropped;
            dropped += double(s);
        }
    }

    if (settings.diffusionReceivers) {
        // Receivers next to the kept vorticity that is not negligible: PSE can
        // then pass it on into still fluid. A culled point among them stays
        // culled (its strength is not kept), so the budget holds.
        auto keptVorticity = [&](std::size_t idx) { return tier[idx] == kVorticity || tier[idx] == kFluid; };
        float peak = 0.0f;
        for (std::size_t idx = 0; idx < points; ++idx) {
            if (keptVorticity(idx)) peak = std::max(peak, glm::length(alpha[idx]));
        }
        const float least = settings.diffusionReceiverFraction * peak;
        std::vector<std::uint8_t> near(points, 0);
        for (std::size_t idx = 0; idx < points; ++idx) {
            near[idx] = keptVorticity(idx) && peak > 0.0f && glm::length(alpha[idx]) >= least;
        }
        Dilate(near, rows, 1);
        for (std::size_t idx = 0; idx < points; ++idx) {
            if (!near[idx] || tier[idx] != kDropped) continue;
            alpha[idx] = glm::vec3(0.0f);
            tier[idx] = kDiffusionReceiver;
        }
    }
    for (std::size_t idx = 0; idx < points; ++idx) {
        // What the spreading put inside a body is kept (the caller moves it
        // out to the surface): the vorticity the body made stays in the flow.
        if (tier[idx] != kInside || (settings.keepInside && glm::length(alpha[idx]) > 0.0f)) continue;
        tier[idx] = kDropped;
        dropped += double(glm::length(alpha[idx]));
    }

    // Gap (m) from lattice point (i, j, k) to the nearest body's surface.
    auto gapToBodies = [&](int i, int j, int k) {
        const glm::vec3 x = lattice.origin + h * glm::vec3(i, j, k);
        float gap = std::numeric_limits<float>::max();
        for (const glm::vec4& body : settings.bodies) gap = std::min(gap, glm::length(x - glm::vec3(body)) - body.w);
        return gap;
    };

    // The cap: weakest tier first, then the weakest within it.
    std::size_t kept = 0;
    for (std::size_t idx = 0; idx < points; ++idx) kept += tier[idx] != kDropped;
    bool capped = false;
    report.after = kept;
    if (kept > earlyOut) return true;  // the caller coarsens: `out` is not filled
    if (kept > settings.maxVortons) {
        capped = true;
        struct Rank {
            std::uint8_t tier;
            float strength;
            std::uint32_t idx;
            bool operator<(const Rank& o) const {
                if (tier != o.tier) return tier < o.tier;
                if (strength != o.strength) return strength < o.strength;
                return idx < o.idx;
            }
        };
        std::vector<Rank> ranks;
        ranks.reserve(kept);
        rows.ForEach([&](std::size_t idx, int i, int j, int k) {
            if (tier[idx] == kDropped) return;
            float strength = tier[idx] == kFluid ? volume[idx * channels + std::size_t(best[idx])]
                                                 : glm::length(alpha[idx]);
            if (settings.capFarthestFirst && (tier[idx] == kVorticity || tier[idx] == kDiffusionReceiver) &&
                !settings.bodies.empty()) {
                strength = -gapToBodies(i, j, k);  // the farthest ranks lowest
            }
            ranks.push_back({tier[idx], strength, std::uint32_t(idx)});
        });
        std::sort(ranks.begin(), ranks.end());
        std::size_t cut = kept - settings.maxVortons;
        // Points that rank equal go together: by distance, a point and its
        // mirror images about a body rank equal, and splitting them by index
        // would drop one side.
        while (settings.capFarthestFirst && cut < ranks.size() && ranks[cut].tier == ranks[cut - 1].tier &&
               ranks[cut].strength == ranks[cut - 1].strength) {
            ++cut;
        }
        for (std::size_t r = 0; r < cut; ++r) {
            tier[ranks[r].idx] = kDropped;
            dropped += double(glm::length(alpha[ranks[r].idx]));
        }
        kept -= cut;
    }

    // Each group's total volume goes to the points that keep its fluid.
    std::vector<double> total(channels, 0.0), held(channels, 0.0);
    for (std::size_t idx = 0; idx < points; ++idx) {
        for (std::size_t c = 0; c < channels; ++c) total[c] += double(volume[idx * channels + c]);
        if (tier[idx] != kDropped && best[idx] >= 0) {
            const std::size_t c = std::size_t(best[idx]);
            held[c] += double(volume[idx * channels + c]);
        }
    }
    std::vector<float> scale(channels, 0.0f);
    for (std::size_t c = 0; c < channels; ++c) scale[c] = held[c] > 0.0 ? float(total[c] / held[c]) : 0.0f;

    out.Clear();
    out.position.reserve(kept);
    rows.ForEach([&](std::size_t idx, int i, int j, int k) {
        if (tier[idx] == kDropped) return;
        const glm::vec3 x = lattice.origin + h * glm::vec3(i, j, k);
        const int c = best[idx];
        const std::uint16_t group = c < 0 ? kAmbientGroup : groupOfChannel[std::size_t(c)];
        const float fraction =
            c < 0 ? 0.0f : volume[idx * channels + std::size_t(c)] * scale[std::size_t(c)] / cellVolume;
        // Birth height (the stratified density it carries) as a weighted
        // mean; the kernel's negative lobes can push a mean of few
        // contributions outside their range, so it is clamped to it.
        float z0 = x.z;
        if (birthMin[idx] <= birthMax[idx]) {
            z0 = std::abs(occupancy[idx]) > 1.0e-3f ? birth[idx] / occupancy[idx] : 0.5f * (birthMin[idx] + birthMax[idx]);
            z0 = std::clamp(z0, birthMin[idx], birthMax[idx]);
        }
        out.Add(x, alpha[idx] / cellVolume, sigma, cellVolume, group, fraction, z0);
    });
    report.before = n;
    report.after = out.Size();
    report.droppedStrength = totalStrength > 0.0 ? dropped / totalStrength : 0.0;
    report.capped = capped;
    report.lattice = lattice;
    report.sigma = sigma;
    return true;
}

// Points of the solver's grid around `vortons` (RemeshSettings::maxGridPoints).
std::size_t GridPointsAround(const Vortons& vortons, float cell) {
    if (vortons.Size() == 0 || !(cell > 0.0f)) return 0;
    return GridPointCount(BoundsOf(vortons.position), cell, 2.5f * cell);
}

}  // namespace

bool Remesh(const Lattice& lattice, const RemeshSettings& settings, Vortons& vortons, RemeshReport* report) {
    if (vortons.Size() == 0 || lattice.spacing <= 0.0f) return false;
    RemeshReport local;
    RemeshReport& r = report ? *report : local;
    Vortons out;
    Lattice coarse = lattice;
    float sigma = settings.sigma;
    CoarseningCause cause = CoarseningCause::None;
    // Past the cap the flow has spread (diffusion, a growing wake): a lattice
    // twice as coarse holds it with a quarter to an eighth of the vortons and
    // conserves what the spreading conserves, where dropping the weakest
    // would erode it. Only on the coarsest lattice allowed are the weakest
    // dropped to meet the cap.
    for (int level = 0;; ++level) {
        const bool last = level >= settings.maxCoarsening ||
                          !(coarse.spacing * settings.coarsenFactor <= settings.maxSpacing);
        const std::size_t earlyOut = last ? std::numeric_limits<std::size_t>::max() : settings.maxVortons;
        if (!RemeshOnto(coarse, sigma, settings, earlyOut, vortons, out, r)) return false;
        // RemeshOnto stops early (out unfilled) past earlyOut, so the grid is counted only within the count cap.
        const bool countFits = r.after <= settings.maxVortons;
        if (last || (countFits && GridPointsAround(out, coarse.spacing * settings.gridCellRatio) <=
                                      settings.maxGridPoints)) {
            r.coarsened = level;
            r.cause = level == 0 ? CoarseningCause::None : cause;
            vortons = std::move(out);
            return true;
        }
        cause = countFits ? CoarseningCause::GridPoints : CoarseningCause::Vortons;
        coarse.spacing *= settings.coarsenFactor;
        sigma *= settings.coarsenFactor;
    }
}

}  // namespace vorton
