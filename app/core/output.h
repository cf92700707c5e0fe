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
/// excess_mass (kg), then ms_<stage> for every Stage.
class StatsWriter {
public:
    /// Creates DIR if needed and writes the header. Error says why it cannot.
    Status Open(const std::filesystem::path& dir);
    /// Appends the row of the step just taken.
    Status WriteRow(const Simulation& sim);
    bool IsOpen() const { return m_out.is_open(); }

private:
    std::ofstream m_out;
    std::filesystem::path m_path;
};

/// Binary little-endian PLY of the vortons: float x y z wx wy wz radius volume
/// density (w: vorticity 1/s; density: deviation from ambient, kg/m³).
Status WriteVortonPly(const std::filesystem::path& file, const Simulation& sim);
/// Binary little-endian PLY of the tracers: float x y z density.
Status WriteTracerPly(const std::filesystem::path& file, const Simulation& sim);

/// Writes DIR/vortons_NNNNNN.ply and DIR/tracers_NNNNNN.ply for frame N (creates DIR).
Status WriteDump(const std::filesystem::path& dir, const Simulation& sim, std::int64_t frame);

}  // namespace vorton
