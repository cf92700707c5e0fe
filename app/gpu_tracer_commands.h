#pragma once
/// \file
/// The worker's GpuTracerCommands applied to the frame loop's GPU tracers: the link between
/// the simulation's thread (app/sim_worker.h) and the compute shader (render/gpu_tracers.h).

#include "app/sim_worker.h"
#include "render/gpu_tracers.h"

namespace vorton {

/// Applies `command` to `gpu` (needs its context current). True when it was a step (after
/// which GpuTracers::ReadStats tells the bounds the worker wants back).
bool ApplyGpuTracerCommand(render::GpuTracers& gpu, const GpuTracerCommand& command);

}  // namespace vorton
