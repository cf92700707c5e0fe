// Fuzz target: the scene loader (ParseScene) on arbitrary bytes. It must
// return a scene or an error; a crash, an uncaught exception, a hang or a
// sanitizer report is a finding. An accepted scene must also pass the
// checks the simulation relies on (SetupProblem is empty).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "scene/scene.h"
#include "sim/particles/seeding.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto scene = vorton::ParseScene(text, "fuzz.json");
    if (scene && !vorton::SetupProblem(scene.value().setup).empty()) std::abort();
    return 0;
}
