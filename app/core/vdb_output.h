#pragma once
/// \file
/// --dump-vdb (issue 14, item 8): the dye as an OpenVDB volume per step, for Blender's,
/// Houdini's or ParaView's volume renderers. Through Debian's libopenvdb-dev.

#include <filesystem>

#include "sim/result.h"
#include "sim/simulation.h"

namespace vorton {

/// Voxel edge of the dye volume for a vorton spacing h: h/2, m (the dye's detail lives in the
/// tracers, finer than the vortons; half of h keeps a file of a million tracers near 10 MB).
float DyeVoxelSize(float spacing);

/// The tracers per m³ the scene seeded (tracer_count over the volume of its groups), the
/// density's unit; 0 without tracers or groups.
double SeededTracerDensity(const SceneSetup& setup);

/// What a VDB file holds besides the dye.
struct VdbContents {
    /// Also a FloatGrid "vorticity": |ω|, 1/s, on voxels of the vorton spacing h (the
    /// vortons' lattice): each vorton's strength α_k = ω_k V_k spread by cloud-in-cell
    /// weights, divided by h³, then the vector's length (Cottet & Koumoutsakos §2.6: the
    /// particles' field on the grid that remeshing uses). Voxels under 1e-3 of the largest
    /// |ω| are left inactive.
    bool vorticity = false;
};

/// Writes `file`, an OpenVDB file holding a FloatGrid "density" (a fog volume): the tracers
/// spread onto voxels of DyeVoxelSize(sim.Spacing()) by cloud-in-cell weights, divided by the
/// voxel volume and by SeededTracerDensity, so 1 is the dye as dense as it was seeded (empty
/// voxels inactive); and "vorticity" when `contents` asks. World-space transforms, metres;
/// metadata "time" (s) and "step". Errors name the file (folder missing, not writable).
Status WriteDyeVdb(const std::filesystem::path& file, const Simulation& sim, VdbContents contents = {});

}  // namespace vorton
