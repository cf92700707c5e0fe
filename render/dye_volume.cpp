#include "render/dye_volume.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace vorton::render {
namespace {

constexpr std::uint32_t kNoBin = std::numeric_limits<std::uint32_t>::max();
// Tracers per counting-sort chunk: fixed, so the sort's order never depends on the threads.
constexpr std::size_t kChunk = 16384;
constexpr std::size_t kPercentileSamples = 32768;
constexpr double kLowQuantile = 0.001;
constexpr glm::vec4 kWhite{1.0f};

// The q-th quantile of `values` (reordered).
float Quantile(std::vector<float>& values, double q) {
    const auto k = std::ptrdiff_t(q * double(values.size() - 1) + 0.5);
    std::nth_element(values.begin(), values.begin() + k, values.end());
    return values[std::size_t(k)];
}

}  // namespace

void DyeVolume::Build(std::span<const glm::vec3> positions, std::span<const std::uint16_t> groups,
                      std::span<const glm::vec4> palette, const Settings& settings) {
    FitGrid(positions, settings);
    if (m_grid.Empty()) {
        m_voxels.clear();
        return;
    }
    const std::span<const glm::vec4> colors = palette.empty() ? std::span<const glm::vec4>(&kWhite, 1) : palette;
    SortIntoPlanes(positions, groups, colors.size());
    AccumulatePlanes(colors);
    Blur();
    SpreadSparseDye();
}

void DyeVolume::FitGrid(std::span<const glm::vec3> positions, const Settings& settings) {
    m_grid = VolumeGrid{};
    if (positions.empty()) return;
    const std::size_t stride = std::max<std::size_t>(1, positions.size() / kPercentileSamples);
    glm::vec3 lo, hi;
    std::vector<float> axis;
    for (int a = 0; a < 3; ++a) {
        axis.clear();
        for (std::size_t i = 0; i < positions.size(); i += stride) {
            if (std::isfinite(positions[i][a])) axis.push_back(positions[i][a]);
        }
        if (axis.empty()) return;
        lo[a] = Quantile(axis, kLowQuantile);
        hi[a] = Quantile(axis, 1.0 - kLowQuantile);
    }
    const glm::vec3 extent = glm::max(hi - lo, glm::vec3(0.0f));
    m_tracerVolume = settings.tracerVolume;
    if (!(m_tracerVolume > 0.0f)) {
        const glm::vec3 box = glm::max(extent, glm::vec3(1e-3f));
        m_tracerVolume = box.x * box.y * box.z / float(positions.size());
    }
    const double budget = double(std::max<std::size_t>(settings.maxVoxels, 64));
    const int maxAxis = std::max(settings.maxAxisVoxels, 2 * kPadding + 2);
    // The spacing the budget allows for the padded box, then rounded up to 2^(k/8) and grown
    // by that factor until the grid fits.
    double h = std::max(double(kSpacingPerTracer) * std::cbrt(double(m_tracerVolume)),
                        std::cbrt(double(extent.x) * extent.y * extent.z / budget));
    h = std::max(h, 1e-6);
    h = std::exp2(std::ceil(8.0 * std::log2(h)) / 8.0);
    for (int guard = 0; guard < 400; ++guard, h *= std::exp2(0.125)) {
        glm::ivec3 first, size;
        for (int a = 0; a < 3; ++a) {
            first[a] = int(std::floor(double(lo[a]) / h)) - kPadding;
            size[a] = int(std::ceil(double(hi[a]) / h)) + kPadding - first[a];
            size[a] += size[a] & 1;  // even: the light grid at half resolution covers the same box
        }
        const double count = double(size.x) * size.y * size.z;
        if (count > budget || size.x > maxAxis || size.y > maxAxis || size.z > maxAxis) continue;
        m_grid.spacing = float(h);
        m_grid.origin = glm::vec3(glm::dvec3(first) * h);
        m_grid.size = size;
        return;
    }
}

void DyeVolume::SortIntoPlanes(std::span<const glm::vec3> positions, std::span<const std::uint16_t> groups,
                               std::size_t groupCount) {
    const std::size_t n = positions.size();
    const std::size_t bins = std::size_t(m_grid.size.z) + 1;  // k0 = -1 .. nz - 1
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    m_bin.resize(n);
    m_chunkCounts.assign(chunks * bins, 0);
    const glm::vec3 origin = m_grid.origin;
    const float inverse = 1.0f / m_grid.spacing;
    const glm::ivec3 size = m_grid.size;
    const bool haveGroups = groups.size() >= n;

    // Voxel-centre coordinates of a tracer; in range when its 2x2x2 stencil touches the grid.
    auto gridPoint = [&](std::size_t i) { return (positions[i] - origin) * inverse - 0.5f; };
    auto binOf = [&](const glm::vec3& g) -> std::uint32_t {
        if (!(g.x >= -1.0f && g.y >= -1.0f && g.z >= -1.0f)) return kNoBin;  // NaN too
        if (!(g.x < float(size.x) && g.y < float(size.y) && g.z < float(size.z))) return kNoBin;
        return std::uint32_t(int(std::floor(g.z)) + 1);
    };
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
        std::uint32_t* counts = &m_chunkCounts[c * bins];
        for (std::size_t i = c * kChunk, end = std::min(n, i + kChunk); i < end; ++i) {
            m_bin[i] = binOf(gridPoint(i));
            if (m_bin[i] != kNoBin) ++counts[m_bin[i]];
        }
    });
    // Offsets bin-major, chunk-minor: each bin keeps the tracers' index order (a stable sort).
    m_planeStart.assign(bins + 1, 0);
    std::uint32_t total = 0;
    for (std::size_t b = 0; b < bins; ++b) {
        m_planeStart[b] = total;
        for (std::size_t c = 0; c < chunks; ++c) {
            const std::uint32_t count = m_chunkCounts[c * bins + b];
            m_chunkCounts[c * bins + b] = total;
            total += count;
        }
    }
    m_planeStart[bins] = total;
    m_splats.resize(total);
    const std::uint32_t lastGroup = std::uint32_t(groupCount - 1);
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
        std::uint32_t* next = &m_chunkCounts[c * bins];
        for (std::size_t i = c * kChunk, end = std::min(n, i + kChunk); i < end; ++i) {
            if (m_bin[i] == kNoBin) continue;
            const glm::vec3 g = gridPoint(i);
            const std::uint32_t group = haveGroups ? std::min<std::uint32_t>(groups[i], lastGroup) : 0;
            m_splats[next[m_bin[i]]++] = Splat{g.x, g.y, g.z - std::floor(g.z), group};
        }
    });
}

void DyeVolume::AccumulatePlanes(std::span<const glm::vec4> colors) {
    const glm::ivec3 size = m_grid.size;
    const std::size_t plane = std::size_t(size.x) * std::size_t(size.y);
    m_voxels.resize(m_grid.Count());
    m_planeHasDye.assign(std::size_t(size.z), 0);
    // Concentration one tracer adds to one voxel: its volume over the voxel's.
    const float unit = m_tracerVolume / (m_grid.spacing * m_grid.spacing * m_grid.spacing);
    std::vector<glm::vec4> amount(colors.size());
    for (std::size_t g = 0; g < colors.size(); ++g) {
        const glm::vec4 c = glm::clamp(colors[g], glm::vec4(0.0f), glm::vec4(1.0f));
        amount[g] = unit * c.a * glm::vec4(c.r, c.g, c.b, 1.0f);
    }
    // Plane k gathers the tracers just below it (bin k, weight fz) and just above (bin k + 1,
    // weight 1 - fz): one writer per plane and a fixed order, so no atomics and no races.
    tbb::parallel_for(0, size.z, [&](int k) {
        glm::vec4* out = &m_voxels[std::size_t(k) * plane];
        std::fill(out, out + plane, glm::vec4(0.0f));
        m_planeHasDye[std::size_t(k)] = m_planeStart[std::size_t(k) + 2] > m_planeStart[std::size_t(k)];
        for (int side = 0; side < 2; ++side) {
            const std::size_t bin = std::size_t(k + side);
            for (std::uint32_t s = m_planeStart[bin]; s < m_planeStart[bin + 1]; ++s) {
                const Splat& t = m_splats[s];
                const float wz = side == 0 ? t.fz : 1.0f - t.fz;
                const float fx = std::floor(t.x), fy = std::floor(t.y);
                const int i0 = int(fx), j0 = int(fy);
                const float ax = t.x - fx, ay = t.y - fy;
                const glm::vec4 v = amount[t.group] * wz;
                const float wx[2] = {1.0f - ax, ax}, wy[2] = {1.0f - ay, ay};
                for (int dj = 0; dj < 2; ++dj) {
                    const int j = j0 + dj;
                    if (j < 0 || j >= size.y) continue;
                    glm::vec4* row = out + std::size_t(j) * std::size_t(size.x);
                    for (int di = 0; di < 2; ++di) {
                        const int i = i0 + di;
                        if (i >= 0 && i < size.x) row[i] += v * (wx[di] * wy[dj]);
                    }
                }
            }
        }
    });
}

void DyeVolume::Blur() {
    const glm::ivec3 n = m_grid.size;
    const std::size_t plane = std::size_t(n.x) * std::size_t(n.y);
    m_scratch.resize(m_voxels.size());
    // [1 2 1]/4 along x then y within each plane (in a plane-sized buffer, so the data stays in
    // cache), into m_scratch; then along z back into m_voxels. Outside the grid there is no dye,
    // and planes without dye stay empty without being read.
    tbb::parallel_for(0, n.z, [&](int k) {
        const glm::vec4* src = &m_voxels[std::size_t(k) * plane];
        glm::vec4* dst = &m_scratch[std::size_t(k) * plane];
        if (!m_planeHasDye[std::size_t(k)]) {
            std::fill(dst, dst + plane, glm::vec4(0.0f));
            return;
        }
        thread_local std::vector<glm::vec4> rowsX;
        rowsX.resize(plane);
        for (int j = 0; j < n.y; ++j) {
            const glm::vec4* row = src + std::size_t(j) * n.x;
            glm::vec4* out = rowsX.data() + std::size_t(j) * n.x;
            for (int i = 0; i < n.x; ++i) {
                glm::vec4 sum = 2.0f * row[i];
                if (i > 0) sum += row[i - 1];
                if (i + 1 < n.x) sum += row[i + 1];
                out[i] = sum;  // x4
            }
        }
        for (int j = 0; j < n.y; ++j) {
            const glm::vec4* here = rowsX.data() + std::size_t(j) * n.x;
            const glm::vec4* below = j > 0 ? here - n.x : nullptr;
            const glm::vec4* above = j + 1 < n.y ? here + n.x : nullptr;
            glm::vec4* out = dst + std::size_t(j) * n.x;
            for (int i = 0; i < n.x; ++i) {
                glm::vec4 sum = 2.0f * here[i];
                if (below) sum += below[i];
                if (above) sum += above[i];
                out[i] = sum * (1.0f / 16.0f);
            }
        }
    });
    tbb::parallel_for(0, n.z, [&](int k) {
        glm::vec4* out = &m_voxels[std::size_t(k) * plane];
        const auto has = [&](int q) { return q >= 0 && q < n.z && m_planeHasDye[std::size_t(q)]; };
        if (!has(k - 1) && !has(k) && !has(k + 1)) {
            std::fill(out, out + plane, glm::vec4(0.0f));
            return;
        }
        const glm::vec4* here = &m_scratch[std::size_t(k) * plane];
        const glm::vec4* below = has(k - 1) ? here - plane : nullptr;
        const glm::vec4* above = has(k + 1) ? here + plane : nullptr;
        for (std::size_t v = 0; v < plane; ++v) {
            glm::vec4 sum = 2.0f * here[v];
            if (below) sum += below[v];
            if (above) sum += above[v];
            out[v] = 0.25f * sum;
        }
    });
}

void DyeVolume::SpreadSparseDye() {
    const glm::ivec3 n = m_grid.size, nc = n / 2;  // sides are even
    const std::size_t plane = std::size_t(n.x) * n.y, coarsePlane = std::size_t(nc.x) * nc.y;
    const auto fineAt = [&](int i, int j, int k) { return std::size_t(k) * plane + std::size_t(j) * n.x + i; };
    const auto coarseAt = [&](int i, int j, int k) { return std::size_t(k) * coarsePlane + std::size_t(j) * nc.x + i; };
    // Bodies of dye: the densest fine voxel of each 2x2x2 block, then of its 3x3x3 neighbourhood
    // of blocks. A lone tracer's sharp peak is at most unit / 8 (the [1 2 1] blur's centre
    // weight), so kBodyTracers tracers per voxel tell a body from scattered tracers.
    const float unit = m_tracerVolume / (m_grid.spacing * m_grid.spacing * m_grid.spacing);
    const float body = kBodyTracers * unit;
    m_coarsePeak.resize(std::size_t(nc.z) * coarsePlane);
    tbb::parallel_for(0, nc.z, [&](int k) {
        for (int j = 0; j < nc.y; ++j) {
            for (int i = 0; i < nc.x; ++i) {
                float peak = 0.0f;
                for (int d = 0; d < 8; ++d) {
                    peak = std::max(peak, m_voxels[fineAt(2 * i + (d & 1), 2 * j + ((d >> 1) & 1), 2 * k + (d >> 2))].a);
                }
                m_coarsePeak[coarseAt(i, j, k)] = peak;
            }
        }
    });
    m_peakScratch.resize(m_coarsePeak.size());
    for (int axis = 0; axis < 3; ++axis) {
        const std::ptrdiff_t step = axis == 0 ? 1 : axis == 1 ? nc.x : std::ptrdiff_t(coarsePlane);
        tbb::parallel_for(0, nc.z, [&](int k) {
            for (int j = 0; j < nc.y; ++j) {
                for (int i = 0; i < nc.x; ++i) {
                    const int along = axis == 0 ? i : axis == 1 ? j : k;
                    const std::size_t at = coarseAt(i, j, k);
                    float peak = m_coarsePeak[at];
                    if (along > 0) peak = std::max(peak, m_coarsePeak[at - step]);
                    if (along + 1 < nc[axis]) peak = std::max(peak, m_coarsePeak[at + step]);
                    m_peakScratch[at] = peak;
                }
            }
        });
        m_coarsePeak.swap(m_peakScratch);
    }
    // Dye away from every body moves to the coarse grid (2x2x2 averages: the same amount of dye),
    // which is blurred [1 2 1] twice per axis, about 2 fine voxels more, then added back. The
    // share that moves is 1 where a block's peak is under `body` and 0 from twice that, linear
    // between. Each fine voxel moves the share interpolated to it (trilinear from the blocks'
    // centres) or its block's, whichever is less, so the haze and the bodies meet without the
    // blocks' square edges (two_drops' column showed them), and a body's blocks keep their dye.
    std::vector<float>& share = m_peakScratch;
    for (std::size_t c = 0; c < m_coarsePeak.size(); ++c) {
        share[c] = std::clamp((2.0f * body - m_coarsePeak[c]) / body, 0.0f, 1.0f);
    }
    m_coarse.resize(m_coarsePeak.size());
    tbb::parallel_for(0, nc.z, [&](int k) {
        for (int j = 0; j < nc.y; ++j) {
            for (int i = 0; i < nc.x; ++i) {
                glm::vec4 sum(0.0f);
                m_coarse[coarseAt(i, j, k)] = sum;
                const float own = share[coarseAt(i, j, k)];
                if (own <= 0.0f) continue;  // a body's block keeps all its dye
                const glm::ivec3 here(i, j, k);
                for (int d = 0; d < 8; ++d) {
                    glm::vec4& v = m_voxels[fineAt(2 * i + (d & 1), 2 * j + ((d >> 1) & 1), 2 * k + (d >> 2))];
                    if (v.a == 0.0f) continue;  // no dye (the colours are 0 too)
                    // Fine voxel (2i + dx, ...) sits a quarter block from this block's centre
                    // towards the neighbour on side dx: weights 3/4 and 1/4 per axis.
                    const glm::ivec3 o(d & 1, (d >> 1) & 1, d >> 2);
                    const glm::ivec3 side = glm::clamp(here + 2 * o - 1, glm::ivec3(0), nc - 1);
                    float f = 0.0f;
                    for (int e = 0; e < 8; ++e) {
                        const glm::ivec3 pick(e & 1, (e >> 1) & 1, e >> 2);
                        const glm::ivec3 q = glm::mix(here, side, glm::bvec3(pick));
                        const float w = (pick.x ? 0.25f : 0.75f) * (pick.y ? 0.25f : 0.75f) * (pick.z ? 0.25f : 0.75f);
                        f += w * share[coarseAt(q.x, q.y, q.z)];
                    }
                    const glm::vec4 moved = std::min(f, own) * v;
                    sum += moved;
                    v -= moved;
                }
                m_coarse[coarseAt(i, j, k)] = 0.125f * sum;
            }
        }
    });
    m_coarseScratch.resize(m_coarse.size());
    const std::ptrdiff_t strides[3] = {1, nc.x, std::ptrdiff_t(coarsePlane)};
    for (int pass = 0; pass < 6; ++pass) {
        const int axis = pass % 3;
        const std::vector<glm::vec4>& src = pass % 2 == 0 ? m_coarse : m_coarseScratch;
        std::vector<glm::vec4>& dst = pass % 2 == 0 ? m_coarseScratch : m_coarse;
        tbb::parallel_for(0, nc.z, [&](int k) {
            for (int j = 0; j < nc.y; ++j) {
                for (int i = 0; i < nc.x; ++i) {
                    const int along = axis == 0 ? i : axis == 1 ? j : k;
                    const std::size_t at = coarseAt(i, j, k);
                    glm::vec4 sum = 2.0f * src[at];
                    if (along > 0) sum += src[at - strides[axis]];
                    if (along + 1 < nc[axis]) sum += src[at + strides[axis]];
                    dst[at] = 0.25f * sum;
                }
            }
        });
    }
    // The haze fades to nothing across the padding towards each face (smoothstep over the
    // voxel centre's distance to the face, in voxels), so the grid's box does not cut it with a
    // flat face where scattered tracers reach it (the box holds the 0.1st-99.9th percentile of
    // the tracers; more lie beyond). The bodies of dye lie inside the percentile box and keep
    // every tracer's dye.
    std::vector<float> fade[3];
    for (int a = 0; a < 3; ++a) {
        fade[a].resize(std::size_t(n[a]));
        for (int i = 0; i < n[a]; ++i) {
            const float t = std::min(1.0f, std::min(float(i) + 0.5f, float(n[a] - i) - 0.5f) / float(kPadding));
            fade[a][std::size_t(i)] = t * t * (3.0f - 2.0f * t);
        }
    }
    // Six passes end in m_coarse; add it back, trilinear (fine centre i + 0.5 is coarse
    // (i + 0.5) / 2 - 0.5).
    tbb::parallel_for(0, n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j) {
            const float faceWeight = fade[2][std::size_t(k)] * fade[1][std::size_t(j)];
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 g = (glm::vec3(i, j, k) + 0.5f) * 0.5f - 0.5f;
                const glm::vec3 lo = glm::floor(g), f = g - lo;
                const glm::ivec3 base(lo);
                glm::vec4 wide(0.0f);
                for (int d = 0; d < 8; ++d) {
                    const glm::ivec3 o(d & 1, (d >> 1) & 1, d >> 2);
                    const glm::ivec3 q = glm::clamp(base + o, glm::ivec3(0), nc - 1);
                    const float w = (o.x ? f.x : 1.0f - f.x) * (o.y ? f.y : 1.0f - f.y) * (o.z ? f.z : 1.0f - f.z);
                    wide += w * m_coarse[coarseAt(q.x, q.y, q.z)];
                }
                m_voxels[fineAt(i, j, k)] += (faceWeight * fade[0][std::size_t(i)]) * wide;
            }
        }
    });
}

}  // namespace vorton::render
