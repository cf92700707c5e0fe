#include "scene/snapshot.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

#include "scene/scene_writer.h"

namespace vorton {

namespace {

constexpr char kMagic[8] = {'V', 'O', 'R', 'T', 'S', 'N', 'A', 'P'};
constexpr std::uint32_t kByteOrder = 0x01020304u;

std::uint64_t Fnv1a(std::string_view bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

template <typename T>
void Put(std::string& out, const T& value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

void PutBlock(std::string& out, std::string_view block) {
    Put(out, std::uint64_t(block.size()));
    out.append(block);
}

/// Reads the file's parts in order; the first problem is kept, naming the part.
struct Parts {
    std::string_view bytes;
    std::size_t at = 0;
    std::string error;

    template <typename T>
    bool Get(T& value, const char* what) {
        if (!error.empty()) return false;
        if (bytes.size() - at < sizeof(T)) {
            error = std::string("truncated in the ") + what + " (at byte " + std::to_string(at) + " of " +
                    std::to_string(bytes.size()) + ")";
            return false;
        }
        std::memcpy(&value, bytes.data() + at, sizeof(T));
        at += sizeof(T);
        return true;
    }
    bool GetBlock(std::string_view& block, const char* what) {
        std::uint64_t n = 0;
        if (!Get(n, what)) return false;
        if (n > bytes.size() - at) {
            error = std::string("truncated in the ") + what + " (" + std::to_string(n) + " bytes at byte " +
                    std::to_string(at) + ", " + std::to_string(bytes.size() - at) + " left)";
            return false;
        }
        block = bytes.substr(at, std::size_t(n));
        at += std::size_t(n);
        return true;
    }
};

}  // namespace

Status WriteSnapshotFile(const std::filesystem::path& file, const Scene& scene, const Simulation& sim) {
    std::string state;
    if (Status s = sim.AppendState(state); !s) return Error{file.string() + ": cannot save a snapshot: " + s.error()};
    Scene live = scene;
    live.setup = sim.Setup();
    std::string out(kMagic, sizeof kMagic);
    Put(out, kSnapshotVersion);
    Put(out, kByteOrder);
    PutBlock(out, scene.name);
    PutBlock(out, SceneToJson(live).dump());
    PutBlock(out, state);
    Put(out, Fnv1a(out));

    return WriteFileReplacing(file, out, "snapshot");
}

Result<LoadedSnapshot> ReadSnapshotFile(const std::filesystem::path& file) {
    const std::string name = file.string();
    std::ifstream stream(file, std::ios::binary);
    if (!stream) return Error{name + ": cannot read the snapshot: " + std::strerror(errno)};
    const std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    if (stream.bad()) return Error{name + ": reading the snapshot failed: " + std::strerror(errno)};

    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
        return Error{name + ": not a vorton snapshot (no VORTSNAP at its start)"};
    }
    Parts parts{bytes, sizeof kMagic, {}};
    std::uint32_t version = 0, order = 0;
    parts.Get(version, "header");
    parts.Get(order, "header");
    if (!parts.error.empty()) return Error{name + ": " + parts.error};
    if (order != kByteOrder) return Error{name + ": a snapshot written on a machine of the other byte order"};
    if (version != kSnapshotVersion) {
        return Error{name + ": a snapshot of version " + std::to_string(version) + "; this vorton reads version " +
                     std::to_string(kSnapshotVersion)};
    }
    std::string_view sceneName, sceneJson, state;
    parts.GetBlock(sceneName, "scene name");
    parts.GetBlock(sceneJson, "scene");
    parts.GetBlock(state, "simulation state");
    const std::size_t checked = parts.at;
    std::uint64_t checksum = 0;
    parts.Get(checksum, "checksum");
    if (!parts.error.empty()) return Error{name + ": " + parts.error};
    if (parts.at != bytes.size()) {
        return Error{name + ": " + std::to_string(bytes.size() - parts.at) + " bytes after the snapshot's end"};
    }
    if (checksum != Fnv1a(std::string_view(bytes).substr(0, checked))) {
        return Error{name + ": the snapshot is damaged (its checksum does not match its contents)"};
    }

    auto scene = ParseScene(std::string(sceneJson), name + " (its scene)");
    if (!scene) return Error{scene.error()};
    LoadedSnapshot loaded{std::move(scene.value()), nullptr};
    loaded.scene.name = std::string(sceneName);
    loaded.scene.file = file;
    loaded.sim = std::make_unique<Simulation>(loaded.scene.setup);
    if (Status s = loaded.sim->RestoreState(state); !s) return Error{name + ": " + s.error()};
    return Result<LoadedSnapshot>(std::move(loaded));
}

}  // namespace vorton
