#pragma once
// Small helpers for inspecting RGB8 top-down frames in tests.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace vorton::test {

/// Pixel (x, y) of a w-wide RGB8 image, y = 0 at the top, as 0..255 floats.
inline glm::vec3 PixelAt(const std::vector<std::uint8_t>& rgb, int width, int x, int y) {
    const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

/// Mean colour of the (2r+1)^2 square centred on (x, y).
inline glm::vec3 MeanAround(const std::vector<std::uint8_t>& rgb, int width, int x, int y, int r) {
    glm::vec3 sum(0.0f);
    for (int dy = -r; dy <= r; ++dy) {
        for (int dx = -r; dx <= r; ++dx) sum += PixelAt(rgb, width, x + dx, y + dy);
    }
    return sum / static_cast<float>((2 * r + 1) * (2 * r + 1));
}

}  // namespace vorton::test
