// Barnes–Hut treecode (treecode.h): the build (Morton keys, octree, moments)
// and the traversal (leaves summed as reached, accepted clusters in batches
// of eight, tree_far_field.h).

#include "sim/solvers/treecode.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>

#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include "sim/numerics/aabb.h"
#include "sim/solvers/biot_savart.h"
#include "sim/solvers/tree_far_field.h"

namespace vorton {

namespace {

constexpr int kBitsPerAxis = 21;  // 63-bit Morton keys

std::uint64_t SpreadBits(std::uint64_t v) {
    // Inserts two zero bits between each of the low 21 bits of v.
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffull;
    v = (v | v << 16) & 0x1f0000ff0000ffull;
    v = (v | v << 8) & 0x100f00f00f00f00full;
    v = (v | v << 4) & 0x10c30c30c30c30c3ull;
    v = (v | v << 2) & 0x1249249249249249ull;
    return v;
}

std::uint64_t MortonKey(glm::vec3 p, glm::vec3 origin, float scale) {
    constexpr float kMax = float((1u << kBitsPerAxis) - 1);
    const glm::vec3 u = glm::clamp((p - origin) * scale, glm::vec3(0.0f), glm::vec3(kMax));
    return SpreadBits(std::uint64_t(u.x)) | SpreadBits(std::uint64_t(u.y)) << 1 |
           SpreadBits(std::uint64_t(u.z)) << 2;
}

}  // namespace

void Treecode::Build(const VortonSources& sources, int leafSize) {
    assert(leafSize >= 1);
    const std::size_t n = sources.position.size();
    m_nodes.clear();
    m_far.clear();
    m_sources.Assign(n);
    m_keys.resize(n);
    if (n == 0) return;

    const Aabb box = BoundsOf(sources.position);
    const float extent = std::max({box.Extent().x, box.Extent().y, box.Extent().z, 1.0e-6f});
    const float scale = float(1u << kBitsPerAxis) / (extent * 1.0001f);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
            m_keys[i] = {MortonKey(sources.position[i], box.min, scale), std::uint32_t(i)};
        }
    });
    // (key, index) is a total order, so the sorted result is unique whatever the threads do.
    tbb::parallel_sort(m_keys.begin(), m_keys.end(), [](const KeyIndex& a, const KeyIndex& b) {
        return a.key < b.key || (a.key == b.key && a.index < b.index);
    });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
            const std::uint32_t k = m_keys[i].index;
            m_sources.Set(i, sources.position[k], sources.alpha[k], sources.sigma2[k]);
        }
    });

    // Breadth-first: a node's children are appended contiguously after it, so
    // every child has a larger index than its parent.
    std::vector<std::uint8_t> level;  // depth of each node
    m_nodes.push_back(Node{});
    m_nodes[0].begin = 0;
    m_nodes[0].end = std::uint32_t(n);
    level.push_back(0);
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const std::uint32_t begin = m_nodes[i].begin, end = m_nodes[i].end;
        m_nodes[i].childCount = 0;
        m_nodes[i].firstChild = 0;
        if (end - begin <= std::uint32_t(leafSize) || level[i] >= kBitsPerAxis) continue;
        const int shift = 3 * (kBitsPerAxis - 1 - level[i]);
        const auto first = m_keys.begin() + begin, last = m_keys.begin() + end;
        std::uint32_t childBegin = begin;
        const std::uint32_t firstChild = std::uint32_t(m_nodes.size());
        for (std::uint64_t octant = 0; octant < 8 && childBegin < end; ++octant) {
            const auto split = std::partition_point(first + (childBegin - begin), last, [&](const KeyIndex& k) {
                return ((k.key >> shift) & 7u) <= octant;
            });
            const std::uint32_t childEnd = std::uint32_t(split - m_keys.begin());
            if (childEnd > childBegin) {
                Node child{};
                child.begin = childBegin;
                child.end = childEnd;
                m_nodes.push_back(child);
                level.push_back(std::uint8_t(level[i] + 1));
            }
            childBegin = childEnd;
        }
        m_nodes[i].firstChild = firstChild;
        m_nodes[i].childCount = std::uint32_t(m_nodes.size()) - firstChild;
    }
    ComputeMoments();
}

void Treecode::ComputeMoments() {
    using R = tree::FarRecord;
    m_far.resize(m_nodes.size());
    m_weight.resize(m_nodes.size());
    // Children have larger indices than their parent, so one backward pass
    // sees every child's moments before its parent's.
    for (std::size_t i = m_nodes.size(); i-- > 0;) {
        Node& node = m_nodes[i];
        float* far = m_far[i].m;
        std::fill(far, far + R::kFloats, 0.0f);
        glm::vec3 alpha(0.0f), weightedCenter(0.0f), meanPosition(0.0f);
        float weight = 0.0f, sigma2 = 0.0f;
        if (node.childCount == 0) {
            for (std::uint32_t k = node.begin; k < node.end; ++k) {
                const glm::vec3 alphaK = m_sources.Alpha(k), positionK = m_sources.Position(k);
                const float w = glm::length(alphaK);
                alpha += alphaK;
                weight += w;
                weightedCenter += w * positionK;
                meanPosition += positionK;
                sigma2 += w * m_sources.Sigma2(k);
            }
        } else {
            for (std::uint32_t c = node.firstChild; c < node.firstChild + node.childCount; ++c) {
                const float* child = m_far[c].m;
                const glm::vec3 childAlpha(child[R::kAlpha], child[R::kAlpha + 1], child[R::kAlpha + 2]);
                alpha += childAlpha;
                weight += m_weight[c];
                weightedCenter += m_weight[c] * m_nodes[c].center;
                meanPosition += float(m_nodes[c].end - m_nodes[c].begin) * m_nodes[c].center;
                sigma2 += m_weight[c] * child[R::kSigma2];
            }
        }
        m_weight[i] = weight;
        node.center = weight > 0.0f ? weightedCenter / weight : meanPosition / float(node.end - node.begin);
        // D_ia = Σ α_i d_a and S_iab = Σ α_i d_a d_b, d = x_k − c, row i at kDipole + 3i and kQuadrupole + 6i.
        float* dipole = far + R::kDipole;
        float* quadrupole = far + R::kQuadrupole;
        float radius = 0.0f;
        if (node.childCount == 0) {
            for (std::uint32_t k = node.begin; k < node.end; ++k) {
                const glm::vec3 d = m_sources.Position(k) - node.center, alphaK = m_sources.Alpha(k);
                const float dd[6] = {d.x * d.x, d.x * d.y, d.x * d.z, d.y * d.y, d.y * d.z, d.z * d.z};
                for (int r = 0; r < 3; ++r) {
                    for (int a = 0; a < 3; ++a) dipole[3 * r + a] += alphaK[r] * d[a];
                    for (int p = 0; p < 6; ++p) quadrupole[6 * r + p] += alphaK[r] * dd[p];
                }
                radius = std::max(radius, glm::length(d));
            }
        } else {
            for (std::uint32_t c = node.firstChild; c < node.firstChild + node.childCount; ++c) {
                const float* child = m_far[c].m;
                const float* childDipole = child + R::kDipole;
                const glm::vec3 e = m_nodes[c].center - node.center;
                // Shift to the parent's centre, d' = d + e:
                //   D'_ia = D_ia + A_i e_a,  S'_iab = S_iab + D_ia e_b + D_ib e_a + A_i e_a e_b.
                const int pa[6] = {0, 0, 0, 1, 1, 2}, pb[6] = {0, 1, 2, 1, 2, 2};
                for (int r = 0; r < 3; ++r) {
                    const float childAlpha = child[R::kAlpha + r];
                    const float* D = childDipole + 3 * r;
                    for (int p = 0; p < 6; ++p) {
                        const int a = pa[p], b = pb[p];
                        quadrupole[6 * r + p] += child[R::kQuadrupole + 6 * r + p] + D[a] * e[b] + D[b] * e[a] +
                                                 childAlpha * e[a] * e[b];
                    }
                    for (int a = 0; a < 3; ++a) dipole[3 * r + a] += D[a] + childAlpha * e[a];
                }
                radius = std::max(radius, glm::length(e) + std::sqrt(m_nodes[c].radius2));
            }
        }
        node.radius2 = radius * radius;
        for (int a = 0; a < 3; ++a) {
            far[R::kCenter + a] = node.center[a];
            far[R::kAlpha + a] = alpha[a];
        }
        far[R::kSigma2] = weight > 0.0f ? sigma2 / weight : 0.0f;
    }
    // Only now, as the parents' radii above used their children's.
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        if (m_weight[i] == 0.0f) m_nodes[i] = Node{m_nodes[i].center, std::numeric_limits<float>::infinity(), 0, 0, 0, 0};
    }
}

void Treecode::EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                                 std::span<glm::vec3> stretch, float theta) const {
    assert(omega.size() == m_sources.size() && velocity.size() == omega.size() && stretch.size() == omega.size());
    const float theta2 = theta * theta;
    // In key order, so neighbouring iterations walk nearly the same branches.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m_sources.size(), 32), [&](const auto& range) {
        for (std::size_t k = range.begin(); k != range.end(); ++k) {
            const std::uint32_t original = m_keys[k].index;
            glm::vec3 v(0.0f), s(0.0f);
            EvaluatePoint<true>(m_sources.Position(k), omega[original], theta2, &v, &s);
            velocity[original] = v * kOneOverFourPi;
            stretch[original] = s * kOneOverFourPi;
        }
    });
}

template <bool kStretch>
void Treecode::EvaluatePoint(glm::vec3 x, glm::vec3 omega, float theta2, glm::vec3* v, glm::vec3* s) const {
    std::uint32_t stack[8 * kBitsPerAxis + 8];
    // Accepted clusters wait in a batch of eight and are summed together
    // (tree_far_field.h); leaves are summed as they are reached. The order of
    // the sum depends only on the tree and x, so not on the thread count.
    const tree::FarRecord* batch[tree::kFarLanes];
    int lanes = 0;
    const tree::LeafSources leaves = m_sources.View();
    auto flush = [&] {
        if (lanes == 0) return;
        // Unused lanes repeat the first cluster (finite values; their sums are ignored).
        for (int l = lanes; l < tree::kFarLanes; ++l) batch[l] = batch[0];
        if constexpr (kStretch) {
            tree::AddFarStretch(batch, lanes, x, omega, v, s);
        } else {
            tree::AddFarVelocity(batch, lanes, x, v);
        }
        lanes = 0;
    };
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const std::uint32_t index = stack[--top];
        const Node& node = m_nodes[index];
        const glm::vec3 r = x - node.center;
        const float d2 = glm::dot(r, r);
        if (node.radius2 < theta2 * d2) {
            batch[lanes] = &m_far[index];
            if (++lanes == tree::kFarLanes) flush();
        } else if (node.childCount == 0) {
            if constexpr (kStretch) {
                tree::AddLeafStretch(leaves, node.begin, node.end, x, omega, v, s);
            } else {
                tree::AddLeafVelocity(leaves, node.begin, node.end, x, v);
            }
        } else {
            for (std::uint32_t c = node.firstChild + node.childCount; c-- > node.firstChild;) stack[top++] = c;
        }
    }
    flush();
}

void Treecode::Evaluate(const VelocityQuery& query, float theta) const {
    assert(query.velocity.size() == query.points.size());
    const bool stretch = !query.omega.empty();
    const float theta2 = theta * theta;
    if (m_nodes.empty()) {
        std::fill(query.velocity.begin(), query.velocity.end(), glm::vec3(0.0f));
        if (stretch) std::fill(query.stretch.begin(), query.stretch.end(), glm::vec3(0.0f));
        return;
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, query.points.size(), 32), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            glm::vec3 v(0.0f), s(0.0f);
            if (stretch) {
                EvaluatePoint<true>(query.points[i], query.omega[i], theta2, &v, &s);
                query.stretch[i] = s * kOneOverFourPi;
            } else {
                EvaluatePoint<false>(query.points[i], glm::vec3(0.0f), theta2, &v, &s);
            }
            query.velocity[i] = v * kOneOverFourPi;
        }
    });
}

}  // namespace vorton
