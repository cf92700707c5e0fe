#include "output.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <string>
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

/// A CSV field: quoted (RFC 4180) only when it holds a comma, quote or line break.
std::string CsvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// impulse.csv's terms, in ImpulseBudget's order.
constexpr const char* kImpulseTerms[] = {"advection", "stretching", "diffusion", "baroclinic", "layers",
                                         "bodies",    "emitters",   "remesh",    "projection", "far_wake"};

}  // namespace

Status StatsWriter::Open(const std::filesystem::path& dir) {
    if (Status s = CreateDirectory(dir); !s) return s;
    m_path = dir / "frames.csv";
    m_out.open(m_path);
    if (!m_out) return Error{m_path.string() + ": cannot open for writing"};
    m_out << "frame,time,step_ms,vortons,tracers,impulse_x,impulse_y,impulse_z,circulation_x,circulation_y,"
             "circulation_z,max_speed,excess_mass,vorton_spacing,max_vorticity,p99_vorticity,remeshes,solver_grid_points,"
             "solver_points,substeps,lagrangian_cfl";
    for (int s = 0; s < kStageCount; ++s) m_out << ",ms_" << StageName(Stage(s));
    m_out << "\n";
    m_bodiesPath = dir / "bodies.csv";
    m_bodies.open(m_bodiesPath);
    if (!m_bodies) return Error{m_bodiesPath.string() + ": cannot open for writing"};
    m_bodies << "frame,time,body,x,y,z,vx,vy,vz,wx,wy,wz,fx,fy,fz\n";
    m_bodies.flush();
    if (!m_bodies) return Error{m_bodiesPath.string() + ": write failed (disk full?)"};
    m_impulsePath = dir / "impulse.csv";
    m_impulse.open(m_impulsePath);
    if (!m_impulse) return Error{m_impulsePath.string() + ": cannot open for writing"};
    m_impulse << "frame,time";
    for (const char* term : kImpulseTerms) m_impulse << "," << term << "_x," << term << "_y," << term << "_z";
    m_impulse << "\n";
    m_impulse.flush();
    if (!m_impulse) return Error{m_impulsePath.string() + ": write failed (disk full?)"};
    return Ok{};
}

Status StatsWriter::WriteRow(const Simulation& sim) {
    const Diagnostics d = sim.ComputeDiagnostics();
    char line[1024];
    int n = std::snprintf(line, sizeof line, "%lld,%.6f,%.4f,%zu,%zu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.9g,%.6g,%.6g,%.6g,%lld,%zu,%zu,%d,%.6g",
                          static_cast<long long>(sim.StepCount()), sim.Time(), sim.LastStepMs(),
                          sim.GetVortons().Size(), sim.GetTracers().Size(), d.impulse.x, d.impulse.y, d.impulse.z,
                          d.circulation.x, d.circulation.y, d.circulation.z, d.maxSpeed, d.excessMass,
                          double(sim.Spacing()), d.maxVorticity, d.p99Vorticity,
                          static_cast<long long>(sim.RemeshCount()), sim.LastStepWork().solverGridPoints,
                          sim.LastStepWork().solverPoints, sim.LastStepWork().substeps,
                          sim.LastStepWork().lagrangianCfl);
    for (int s = 0; s < kStageCount && n > 0 && n < int(sizeof line); ++s) {
        n += std::snprintf(line + n, sizeof line - std::size_t(n), ",%.4f", sim.LastStageTimes()[std::size_t(s)]);
    }
    m_out << line << "\n";
    m_out.flush();
    if (!m_out) return Error{m_path.string() + ": write failed (disk full?)"};

    const auto bodies = sim.Bodies();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const BodyState& b = bodies[i];
        const glm::vec3 f = b.NetForce();
        const std::string& name = i < sim.Setup().bodies.size() ? sim.Setup().bodies[i].name : std::string();
        std::snprintf(line, sizeof line, "%lld,%.6f,", static_cast<long long>(sim.StepCount()), sim.Time());
        m_bodies << line << CsvField(name);
        std::snprintf(line, sizeof line, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                      b.position.x, b.position.y, b.position.z, b.velocity.x, b.velocity.y, b.velocity.z,
                      b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z, f.x, f.y, f.z);
        m_bodies << line;
    }
    m_bodies.flush();
    if (!m_bodies) return Error{m_bodiesPath.string() + ": write failed (disk full?)"};

    const ImpulseBudget& budget = sim.LastImpulseBudget();
    std::snprintf(line, sizeof line, "%lld,%.6f", static_cast<long long>(sim.StepCount()), sim.Time());
    m_impulse << line;
    for (const glm::dvec3& term : {budget.advection, budget.stretching, budget.diffusion, budget.baroclinic, budget.layers,
                                   budget.bodies, budget.emitters, budget.remesh, budget.projection, budget.farWake}) {
        std::snprintf(line, sizeof line, ",%.9g,%.9g,%.9g", term.x, term.y, term.z);
        m_impulse << line;
    }
    m_impulse << "\n";
    m_impulse.flush();
    if (!m_impulse) return Error{m_impulsePath.string() + ": write failed (disk full?)"};
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
    data.reserve(t.Size() * 7);
    for (std::size_t i = 0; i < t.Size(); ++i) {
        const glm::vec3 x = t.position[i];
        const glm::vec3 u = i < t.velocity.size() ? t.velocity[i] : glm::vec3(0.0f);
        data.insert(data.end(), {x.x, x.y, x.z, u.x, u.y, u.z, sim.TracerDensityDeviation(i)});
    }
    return WritePly(file, t.Size(), {"x", "y", "z", "vx", "vy", "vz", "density"}, data);
}

Status WriteBodyPly(const std::filesystem::path& file, const Simulation& sim) {
    const auto bodies = sim.Bodies();
    const auto& specs = sim.Setup().bodies;
    std::vector<float> data;
    data.reserve(bodies.size() * 4);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const glm::vec3 x = bodies[i].position;
        const float radius = i < specs.size() ? specs[i].radius : 0.0f;
        data.insert(data.end(), {x.x, x.y, x.z, radius});
    }
    return WritePly(file, bodies.size(), {"x", "y", "z", "radius"}, data);
}

Status WriteDump(const std::filesystem::path& dir, const Simulation& sim, std::int64_t frame) {
    if (Status s = CreateDirectory(dir); !s) return s;
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%06lld.ply", static_cast<long long>(frame));
    if (Status s = WriteVortonPly(dir / (std::string("vortons") + suffix), sim); !s) return s;
    if (Status s = WriteTracerPly(dir / (std::string("tracers") + suffix), sim); !s) return s;
    return WriteBodyPly(dir / (std::string("bodies") + suffix), sim);
}

}  // namespace vorton
