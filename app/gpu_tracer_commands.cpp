#include "app/gpu_tracer_commands.h"

namespace vorton {

bool GpuTracerLink::ApplyOne(const GpuTracerCommand& command, bool markCells) {
    bool step = false;
    switch (command.kind) {
        case GpuTracerCommand::Kind::Replace:
            m_gpu.SetPositions(command.positions);
            break;
        case GpuTracerCommand::Kind::Append:
            m_gpu.AppendPositions(command.positions);
            break;
        case GpuTracerCommand::Kind::Step: {
            render::GpuTracers::Spheres spheres;
            for (const glm::vec4& s : command.spheres) spheres.push_back({glm::vec3(s), s.w});
            m_gpu.Step(TracerGridView{command.grid0, *command.values0, command.serial0},
                       TracerGridView{command.grid1, *command.values1, command.serial1}, command.freeStream,
                       command.dt, spheres, markCells);
            step = true;
            break;
        }
    }
    // The positions after a step whose state the worker kept, for its rewind ring.
    if (command.keep) {
        KeptGpuTracers kept{command.id, {}};
        m_gpu.ReadPositions(kept.positions);
        m_kept.push_back(std::move(kept));
    }
    return step;
}

GpuTracerLink::Applied GpuTracerLink::Apply(std::vector<GpuTracerCommand>& commands) {
    Applied applied;
    int last = -1;
    for (int i = 0; i < int(commands.size()); ++i) {
        if (commands[std::size_t(i)].kind == GpuTracerCommand::Kind::Step) last = i;
    }
    for (int i = 0; i < int(commands.size()); ++i) {
        const GpuTracerCommand& command = commands[std::size_t(i)];
        // The last step's cells tell the simulation where the tracers are.
        if (ApplyOne(command, i == last)) {
            ++applied.steps;
            m_boxStep = command.step;
            m_boxCommand = command.id;
            m_cellsGrid = command.grid1;
        }
    }
    commands.clear();
    if (applied.steps > 0) {
        applied.stats = m_gpu.ReadStats();
        m_box = applied.stats.box;
        m_gpu.ReadOccupiedCells(m_cells);
    }
    return applied;
}

void GpuTracerLink::FillRequest(SimWorker::FrameRequest& request) {
    request.gpuTracerBox = m_box;
    request.gpuTracerBoxStep = m_boxStep;
    request.gpuTracerBoxCommand = m_boxCommand;
    request.gpuTracerCellsGrid = m_cellsGrid;
    request.gpuTracerCells = &m_cells;
    request.gpuKept = &m_kept;
}

Status GpuTracerLink::TakeBack(SimWorker& worker) {
    const Status s = worker.ReturnGpuTracers([&](std::vector<GpuTracerCommand>& rest) {
        for (const GpuTracerCommand& command : rest) ApplyOne(command, false);
        std::vector<glm::vec3> positions;
        m_gpu.ReadPositions(positions);
        return positions;
    });
    m_boxStep = -1;
    return s;
}

}  // namespace vorton
