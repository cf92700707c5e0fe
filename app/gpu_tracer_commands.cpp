#include "app/gpu_tracer_commands.h"

namespace vorton {

bool ApplyGpuTracerCommand(render::GpuTracers& gpu, const GpuTracerCommand& command, bool markCells) {
    switch (command.kind) {
        case GpuTracerCommand::Kind::Replace:
            gpu.SetPositions(command.positions);
            return false;
        case GpuTracerCommand::Kind::Append:
            gpu.AppendPositions(command.positions);
            return false;
        case GpuTracerCommand::Kind::Step: {
            render::GpuTracers::Spheres spheres;
            for (const glm::vec4& s : command.spheres) spheres.push_back({glm::vec3(s), s.w});
            gpu.Step(TracerGridView{command.grid0, *command.values0, command.serial0},
                     TracerGridView{command.grid1, *command.values1, command.serial1}, command.freeStream,
                     command.dt, spheres, markCells);
            return true;
        }
    }
    return false;
}

int LastGpuStep(const std::vector<GpuTracerCommand>& commands) {
    for (int i = int(commands.size()) - 1; i >= 0; --i) {
        if (commands[std::size_t(i)].kind == GpuTracerCommand::Kind::Step) return i;
    }
    return -1;
}

}  // namespace vorton
