#pragma once
/// \file
/// Scene files: JSON (comments allowed) under scenes/, e.g.
///
///     { "version": 1, "description": "...",
///       "params": { "ambient_density": 1000, "vorton_count": 4000 },
///       "camera": { "target": [0,0,0], "distance": 2.5, "yaw": 30, "pitch": 15, "fov": 45, "follow": false,
///                   "fit": true, "frame_bodies": 0 },
///       "groups": [ { "name": "drop", "shape": "sphere", "center": [0,0,0.4],
///                     "radius": 0.2, "halo": 0.06, "density_deviation": 50,
///                     "dye": [0.2,0.45,1] } ],
///       "bodies": [ { "name": "ball", "position": [0,0,0.8], "radius": 0.1,
///                     "density": 1200, "fixed": false, "color": [0.9,0.9,0.85] } ] }
///
/// "params" takes the keys of SimParamInfos(); a group takes "name", "shape"
/// (sphere, box, torus) and the keys of GroupParamInfos(); "bodies"
/// (optional) takes "name" and the keys of BodyParamInfos(); "camera" the
/// keys of CameraParamInfos(); "display" those of DisplayChoices() and
/// DisplayParamInfos() (SetDisplayParam). Every value is checked by the same code as
/// `--set` (AssignParam). Group and body names share one namespace (no '.', '='
/// or spaces). A setup that SetupProblem() rejects is an error at the named
/// group's or body's line. Errors name file:line and the problem; unknown
/// keys list the valid ones.

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "scene/display_settings.h"
#include "sim/result.h"
#include "sim/particles/seeding.h"

namespace vorton {

/// Initial camera of a scene (orbit camera, z up). Angles in degrees, m.
struct CameraSettings {
    glm::vec3 target{0.0f};
    float distance = 3.0f;
    float yaw = 30.0f;
    float pitch = 15.0f;
    float fovY = 45.0f;
    bool follow = false;  ///< keep the dye and bodies framed as they move
    bool fit = true;      ///< on load and reset, frame the dye and bodies (else target and distance as given)
    /// With bodies: fit and follow frame them and only the dye within this many of their radii
    /// of their surfaces (so a long wake does not shrink a moving ball to a speck); 0: all the dye.
    float frameBodies = 0.0f;
};

/// The camera keys of a scene file ("camera": {...}), as a parameter table.
std::span<const ParamInfo<CameraSettings>> CameraParamInfos();
/// Sets "camera.<key>" (a key of CameraParamInfos()) from a JSON value, with the
/// checks of AssignParam. Error for an unknown key, listing the valid ones.
Status SetCameraParam(CameraSettings& camera, const std::string& key, const nlohmann::json& value);

struct Scene {
    std::string name;         ///< file stem, e.g. "dye_drop"
    std::string description;  ///< one line for the picker
    std::filesystem::path file;
    SceneSetup setup;
    CameraSettings camera;
    DisplaySettings display;
    /// True while neither the file nor a --set gave `solenoidal_remesh`: it
    /// then follows `body_sheet` (a body that makes its own wake needs the
    /// projection, or the wake's net vorticity drifts from Kelvin's sum and
    /// the ball's path turns oblique; README, falling_ball).
    bool solenoidalRemeshFollowsBodySheet = true;
};

/// Parses scene text; `displayName` (usually the path) prefixes error messages.
Result<Scene> ParseScene(const std::string& text, const std::string& displayName);
/// Reads and parses a scene file. Error if it cannot be read or is invalid.
Result<Scene> LoadSceneFile(const std::filesystem::path& file);

/// Run-time data folder: <executable dir>/../share/vorton when present, else
/// the source tree (so a binary works from any working directory).
std::filesystem::path DataDirectory();
/// Scene names (file stems of *.json) in dir, sorted.
std::vector<std::string> ListSceneNames(const std::filesystem::path& dir);
/// A NAME in sceneDir, or a path to a .json file. Error lists the known names.
Result<std::filesystem::path> ResolveScenePath(const std::string& nameOrFile, const std::filesystem::path& sceneDir);

/// The scene a run starts from: `nameOrFile` resolved in DataDirectory()/scenes
/// (ResolveScenePath), parsed, each `sets` assignment ("key=value", as
/// `--set` takes them) applied in order, and the result checked with
/// SetupProblem(). Errors name the file:line, or the assignment (for a setup
/// problem, every assignment given, and the body or group); "camera.<key>"
/// assignments set the scene's camera (SetCameraParam), "display.<key>" its
/// display settings (SetDisplayParam); the messages
/// call the scene `--scene` and an assignment `--set`, as on the command line.
Result<Scene> PrepareScene(const std::string& nameOrFile, std::span<const std::string> sets);

}  // namespace vorton
