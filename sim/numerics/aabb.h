#pragma once
/// \file
/// Axis-aligned bounding box and its parallel reduction.

#include <limits>
#include <span>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

namespace vorton {

/// Axis-aligned box, m. Empty when min > max on any axis.
struct Aabb {
    glm::vec3 min{std::numeric_limits<float>::max()};
    glm::vec3 max{-std::numeric_limits<float>::max()};

    bool Empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
    void Grow(glm::vec3 p) {
        min = glm::min(min, p);
        max = glm::max(max, p);
    }
    void Grow(const Aabb& b) {
        min = glm::min(min, b.min);
        max = glm::max(max, b.max);
    }
    glm::vec3 Extent() const { return max - min; }
    glm::vec3 Center() const { return 0.5f * (min + max); }
};

/// Bounding box of the points (parallel; min/max are exact in any order, so
/// the result does not depend on the thread count). Non-finite points are
/// skipped and counted in *nonFinite when given.
Aabb BoundsOf(std::span<const glm::vec3> points, std::size_t* nonFinite = nullptr);

}  // namespace vorton
