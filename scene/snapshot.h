#pragma once
/// \file
/// Snapshot files (issue 14, item 4): the whole state of a running simulation with the scene
/// it runs, so that loading one continues the run bit for bit.
///
/// Layout (little-endian on the machines we build for; the byte-order mark refuses others):
///   "VORTSNAP" (8 bytes), u32 version (kSnapshotVersion), u32 0x01020304,
///   u64 n + n bytes: the scene's name,
///   u64 n + n bytes: the scene as scene-file JSON (SceneToJson, with the live setup),
///   u64 n + n bytes: Simulation::AppendState,
///   u64 FNV-1a of every byte before it.
/// Written with std::ofstream in binary through a temporary file renamed over the target.

#include <cstdint>
#include <filesystem>
#include <memory>

#include "scene/scene.h"
#include "sim/result.h"
#include "sim/simulation.h"

namespace vorton {

/// 2: the state holds the grid solver's group cell (Simulation::m_clusterCell).
/// 4: each body holds the skin model's last sample of the fluid (BodyState::fluidSample*).
inline constexpr std::uint32_t kSnapshotVersion = 5;

/// Writes `sim`'s state and `scene` (its setup replaced by sim.Setup(), the edits in force) to
/// `file`. Errors: the folder missing or not
/// writable (an existing file is then left as it was). Call between steps.
Status WriteSnapshotFile(const std::filesystem::path& file, const Scene& scene, const Simulation& sim);

/// A snapshot read back: its scene and a simulation in the saved state.
struct LoadedSnapshot {
    Scene scene;
    std::unique_ptr<Simulation> sim;
};
/// Reads a snapshot file. Errors name the file and the problem: cannot be read, not a snapshot
/// (magic), another version or byte order, truncated (which field, at which byte), damaged
/// (checksum), a scene that does not load, a state that does not fit it. Nothing of a running
/// simulation is touched: the caller swaps the new one in only on success.
Result<LoadedSnapshot> ReadSnapshotFile(const std::filesystem::path& file);

}  // namespace vorton
