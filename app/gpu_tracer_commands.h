#pragma once
/// \file
/// The frame loop's side of tracers on the GPU: the worker's GpuTracerCommands applied to the
/// compute shader's tracers, and what goes back to the worker (app/sim_worker.h).

#include <cstdint>
#include <vector>

#include "app/sim_worker.h"
#include "render/gpu_tracers.h"

namespace vorton {

/// Applies the worker's commands to `gpu` and keeps what the next FrameRequest reports back:
/// the bounds and occupied cells after the last step applied (with its step and command id)
/// and the positions after steps whose state the worker kept for rewinding. Needs the GPU
/// tracers' context current for every call.
class GpuTracerLink {
public:
    explicit GpuTracerLink(render::GpuTracers& gpu) : m_gpu(gpu) {}

    /// What Apply did: the steps applied, and the statistics of the last of them.
    struct Applied {
        int steps = 0;
        render::GpuTracerStats stats;
    };
    /// Applies `commands` in order, the last step marking its cells, reads the report back,
    /// and empties `commands`.
    Applied Apply(std::vector<GpuTracerCommand>& commands);
    /// Puts the report into `request` (the cells and kept positions are moved from there by Sync).
    void FillRequest(SimWorker::FrameRequest& request);
    /// SimWorker::ReturnGpuTracers: the commands not yet taken applied, the positions read back.
    Status TakeBack(SimWorker& worker);

private:
    bool ApplyOne(const GpuTracerCommand& command, bool markCells);

    render::GpuTracers& m_gpu;
    Aabb m_box;                   // after step m_boxStep, m
    std::int64_t m_boxStep = -1;  // -1: nothing to report
    std::uint64_t m_boxCommand = 0;
    NestedGrid m_cellsGrid;             // that step's end grid
    std::vector<std::uint8_t> m_cells;  // its cells holding a tracer
    std::vector<KeptGpuTracers> m_kept;
};

}  // namespace vorton
