#include "app/ui/framing.h"

#include <algorithm>
#include <numeric>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "sim/numerics/aabb.h"

namespace vorton {

std::vector<std::size_t> FramedBodies(std::span<const glm::vec4> bodies, int selected) {
    if (bodies.empty()) return {};
    const std::size_t s = selected >= 0 && std::size_t(selected) < bodies.size() ? std::size_t(selected) : 0;
    const glm::vec3 centre(bodies[s]);
    const float span = kMaxFramedDiameters * 2.0f * bodies[s].w;
    std::vector<std::size_t> order(bodies.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const auto distance = [&](std::size_t i) { return glm::distance(glm::vec3(bodies[i]), centre); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return distance(a) < distance(b); });
    const auto sphereBox = [&](std::size_t i) {
        const glm::vec3 c(bodies[i]), r(bodies[i].w);
        return Aabb{c - r, c + r};
    };
    Aabb box = sphereBox(s);
    std::vector<std::size_t> framed{s};
    for (const std::size_t i : order) {
        if (i == s) continue;
        Aabb grown = box;
        grown.Grow(sphereBox(i));
        const glm::vec3 extent = grown.Extent();
        if (std::max({extent.x, extent.y, extent.z}) > span) continue;
        box = grown;
        framed.push_back(i);
    }
    std::sort(framed.begin(), framed.end());
    return framed;
}

}  // namespace vorton
