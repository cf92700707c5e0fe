#include "app/ui/files.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>

namespace vorton {

std::string RecordingName(std::string_view scene, std::chrono::system_clock::time_point when,
                          std::string_view extension) {
    std::string name(scene.empty() ? std::string_view("scene") : scene);
    for (char& c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                           c == '_';
        if (!plain) c = '_';
    }
    const std::time_t t = std::chrono::system_clock::to_time_t(when);
    std::tm local{};
    localtime_r(&t, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    return "vorton_" + name + "_" + stamp + "." + std::string(extension);
}

int ClipSteps(double seconds, double dt) {
    if (!(dt > 0.0) || !(seconds > 0.0)) return 1;
    return std::max(1, int(std::lround(seconds / dt)));
}

std::filesystem::path ConfigDirectory() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "vorton";
    if (const char* home = std::getenv("HOME"); home && *home) {
        return std::filesystem::path(home) / ".config" / "vorton";
    }
    return {};
}

}  // namespace vorton
