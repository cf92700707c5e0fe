#include "scene/scene_writer.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <string>

#include "scene/param_access.h"

namespace vorton {

namespace {

using json = nlohmann::ordered_json;

/// The table's keys in table order, after those `object` already has.
template <typename Struct>
json TableToJson(const Struct& target, std::span<const ParamInfo<Struct>> infos, json object = json::object()) {
    for (const auto& info : infos) object[std::string(info.key)] = json(ParamToJson(target, info));
    return object;
}

const char* ShapeName(DensityGroup::Shape shape) {
    switch (shape) {
        case DensityGroup::Shape::Box: return "box";
        case DensityGroup::Shape::Torus: return "torus";
        case DensityGroup::Shape::Sphere: break;
    }
    return "sphere";
}

}  // namespace

json SceneToJson(const Scene& scene) {
    json root = json::object();
    root["version"] = 1;
    if (!scene.description.empty()) root["description"] = scene.description;
    root["params"] = TableToJson(scene.setup.params, SimParamInfos());
    root["camera"] = TableToJson(scene.camera, CameraParamInfos());
    json display = json::object();
    for (const DisplayChoice& choice : DisplayChoices()) {
        display[std::string(choice.key)] = std::string(choice.names[std::size_t(scene.display.*choice.member)]);
    }
    root["display"] = TableToJson(scene.display, DisplayParamInfos(), display);
    json groups = json::array();
    for (const DensityGroup& g : scene.setup.groups) {
        groups.push_back(TableToJson(g, GroupParamInfos(), json{{"name", g.name}, {"shape", ShapeName(g.shape)}}));
    }
    root["groups"] = groups;
    json bodies = json::array();
    for (const BodySpec& b : scene.setup.bodies) bodies.push_back(TableToJson(b, BodyParamInfos(), json{{"name", b.name}}));
    if (!bodies.empty()) root["bodies"] = bodies;
    return root;
}

Scene WithBodyStates(Scene scene, std::span<const BodyState> bodies) {
    for (std::size_t i = 0; i < scene.setup.bodies.size() && i < bodies.size(); ++i) {
        BodySpec& spec = scene.setup.bodies[i];
        spec.position = bodies[i].position;
        spec.velocity = bodies[i].velocity;
        spec.angularVelocity = bodies[i].angularVelocity;
    }
    return scene;
}

Status WriteFileReplacing(const std::filesystem::path& file, std::string_view bytes, const char* what) {
    std::filesystem::path temporary = file;
    temporary += ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) return Error{file.string() + ": cannot write the " + what + ": " + std::strerror(errno)};
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ec;
            std::filesystem::remove(temporary, ec);
            return Error{file.string() + ": writing the " + what + " failed: " + std::strerror(errno)};
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, file, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        return Error{file.string() + ": cannot write the " + what + ": " + ec.message()};
    }
    return Ok{};
}

Status SaveSceneFile(const Scene& scene, const std::filesystem::path& file) {
    return WriteFileReplacing(file, SceneToJson(scene).dump(2) + "\n", "scene");
}

}  // namespace vorton
