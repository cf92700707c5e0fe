#include "app/ui/framing.h"

#include <algorithm>
#include <numeric>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

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
    glm::vec3 lo = centre - glm::vec3(bodies[s].w), hi = centre + glm::vec3(bodies[s].w);
    std::vector<std::size_t> framed{s};
    for (const std::size_t i : order) {
        if (i == s) continue;
        const glm::vec3 p(bodies[i]);
        const glm::vec3 newLo = glm::min(lo, p - glm::vec3(bodies[i].w));
        const glm::vec3 newHi = glm::max(hi, p + glm::vec3(bodies[i].w));
        const glm::vec3 extent = newHi - newLo;
        if (std::max({extent.x, extent.y, extent.z}) > span) continue;
        lo = newLo;
        hi = newHi;
        framed.push_back(i);
    }
    std::sort(framed.begin(), framed.end());
    return framed;
}

}  // namespace vorton
