#pragma once
/// \file
/// Run outputs: per-step statistics (CSV) and particle dumps (binary PLY).

#include <filesystem>
#include <fstream>

#include "sim/result.h"
#include "sim/simulation.h"

namespace vorton {

/// DIR/frames.csv, one row per step: frame,time,step_ms,vortons,tracers,
/// impulse_x..z (m⁴/s), circulation_x..z (m³/s), max_speed (m/s),
/// excess_mass (kg), vorton_spacing (h, m), max_vorticity and
/// p99_vorticity (largest and 99th percentile |ω| of the vortons, 1/s),
/// remeshes (since reset), solver_grid_points and solver_points (the
/// step's work: StepWork), substeps (how many the step took: 1 unless a body
/// was fast, Simulation::Substeps), lagrangian_cfl (StepWork::lagrangianCfl:
/// past Simulation::kRemeshStretchCourant, 1, the step remeshed off its
/// cadence), then ms_<stage> for every Stage.
///
/// DIR/bodies.csv, one row per rigid body per step (only the header when the
/// scene has no bodies): frame,time,body,x,y,z,vx,vy,vz,wx,wy,wz,fx,fy,fz
/// with body its name, x the centre (m), v its velocity (m/s), w its angular
/// velocity (rad/s) and f the net force of the step (fluid + gravity and
/// buoyancy, N; BodyState::NetForce()). frame and time are as in frames.csv.
class StatsWriter {
public:
    /// Creates DIR if needed and writes the three headers. Error says why it cannot.
    Status Open(const std::filesystem::path& dir);
    /// Appends the rows of the step just taken (frames.csv, bodies.csv, impulse.csv:
    /// the step's ImpulseBudget, which Simulation::SetImpulseBudget(true) must have asked for).
    Status WriteRow(const Simulation& sim);
    bool IsOpen() const { return m_out.is_open(); }

private:
    std::ofstream m_out;
    std::filesystem::path m_path;
    std::ofstream m_bodies;
    std::filesystem::path m_bodiesPath;
    std::ofstream m_impulse;
    std::filesystem::path m_impulsePath;
};

/// Binary little-endian PLY of the vortons: float x y z wx wy wz radius volume
/// density (w: vorticity 1/s; density: deviation from ambient, kg/m³).
Status WriteVortonPly(const std::filesystem::path& file, const Simulation& sim);
/// Binary little-endian PLY of the tracers: float x y z vx vy vz density
/// (v: velocity of the last step, m/s; density as for vortons).
Status WriteTracerPly(const std::filesystem::path& file, const Simulation& sim);
/// Binary little-endian PLY of the rigid bodies, one vertex per sphere:
/// float x y z radius (m). Valid with 0 vertices when there are no bodies.
Status WriteBodyPly(const std::filesystem::path& file, const Simulation& sim);

/// Writes DIR/vortons_NNNNNN.ply, DIR/tracers_NNNNNN.ply and
/// DIR/bodies_NNNNNN.ply (always, even with no bodies) for frame N (creates DIR).
Status WriteDump(const std::filesystem::path& dir, const Simulation& sim, std::int64_t frame);

}  // namespace vorton
