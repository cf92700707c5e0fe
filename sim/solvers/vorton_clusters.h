#pragma once
/// \file
/// Vortons split into groups separated by empty space, so that the grid
/// solver can solve each group on its own grid (issue 10): a ball that
/// rises 20 m out of two mixing layers, with its wake, leaves two compact
/// groups whose common box is mostly empty. One grid over that box costs
/// its volume; one grid per group costs the groups' volumes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/aabb.h"

namespace vorton {

/// One group of vortons: their indices (increasing) and their bounding box (m).
struct VortonCluster {
    std::vector<std::uint32_t> members;
    Aabb box;
};

/// Splits `points` (m) into at most `maxClusters` groups by recursive
/// bisection at empty slabs: along each axis the points are binned in slabs
/// one `cell` (m) thick, and a group is cut at its widest run of empty
/// slabs, of the three axes the cut whose two halves' grids of cells `cell`
/// grown by `margin` (m; FitGridWithCell) have the fewest points (ties: the
/// lower axis). The halves are split in turn, and a cut is kept when the
/// groups it ends in have grids of at most half the points of the grid
/// around the group it cut: so a cut that alone leaves more than half is
/// kept when the cuts below it halve the whole (several wakes spread along
/// a line). Groups come in the order of the recursion (lower half first;
/// each lower half leaves room for its upper half's group). A deterministic
/// function of its inputs. One group holding every point when no cut pays,
/// or for fewer than two points; none for no points. cell > 0, margin ≥ 0.
std::vector<VortonCluster> SplitIntoClusters(std::span<const glm::vec3> points, float cell, float margin,
                                             std::size_t maxClusters = 8);

/// Whether solving each group on its own grid of cells `cell` grown by
/// `margin` (m; GridPointCount) fits: no group's grid has more than `maxEach`
/// points, and all of them together no more than `maxTotal`. False for no
/// groups. Solver::Auto's test for a grid per group, and the grid solver's
/// at each load (SolverSettings::clusterGridPoints).
bool GroupGridsFit(std::span<const VortonCluster> groups, float cell, float margin, std::size_t maxEach,
                   std::size_t maxTotal);

}  // namespace vorton
