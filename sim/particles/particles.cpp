#include "sim/particles/particles.h"

namespace vorton {

void Vortons::Clear() {
    position.clear();
    vorticity.clear();
    radius.clear();
    volume.clear();
    group.clear();
    massFraction.clear();
    birthHeight.clear();
}

void Vortons::Add(glm::vec3 x, glm::vec3 omega, float sigma, float v, std::uint16_t g, float fraction) {
    Add(x, omega, sigma, v, g, fraction, x.z);
}

void Vortons::Add(glm::vec3 x, glm::vec3 omega, float sigma, float v, std::uint16_t g, float fraction, float birthZ) {
    birthHeight.push_back(birthZ);
    position.push_back(x);
    vorticity.push_back(omega);
    radius.push_back(sigma);
    volume.push_back(v);
    group.push_back(g);
    massFraction.push_back(g == kAmbientGroup ? 0.0f : fraction);
}

std::size_t Vortons::Compact(std::span<const std::uint8_t> keep) {
    std::size_t out = 0;
    for (std::size_t k = 0; k < Size(); ++k) {
        if (!keep[k]) continue;
        position[out] = position[k];
        vorticity[out] = vorticity[k];
        radius[out] = radius[k];
        volume[out] = volume[k];
        group[out] = group[k];
        massFraction[out] = massFraction[k];
        birthHeight[out] = birthHeight[k];
        ++out;
    }
    const std::size_t removed = Size() - out;
    for (auto* v : {&position, &vorticity}) v->resize(out);
    for (auto* v : {&radius, &volume, &massFraction, &birthHeight}) v->resize(out);
    group.resize(out);
    return removed;
}

void Tracers::Clear() {
    position.clear();
    velocity.clear();
    group.clear();
}

void Tracers::Add(glm::vec3 x, std::uint16_t g) {
    position.push_back(x);
    velocity.push_back(glm::vec3(0.0f));
    group.push_back(g);
}

glm::vec3 CellVorticity(const Vortons& vortons, std::size_t k, float cellVolume) {
    const float v = vortons.volume[k];
    return v < cellVolume ? vortons.vorticity[k] * (v / cellVolume) : vortons.vorticity[k];
}

}  // namespace vorton
