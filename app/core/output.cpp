#include "output.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <vector>

namespace vorton {

namespace {

static_assert(std::endian::native == std::endian::little, "PLY dumps are written little-endian as in memory");

Status CreateDirectory(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        return Error{dir.string() + ": cannot create directory (" + (ec ? ec.message() : "not a directory") + ")"};
    }
    return Ok{};
}

Status WritePly(const std::filesystem::path& file, std::size_t count, std::initializer_list<const char*> properties,
                const std::vector<float>& data) {
    std::ofstream out(file, std::ios::binary);
    if (!out) return Error{file.string() + ": cannot open for writing"};
    out << "ply\nformat binary_little_endian 1.0\ncomment written by vorton\nelement vertex " << count << "\n";
    for (const char* p : properties) out << "property float " << p << "\n";
    out << "end_header\n";
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size() * sizeof(float)));
    if (!out) return Error{file.string() + ": write failed (disk full?)"};
    return Ok{};
}

}  // namespace

Status StatsWriter::Open(const std::filesystem::path& dir) {
    if (Status s = CreateDirectory(dir); !s) return s;
    m_path = dir / "frames.csv";
    m_out.open(m_path);
    if (!m_out) return Error{m_path.string() + ": cannot open for writing"};
    m_out << "frame,time,step_ms,vortons,tracers,impulse_x,impulse_y,impulse_z,circulation_x,circulation_y,"
             "circulation_z,max_speed,excess_mass";
    for (int s = 0; s < kStageCount; ++s) m_out << ",ms_" << StageName(Stage(s));
    m_out << "\n";
    return Ok{};
}

Status StatsWriter::WriteRow(const Simulation& sim) {
    const Diagnostics d = sim.ComputeDiagnostics();
    char line[1024];
    int n = std::snprintf(line, sizeof line, "%lld,%.6f,%.4f,%zu,%zu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.9g",
                          static_cast<long long>(sim.StepCount()), sim.Time(), sim.LastStepMs(),
                          sim.GetVortons().Size(), sim.GetTracers().Size(), d.impulse.x, d.impulse.y, d.impulse.z,
                          d.circulation.x, d.circulation.y, d.circulation.z, d.maxSpeed, d.excessMass);
    for (int s = 0; s < kStageCount && n > 0 && n < int(sizeof line); ++s) {
        n += std::snprintf(line + n, sizeof line - std::size_t(n), ",%.4f", sim.LastStageTimes()[std::size_t(s)]);
    }
    m_out << line << "\n";
    m_out.flush();
    if (!m_out) return Error{m_path.string() + ": write failed (disk full?)"};
    return Ok{};
}

Status WriteVortonPly(const std::filesystem::path& file, const Simulation& sim) {
    const Vortons& v = sim.GetVortons();
    std::vector<float> data;
    data.reserve(v.Size() * 9);
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const glm::vec3 x = v.position[k], w = v.vorticity[k];
        data.insert(data.end(), {x.x, x.y, x.z, w.x, w.y, w.z, v.radius[k], v.volume[k], sim.VortonDensityDeviation(k)});
    }
    return WritePly(file, v.Size(), {"x", "y", "z", "wx", "wy", "wz", "radius", "volume", "density"}, data);
}

Status WriteTracerPly(const std::filesystem::path& file, const Simulation& sim) {
    const Tracers& t = sim.GetTracers();
    std::vector<float> data;
    data.reserve(t.Size() * 4);
    for (std::size_t i = 0; i < t.Size(); ++i) {
        const glm::vec3 x = t.position[i];
        data.insert(data.end(), {x.x, x.y, x.z, sim.TracerDensityDeviation(i)});
    }
    return WritePly(file, t.Size(), {"x", "y", "z", "density"}, data);
}

Status WriteDump(const std::filesystem::path& dir, const Simulation& sim, std::int64_t frame) {
    if (Status s = CreateDirectory(dir); !s) return s;
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%06lld.ply", static_cast<long long>(frame));
    if (Status s = WriteVortonPly(dir / (std::string("vortons") + suffix), sim); !s) return s;
    return WriteTracerPly(dir / (std::string("tracers") + suffix), sim);
}

}  // namespace vorton
