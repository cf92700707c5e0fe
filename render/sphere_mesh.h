#pragma once
/// \file
/// The triangle mesh the renderer draws every rigid sphere with.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace vorton::render {

/// A unit sphere about the z axis: position = outward normal.
struct SphereMesh {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint16_t> indices;  ///< triangles, counter-clockwise seen from outside
};

/// A UV sphere of `segments` around the z axis and `rings` pole to pole. The seam column is
/// duplicated (vertex j = 0 and j = segments coincide) and the triangles that would collapse at
/// the poles are left out. Needs (segments + 1)·(rings + 1) ≤ 65536.
SphereMesh UnitSphere(int segments, int rings);

}  // namespace vorton::render
