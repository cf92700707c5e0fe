#pragma once
/// \file
/// The scene's display settings as the renderer's look.

#include "render/frame_input.h"
#include "scene/display_settings.h"

namespace vorton {

/// render::Look for `display`, with the floor at height `floorHeight` (m, world z).
render::Look MakeLook(const DisplaySettings& display, float floorHeight);

}  // namespace vorton
