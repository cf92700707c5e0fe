#include "app/ui/add_ball.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

namespace vorton {

BodySpec NewBall(const SceneSetup& setup, int like, glm::vec3 at, std::span<const glm::vec4> occupied) {
    const std::vector<BodySpec>& specs = setup.bodies;
    BodySpec ball;
    ball.density = 1.2f * setup.params.ambientDensity;
    if (like >= 0 && std::size_t(like) < specs.size()) {
        const BodySpec& from = specs[std::size_t(like)];
        ball.radius = from.radius;
        if (from.density > 0.0f) ball.density = from.density;
        ball.color = from.color;
    }
    const auto taken = [&](const std::string& name) {
        return std::any_of(specs.begin(), specs.end(), [&](const BodySpec& b) { return b.name == name; }) ||
               std::any_of(setup.groups.begin(), setup.groups.end(),
                           [&](const DensityGroup& g) { return g.name == name; });
    };
    // No spaces: a scene file, a snapshot and `--set NAME.key=value` address a body by this
    // name, and the scene reader refuses '.', '=' and spaces in it.
    ball.name = "ball";
    for (int n = 2; taken(ball.name); ++n) ball.name = "ball_" + std::to_string(n);
    // Each sphere it overlaps lifts it to just above that sphere's reach; a lift can bring it
    // into another, so round again until none is overlapped. Every lift moves it up, past
    // one of finitely many spheres, so this ends.
    for (bool clear = false; !clear;) {
        clear = true;
        for (const glm::vec4& o : occupied) {
            const float reach = 1.05f * (o.w + ball.radius);
            const glm::vec3 d = at - glm::vec3(o);
            if (glm::dot(d, d) >= reach * reach) continue;
            const float dz = std::sqrt(std::max(0.0f, reach * reach - d.x * d.x - d.y * d.y));
            at.z = o.z + dz + 1.0e-3f * reach;
            clear = false;
        }
    }
    ball.position = at;
    return ball;
}

}  // namespace vorton
