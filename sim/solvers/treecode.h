#pragma once
/// \file
/// Barnes–Hut treecode for the Biot–Savart sum: Gourlay part 3's "influence
/// tree" of supervortons, with dipole and quadrupole corrections.

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/uniform_grid.h"
#include "sim/solvers/tree_far_field.h"
#include "sim/solvers/vorton_sources.h"

namespace vorton {

/// Octree over vortons sorted by Morton code. Each cluster stores its total
/// strength A = Σα, centre c (|α|-weighted), dipole D_ia = Σ α_i d_a and
/// quadrupole S_iab = Σ α_i d_a d_b (d = x_k − c), and a strength-weighted σ².
/// A cluster whose radius b satisfies b < θ·|x − c| is summed as the Taylor
/// series of the regularised kernel K = r/(|r|²+σ²)^{3/2} about c to second
/// order, Σ α × [K − (d·∇)K + ½(d·∇)²K], so the velocity error falls as θ³,
/// and the stretching (∇v)ᵀω is the same series of its own kernel, so its
/// error falls as θ³ too; nearer clusters are opened and leaves summed
/// directly. Cost O(N log N).
///
/// Build is deterministic (total order on (Morton key, index)); evaluation is
/// parallel over query points, each summed in a fixed order, so results do not
/// depend on the thread count. Barnes & Hut, Nature 324 (1986); Gourlay part 3.
class Treecode {
public:
    /// Builds the tree over the sources (copied, sorted). leafSize ≥ 1.
    void Build(const VortonSources& sources, int leafSize);
    /// Fills query.velocity (and query.stretch if query.omega is given) at
    /// arbitrary points, one traversal per point; θ in (0, 1].
    void Evaluate(const VelocityQuery& query, float theta) const;
    /// Velocity and stretching at the sources themselves (in the order given
    /// to Build); `omega` is the vorticity of each source. One traversal per
    /// source, in Morton order.
    void EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                           std::span<glm::vec3> stretch, float theta) const;
    std::size_t NodeCount() const { return m_nodes.size(); }

private:
    /// One cluster as the traversal reads it, two to a cache line; its
    /// moments are in m_far at the same index. A cluster that induces nothing
    /// (Σ|α| = 0) is made an empty leaf of infinite radius once the moments
    /// are done, so it is neither summed nor opened.
    struct alignas(32) Node {
        glm::vec3 center;         // |α|-weighted centre (the mean position if Σ|α| = 0), m
        float radius2;            // squared cluster radius b², m²
        std::uint32_t begin;      // first sorted source
        std::uint32_t end;        // one past the last
        std::uint32_t firstChild;
        std::uint32_t childCount;  // 0 for a leaf
    };

    template <bool kStretch>
    void EvaluatePoint(glm::vec3 x, glm::vec3 omega, float theta2, glm::vec3* v, glm::vec3* s) const;
    void ComputeMoments();

    std::vector<Node> m_nodes;           // breadth first: children after their parent, contiguous
    std::vector<tree::FarRecord> m_far;  // per node: its moments packed for the far-field kernel
    std::vector<float> m_weight;         // per node: Σ|α|, m³/s (scratch of the build)
    tree::LeafSourceRows m_sources;  // the sources in sorted (Morton) order
    struct KeyIndex {
        std::uint64_t key;
        std::uint32_t index;
    };
    std::vector<KeyIndex> m_keys;  // scratch, kept to avoid reallocating each step
};

}  // namespace vorton
