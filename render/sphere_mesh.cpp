#include "render/sphere_mesh.h"

#include <cmath>
#include <numbers>

namespace vorton::render {

SphereMesh UnitSphere(int segments, int rings) {
    SphereMesh mesh;
    const int columns = segments + 1;
    mesh.vertices.reserve(static_cast<std::size_t>(columns * (rings + 1)));
    for (int i = 0; i <= rings; ++i) {
        const float polar = std::numbers::pi_v<float> * static_cast<float>(i) / rings;
        for (int j = 0; j <= segments; ++j) {
            const float azimuth = 2.0f * std::numbers::pi_v<float> * static_cast<float>(j) / segments;
            mesh.vertices.emplace_back(std::sin(polar) * std::cos(azimuth), std::sin(polar) * std::sin(azimuth),
                                       std::cos(polar));
        }
    }
    const auto index = [columns](int i, int j) { return static_cast<std::uint16_t>(i * columns + j); };
    for (int i = 0; i < rings; ++i) {
        for (int j = 0; j < segments; ++j) {
            // a (ring i) above b (ring i + 1); c and d one step further in azimuth.
            const auto a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1), d = index(i, j + 1);
            if (i != rings - 1) mesh.indices.insert(mesh.indices.end(), {a, b, c});
            if (i != 0) mesh.indices.insert(mesh.indices.end(), {a, c, d});
        }
    }
    return mesh;
}

}  // namespace vorton::render
