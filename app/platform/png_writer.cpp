// The one translation unit that compiles stb_image_write. STATIC keeps its symbols private so
// they cannot clash with the copy inside Debian's libstb.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include "app/platform/recorder.h"

namespace vorton::platform {

Status WritePng(const std::filesystem::path& path, int width, int height,
                const std::uint8_t* rgbTopDown) {
    if (width <= 0 || height <= 0 || rgbTopDown == nullptr) {
        return Error{"Cannot write PNG '" + path.string() + "': empty image"};
    }
    if (stbi_write_png(path.c_str(), width, height, 3, rgbTopDown, width * 3) == 0) {
        return Error{"Cannot write PNG '" + path.string() +
                     "' (directory missing or not writable, or disk full)"};
    }
    return Ok{};
}

}  // namespace vorton::platform
