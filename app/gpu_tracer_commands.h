#pragma once
/// \file
/// The worker's GpuTracerCommands applied to the frame loop's GPU tracers: the link between
/// the simulation's thread (app/sim_worker.h) and the compute shader (render/gpu_tracers.h).

#include "app/sim_worker.h"
#include "render/gpu_tracers.h"

namespace vorton {

/// Applies `command` to `gpu` (needs its context current). True when it was a step (after
/// which GpuTracers::ReadStats tells the bounds the worker wants back); with `markCells` a
/// step also marks the cells of its end grid that hold a tracer (GpuTracers::ReadOccupiedCells).
bool ApplyGpuTracerCommand(render::GpuTracers& gpu, const GpuTracerCommand& command, bool markCells = false);

/// The index of the last Step in `commands`, or -1: the step whose cells to mark.
int LastGpuStep(const std::vector<GpuTracerCommand>& commands);

}  // namespace vorton
