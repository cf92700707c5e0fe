#pragma once
/// \file
/// Which bodies the camera frames and follows. No GL: the app calls it with the bodies as
/// they are drawn, tests check it.

#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

namespace vorton {

/// The widest box, in diameters of the selected body, that the camera frames around bodies
/// (FramedBodies). The framing fills kFrameFill (0.6) of the frame, so the selected ball
/// stays at least 1/27 of the frame across: 26 px of a 720-px-high window.
inline constexpr float kMaxFramedDiameters = 16.0f;

/// The bodies (indices into `bodies`, ascending) that the camera frames: the selected one,
/// and each other body that, taken in order of distance from it (ties by index), keeps the
/// box around the bodies taken so far (centre ± radius) within kMaxFramedDiameters of the
/// selected body's diameter on every axis. So balls near each other are framed together,
/// and when they drift metres apart the camera stays on the selected one rather than
/// framing all of them as dots (stop 97). bodies: centre xyz and radius w (m). A `selected`
/// out of range means body 0. Empty when `bodies` is.
std::vector<std::size_t> FramedBodies(std::span<const glm::vec4> bodies, int selected);

}  // namespace vorton
