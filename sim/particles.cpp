#include "particles.h"

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

}  // namespace vorton
