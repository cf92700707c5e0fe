#pragma once
/// \file
/// Simulation's members whose types are the library's internals. Included
/// only by Simulation's own sources (and tests that reach inside).

#include <array>
#include <memory>

#include "sim/bodies/body_surface.h"
#include "sim/particles/baroclinic.h"
#include "sim/particles/projection.h"
#include "sim/particles/pse.h"
#include "sim/particles/stratification.h"
#include "sim/simulation.h"
#include "sim/solvers/grid_solver.h"
#include "sim/solvers/velocity_solver.h"

namespace vorton {

struct Simulation::Internals {
    /// Per solver kind (Direct, Tree, Grid), made when first used: [0] the
    /// step's first and last evaluations, [1] the predictor's.
    std::array<std::unique_ptr<VelocitySolver>, 3> solvers[2];
    /// The grid solvers' kernel transforms, shared by all of them (the
    /// predictor's and the rest's, each group's): SolverSettings::kernelStore.
    std::shared_ptr<GridKernelStore> kernelStore = std::make_shared<GridKernelStore>();
    ParticleStrengthExchange pse;
    BaroclinicGenerator baroclinicGenerator;
    /// The remesh's solenoidal projection (its plans and buffers kept).
    SolenoidalProjection projection;
    /// The ambient profile of the layer groups (docs/METHOD.md §2).
    StratifiedProfile profile;
    /// Per body: its surface points and image sources, the image flow of the
    /// last velocity evaluation, and the velocity (no stream) at its surface
    /// points then (bodies/body_surface.h).
    std::vector<SurfaceStencil> stencils;
    std::vector<BodyImage> images;
    std::vector<std::vector<glm::vec3>> surfaceVelocity;
};

}  // namespace vorton
