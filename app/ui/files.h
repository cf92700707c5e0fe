#pragma once
/// \file
/// Where the app puts what it writes on its own: recordings named per scene and time, and its
/// settings folder (ImGui's layout).

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

namespace vorton {

/// "vorton_<scene>_<YYYYmmdd-HHMMSS>.<extension>" in local time, so recordings of two scenes, or
/// of one scene a second apart, do not overwrite each other. Characters of the scene name that
/// are not letters, digits, '-' or '_' become '_' (a saved scene's name may be anything).
std::string RecordingName(std::string_view scene, std::chrono::system_clock::time_point when,
                          std::string_view extension);

/// Steps of a clip of `seconds` of simulated time at `dt` s per step (one frame per step; the
/// video plays at 1/dt frames per second, so also `seconds` of video). At least 1.
int ClipSteps(double seconds, double dt);

/// The app's settings folder: $XDG_CONFIG_HOME/vorton, else $HOME/.config/vorton; empty when
/// neither variable is set (then nothing is remembered). Not created here.
std::filesystem::path ConfigDirectory();

}  // namespace vorton
