#include "app/ui/paint.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/particles/seeding.h"

namespace vorton {

float MinPaintRadius(float spacing) { return 1.5f * spacing; }
float MaxPaintRadius(float spacing) { return 40.0f * spacing; }

DensityGroup PaintBlob(const PaintSettings& paint, glm::vec3 center, int index, float spacing) {
    DensityGroup g;
    g.name = "paint_" + std::to_string(index);
    g.shape = DensityGroup::Shape::Sphere;
    g.center = center;
    g.radius = std::clamp(paint.radius, MinPaintRadius(spacing), MaxPaintRadius(spacing));
    g.halo = 2.5f * spacing;
    g.densityDeviation = paint.densityDeviation;
    g.dye = paint.dye;
    return g;
}

int PaintTracers(const SceneSetup& setup, const DensityGroup& blob) {
    double volume = 0.0;
    for (const DensityGroup& g : setup.groups) {
        if (g.name.rfind("paint_", 0) != 0) volume += ShapeVolume(g);
    }
    const double density = volume > 0.0 ? double(setup.params.tracerCount) / volume : 0.0;
    return int(std::clamp(density * double(ShapeVolume(blob)), 200.0, 100000.0));
}

glm::vec3 ThrowVelocity(const PaintSettings& paint, glm::vec3 moved, double seconds, float maxSpeed) {
    if (!paint.throwWithDrag || !(seconds > 0.0)) return glm::vec3(0.0f);
    const glm::vec3 u = moved / float(seconds);
    const float speed = glm::length(u);
    return speed > maxSpeed && speed > 0.0f ? u * (maxSpeed / speed) : u;
}

std::optional<glm::vec3> PaintPoint(glm::vec3 origin, glm::vec3 direction, glm::vec3 forward, glm::vec3 depthPoint) {
    const float along = glm::dot(direction, forward);
    if (!(along > 1e-4f)) return std::nullopt;
    const float t = glm::dot(depthPoint - origin, forward) / along;
    if (!(t > 0.0f)) return std::nullopt;
    return origin + t * direction;
}

}  // namespace vorton
