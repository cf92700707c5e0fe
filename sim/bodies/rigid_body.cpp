#include "sim/bodies/rigid_body.h"

#include <numbers>

namespace vorton {

float SphereVolume(float radius) { return 4.0f / 3.0f * std::numbers::pi_v<float> * radius * radius * radius; }

float BodyMass(const BodySpec& spec) { return spec.density * SphereVolume(spec.radius); }

float BodyInertia(const BodySpec& spec) { return 0.4f * BodyMass(spec) * spec.radius * spec.radius; }

}  // namespace vorton
