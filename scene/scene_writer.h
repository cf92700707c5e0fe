#pragma once
/// \file
/// Writing a scene back out as a scene file (issue 14, "save scene"): every parameter of the
/// tables (SimParamInfos, GroupParamInfos, BodyParamInfos, CameraParamInfos, the display's),
/// the groups with their shapes and the bodies, so that LoadSceneFile() of the written file
/// gives the same setup bit for bit and the same run.

#include <filesystem>
#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

#include "scene/scene.h"
#include "sim/bodies/rigid_body.h"
#include "sim/result.h"

namespace vorton {

/// The scene as a version-1 scene file's JSON object, in this order: "version", "description",
/// "params" (every key of SimParamInfos()), "camera", "display" (choices by name), "groups"
/// ("name", "shape", then their table's keys) and "bodies" likewise, keys in table order. Floats
/// are written as the shortest decimal that reads back to the same float (ParamToJson).
nlohmann::ordered_json SceneToJson(const Scene& scene);

/// The scene with each body's state at reset replaced by `bodies` (same order; the state of a
/// running simulation): position, velocity and angular velocity. Extra or missing states are
/// ignored (a body without one keeps its scene state). Orientation is not part of a scene file:
/// a saved spinning ball starts again unrotated.
Scene WithBodyStates(Scene scene, std::span<const BodyState> bodies);

/// Writes SceneToJson(scene) to `file` (pretty-printed, 2 spaces), through a temporary file in
/// the same folder renamed over it, so a failed write leaves an existing file as it was.
/// Errors name the file and why (folder missing, not writable).
Status SaveSceneFile(const Scene& scene, const std::filesystem::path& file);

/// Writes `bytes` to `file` through `file`.tmp renamed over it, so a failed write leaves an
/// existing file as it was (the temporary is removed). Errors name the file and `what` was
/// being written ("scene", "snapshot").
Status WriteFileReplacing(const std::filesystem::path& file, std::string_view bytes, const char* what);

}  // namespace vorton
