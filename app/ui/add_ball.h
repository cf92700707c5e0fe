#pragma once
/// \file
/// The panel's "Add a ball": the ball it adds to a running scene, and where. No GL: the app
/// calls it with the view's centre and the bodies as they are, tests check it.

#include <span>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/particles/seeding.h"

namespace vorton {

/// The ball "Add a ball" adds to `setup`:
/// - like body `like` of setup.bodies (radius, density, colour), or, with no bodies (or
///   `like` out of range), 0.1 m and 1.2 times the ambient density (it sinks, slowly
///   enough to watch);
/// - free, at rest, not oscillating;
/// - named "ball", or "ball_N" with the smallest N ≥ 2 that no body or group has (a name
///   a scene file can hold: no '.', '=' or spaces)
///   (SetupProblem: names are unique across both);
/// - centred at `at` (m), raised along z until it is at least 1.05 times the sum of the
///   radii from the centre of each sphere of `occupied` (centre xyz and radius w, m: the
///   bodies where they are now and where a reset puts them).
BodySpec NewBall(const SceneSetup& setup, int like, glm::vec3 at, std::span<const glm::vec4> occupied);

}  // namespace vorton
