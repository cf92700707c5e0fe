#include "scene.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

#include "json_lines.h"
#include "param_access.h"

#ifndef VORTON_SOURCE_DIR
#define VORTON_SOURCE_DIR "."
#endif

namespace vorton {

namespace {

using nlohmann::json;

constexpr int kSceneVersion = 1;

/// Builds "file:line: /path: problem" errors.
struct Context {
    const JsonDocument& doc;
    std::string name;
    Error At(const std::string& pointer, const std::string& problem) const {
        return Error{name + ":" + std::to_string(doc.LineOf(pointer)) + ": " + problem};
    }
};

Status CheckKeys(const Context& ctx, const json& object, const std::string& pointer, const std::string& what,
                 const std::vector<std::string>& valid) {
    if (!object.is_object()) return ctx.At(pointer, what + " must be an object, got " + Excerpt(object));
    for (const auto& [key, value] : object.items()) {
        if (std::find(valid.begin(), valid.end(), key) == valid.end()) {
            std::string list;
            for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
            return ctx.At(pointer + "/" + key, "unknown key '" + key + "' in " + what + "; valid keys: " + list);
        }
    }
    return Ok{};
}

/// Every key of `infos` that `obj` has, into `target` through AssignParam
/// (the checks of --set); `prefix` + key names the value in errors. A
/// boolean must be true or false here (--set also takes "true" and 1).
template <typename Struct>
Status ReadTable(const Context& ctx, const json& obj, const std::string& pointer, std::span<const ParamInfo<Struct>> infos,
                 const std::string& prefix, Struct& target) {
    for (const auto& info : infos) {
        const std::string key(info.key);
        if (!obj.contains(key)) continue;
        const json& value = obj[key];
        if (std::holds_alternative<bool Struct::*>(info.member) && !value.is_boolean()) {
            return ctx.At(pointer + "/" + key, prefix + key + ": expected true or false, got " + Excerpt(value));
        }
        if (Status s = AssignParam(target, info, prefix + key, value); !s) return ctx.At(pointer + "/" + key, s.error());
    }
    return Ok{};
}

/// "name" and the keys of `infos`, for CheckKeys.
template <typename Struct>
std::vector<std::string> KeysOf(std::span<const ParamInfo<Struct>> infos, std::vector<std::string> first) {
    for (const auto& info : infos) first.emplace_back(info.key);
    return first;
}

/// A name usable in "<name>.<key>" (groups and bodies): non-empty, no '.', '=' or spaces.
Result<std::string> ReadName(const Context& ctx, const json& obj, const std::string& pointer, const std::string& what) {
    if (!obj.contains("name") || !obj["name"].is_string() || obj["name"].get<std::string>().empty()) {
        return ctx.At(pointer, "a " + what + " needs a \"name\" (a non-empty string)");
    }
    std::string name = obj["name"].get<std::string>();
    if (name.find_first_of(".= ") != std::string::npos) {
        return ctx.At(pointer + "/name", what + " name '" + name + "' may not contain '.', '=' or spaces");
    }
    return name;
}

Result<BodySpec> ReadBody(const Context& ctx, const json& b, const std::string& p) {
    if (Status s = CheckKeys(ctx, b, p, "a body", KeysOf(BodyParamInfos(), {"name"})); !s) return Error{s.error()};
    auto name = ReadName(ctx, b, p, "body");
    if (!name) return Error{name.error()};
    BodySpec body;
    body.name = name.value();
    if (Status s = ReadTable(ctx, b, p, BodyParamInfos(), body.name + ".", body); !s) return Error{s.error()};
    return body;
}

Result<DensityGroup> ReadGroup(const Context& ctx, const json& g, const std::string& p) {
    if (Status s = CheckKeys(ctx, g, p, "a group", KeysOf(GroupParamInfos(), {"name", "shape"})); !s) {
        return Error{s.error()};
    }
    DensityGroup group;
    auto name = ReadName(ctx, g, p, "group");
    if (!name) return Error{name.error()};
    group.name = name.value();
    if (g.contains("shape") && !g["shape"].is_string()) {
        return ctx.At(p + "/shape", "shape: expected \"sphere\", \"box\" or \"torus\", got " + Excerpt(g["shape"]));
    }
    const std::string shape = g.value("shape", std::string("sphere"));
    if (shape == "sphere") {
        group.shape = DensityGroup::Shape::Sphere;
    } else if (shape == "box") {
        group.shape = DensityGroup::Shape::Box;
    } else if (shape == "torus") {
        group.shape = DensityGroup::Shape::Torus;
    } else {
        return ctx.At(p + "/shape", "unknown shape " + Excerpt(g["shape"]) + " (valid: sphere, box, torus)");
    }
    if (Status s = ReadTable(ctx, g, p, GroupParamInfos(), group.name + ".", group); !s) return Error{s.error()};
    if (group.shape == DensityGroup::Shape::Torus && group.minorRadius >= group.radius) {
        return ctx.At(p + "/minor_radius", "a torus needs minor_radius < radius");
    }
    return group;
}

/// Where a SetupProblem() message points: the parameter it starts with (at
/// /params/<key>), else the group or body it names (its first '...' quoted
/// name, at its "name" value); "" (the file's top) when none.
std::string PointerOfNamed(const SceneSetup& setup, const std::string& problem) {
    // A problem of one parameter starts with its key.
    for (const auto& info : SimParamInfos()) {
        if (problem.starts_with(std::string(info.key) + ' ')) return "/params/" + std::string(info.key);
    }
    const auto open = problem.find('\'');
    const auto close = open == std::string::npos ? open : problem.find('\'', open + 1);
    if (close == std::string::npos) return "";
    const std::string name = problem.substr(open + 1, close - open - 1);
    const bool isGroup = problem.rfind("group ", 0) == 0;
    if (!isGroup) {
        for (std::size_t i = 0; i < setup.bodies.size(); ++i) {
            if (setup.bodies[i].name == name) return "/bodies/" + std::to_string(i) + "/name";
        }
    }
    for (std::size_t i = 0; i < setup.groups.size(); ++i) {
        if (setup.groups[i].name == name) return "/groups/" + std::to_string(i) + "/name";
    }
    return "";
}

}  // namespace

namespace {
Result<Scene> ParseSceneChecked(const std::string& text, const std::string& displayName);

/// Values that follow another key while the scene did not give them:
/// solenoidal_remesh follows body_sheet (Scene::solenoidalRemeshFollowsBodySheet).
void ApplyFollowedDefaults(Scene& scene) {
    if (scene.solenoidalRemeshFollowsBodySheet) scene.setup.params.solenoidalRemesh = scene.setup.params.bodySheet;
}
}  // namespace

std::span<const ParamInfo<CameraSettings>> CameraParamInfos() {
    using C = CameraSettings;
    static const std::array<ParamInfo<C>, 8> infos{{
        {"target", "Target", "m", &C::target, -1.0e4f, 1.0e4f, false, false, "the point the camera orbits and looks at"},
        {"distance", "Distance", "m", &C::distance, 1.0e-3f, 1.0e4f, false, false, "from the target"},
        {"yaw", "Yaw", "deg", &C::yaw, -360.0f, 360.0f, false, false, "about the vertical (z) axis"},
        {"pitch", "Pitch", "deg", &C::pitch, -89.0f, 89.0f, false, false, "above the horizontal"},
        {"fov", "Field of view", "deg", &C::fovY, 5.0f, 150.0f, false, false, "vertical"},
        {"follow", "Follow the dye", "", &C::follow, 0.0f, 1.0f, false, false,
         "keep the dye and bodies framed as they move (smoothed)"},
        {"fit", "Frame the dye", "", &C::fit, 0.0f, 1.0f, false, false,
         "on load and reset, aim at the dye and bodies from the distance that frames them; false: the target "
         "and distance given here"},
        {"frame_bodies", "Frame the bodies", "radii", &C::frameBodies, 0.0f, 100.0f, false, false,
         "with bodies, frame them and only the dye within this many of their radii of their surfaces (in a "
         "box; a moving ball, not all of its wake), moving the view with them; 0: all the dye"},
    }};
    return infos;
}

Result<Scene> ParseScene(const std::string& text, const std::string& displayName) {
    // Every check above names what is wrong; this is the net under them, so
    // that no scene file can end the program (the window's scene picker too).
    try {
        return ParseSceneChecked(text, displayName);
    } catch (const std::exception& e) {
        return Error{displayName + ": cannot read scene: " + e.what()};
    }
}

namespace {
Result<Scene> ParseSceneChecked(const std::string& text, const std::string& displayName) {
    auto parsed = ParseJsonWithLines(text, displayName);
    if (!parsed) return Error{parsed.error()};
    const JsonDocument& doc = parsed.value();
    const Context ctx{doc, displayName};
    const json& root = doc.root;
    if (Status s = CheckKeys(ctx, root, "", "a scene",
                             {"version", "name", "description", "params", "camera", "display", "groups", "bodies"});
        !s) {
        return Error{s.error()};
    }
    if (!root.contains("version")) return ctx.At("", "missing \"version\" (this program reads version 1)");
    if (!root["version"].is_number_integer() || root["version"].get<int>() != kSceneVersion) {
        return ctx.At("/version", "unsupported version " + Excerpt(root["version"]) + " (this program reads version 1)");
    }
    Scene scene;
    for (const char* key : {"name", "description"}) {
        if (root.contains(key) && !root[key].is_string()) {
            return ctx.At(std::string("/") + key, std::string(key) + ": expected a string, got " + Excerpt(root[key]));
        }
    }
    scene.description = root.value("description", std::string());
    if (root.contains("name")) scene.name = root["name"].get<std::string>();

    const bool anyBodies = root.contains("bodies") && root["bodies"].is_array() && !root["bodies"].empty();
    if (root.contains("groups") ? !root["groups"].is_array() : !anyBodies) {
        return ctx.At("/groups", "a scene needs a \"groups\" array (it may be empty when there are bodies)");
    }
    const json noGroups = json::array();
    const json& groups = root.contains("groups") ? root["groups"] : noGroups;
    if (groups.empty() && !anyBodies) {
        return ctx.At("/groups", "a scene needs fluid: a non-empty \"groups\" array, or bodies in clear water");
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const std::string p = "/groups/" + std::to_string(i);
        auto group = ReadGroup(ctx, groups[i], p);
        if (!group) return Error{group.error()};
        if (!names.insert(group.value().name).second) {
            return ctx.At(p + "/name", "duplicate group name '" + group.value().name + "'");
        }
        scene.setup.groups.push_back(group.value());
    }
    if (scene.setup.groups.size() >= 1000) return ctx.At("/groups", "too many groups (at most 999)");

    if (root.contains("bodies")) {
        const json& bodies = root["bodies"];
        if (!bodies.is_array()) return ctx.At("/bodies", "\"bodies\" must be an array of objects");
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const std::string p = "/bodies/" + std::to_string(i);
            auto body = ReadBody(ctx, bodies[i], p);
            if (!body) return Error{body.error()};
            if (!names.insert(body.value().name).second) {
                return ctx.At(p + "/name", "duplicate name '" + body.value().name +
                                               "' (groups and bodies share one set of names)");
            }
            scene.setup.bodies.push_back(body.value());
        }
    }

    if (root.contains("params")) {
        const json& params = root["params"];
        if (!params.is_object()) return ctx.At("/params", "\"params\" must be an object");
        for (const auto& [key, value] : params.items()) {
            if (Status s = SetParam(scene.setup, key, value); !s) return ctx.At("/params/" + key, s.error());
        }
        scene.solenoidalRemeshFollowsBodySheet = !params.contains("solenoidal_remesh");
    }
    ApplyFollowedDefaults(scene);
    if (root.contains("camera")) {
        const json& cam = root["camera"];
        if (Status s = CheckKeys(ctx, cam, "/camera", "camera", KeysOf(CameraParamInfos(), {})); !s) {
            return Error{s.error()};
        }
        if (Status s = ReadTable(ctx, cam, "/camera", CameraParamInfos(), "", scene.camera); !s) {
            return Error{s.error()};
        }
    }
    if (root.contains("display")) {
        const json& display = root["display"];
        if (!display.is_object()) return ctx.At("/display", "\"display\" must be an object");
        for (const auto& [key, value] : display.items()) {
            if (Status s = SetDisplayParam(scene.display, key, value); !s) return ctx.At("/display/" + key, s.error());
        }
    }
    if (const std::string problem = SetupProblem(scene.setup); !problem.empty()) {
        return ctx.At(PointerOfNamed(scene.setup, problem), problem);
    }
    return scene;
}
}  // namespace

Result<Scene> LoadSceneFile(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) return Error{file.string() + ": is a directory, not a scene file"};
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        const int err = errno;
        return Error{file.string() + ": cannot open scene file: " + std::strerror(err)};
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    auto scene = ParseScene(buffer.str(), file.string());
    if (!scene) return scene;
    if (scene.value().name.empty()) scene.value().name = file.stem().string();
    scene.value().file = file;
    return scene;
}

std::filesystem::path DataDirectory() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path share = exe.parent_path().parent_path() / "share" / "vorton";
        if (std::filesystem::is_directory(share / "scenes", ec)) return share;
    }
    return std::filesystem::path(VORTON_SOURCE_DIR);
}

std::vector<std::string> ListSceneNames(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

Result<std::filesystem::path> ResolveScenePath(const std::string& nameOrFile, const std::filesystem::path& sceneDir) {
    std::error_code ec;
    const std::filesystem::path asPath(nameOrFile);
    if (asPath.extension() == ".json" || nameOrFile.find('/') != std::string::npos) {
        if (std::filesystem::is_regular_file(asPath, ec)) return asPath;
        if (std::filesystem::is_directory(asPath, ec)) return Error{nameOrFile + ": is a directory, not a scene file"};
        if (std::filesystem::exists(asPath, ec)) return asPath;  // opening it says what is wrong
        return Error{nameOrFile + ": no such scene file"};
    }
    const std::filesystem::path named = sceneDir / (nameOrFile + ".json");
    if (std::filesystem::is_regular_file(named, ec)) return named;
    std::string list;
    for (const auto& n : ListSceneNames(sceneDir)) list += (list.empty() ? "" : ", ") + n;
    return Error{"unknown scene '" + nameOrFile + "'; valid scenes: " + list};
}

Status SetCameraParam(CameraSettings& camera, const std::string& key, const json& value) {
    const std::string field = key.substr(key.find('.') + 1);
    std::string valid;
    for (const auto& info : CameraParamInfos()) {
        if (field == info.key) return AssignParam(camera, info, key, value);
        valid += (valid.empty() ? "camera." : ", camera.") + std::string(info.key);
    }
    return Error{"unknown camera key '" + key + "'; valid: " + valid};
}

Result<Scene> PrepareScene(const std::string& nameOrFile, std::span<const std::string> sets) {
    auto path = ResolveScenePath(nameOrFile, DataDirectory() / "scenes");
    if (!path) return Error{"--scene: " + path.error()};
    auto scene = LoadSceneFile(path.value());
    if (!scene) return scene;
    for (const std::string& assignment : sets) {
        auto kv = ParseAssignment(assignment);
        if (!kv) return Error{"--set " + assignment + ": " + kv.error()};
        const std::string& key = kv.value().first;
        if (key.starts_with("display.")) {
            if (Status s = SetDisplayParam(scene.value().display, key, kv.value().second); !s) {
                return Error{"--set " + assignment + ": " + s.error()};
            }
            continue;
        }
        if (key.starts_with("camera.")) {
            if (Status s = SetCameraParam(scene.value().camera, key, kv.value().second); !s) {
                return Error{"--set " + assignment + ": " + s.error()};
            }
            continue;
        }
        if (Status s = SetParam(scene.value().setup, key, kv.value().second); !s) {
            return Error{"--set " + assignment + ": " + s.error()};
        }
        if (key == "solenoidal_remesh") scene.value().solenoidalRemeshFollowsBodySheet = false;
    }
    ApplyFollowedDefaults(scene.value());
    // Each --set is in range on its own; together they must still make a setup that can run.
    if (const std::string problem = SetupProblem(scene.value().setup); !problem.empty()) {
        std::string given;
        for (const std::string& assignment : sets) {
            if (!given.empty()) given += ' ';
            given += "--set ";
            given += assignment;
        }
        return Error{(given.empty() ? scene.value().file.string() : given) + ": " + problem};
    }
    return scene;
}

}  // namespace vorton
