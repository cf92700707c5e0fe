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
/// one `cell` (m) thick, and a group is cut in the middle of its widest run
/// of empty slabs when the grids of cells `cell` grown by `margin` (m)
/// around the two halves (FitGridWithCell) have at most half the points of
/// the grid around the whole; of the three axes the cut that leaves the
/// fewest points wins (ties: the lower axis). Groups come in the order of
/// the recursion (lower half first). A deterministic function of its inputs.
/// One group holding every point when no cut pays, or for fewer than two
/// points; none for no points. cell > 0, margin ≥ 0.
std::vector<VortonCluster> SplitIntoClusters(std::span<const glm::vec3> points, float cell, float margin,
                                             std::size_t maxClusters = 8);

}  // namespace vorton
