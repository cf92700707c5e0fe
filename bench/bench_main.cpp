// vorton-bench: simulation-only timings of named cases built from the scene
// files, for comparing ratios in one run on a shared, noisy machine.
//
//   vorton-bench [--case NAME]... [--threads T] [--frames N] [--warmup W]
//                [--repeat R] [--set KEY=VALUE]... [--csv FILE] [--accuracy]
//                [--gpu-tracers] [--list]
//
// grid_pts is the points the grid solver solved on in the last step (Σ over
// its solves; 0 for direct and tree), vortons and tracers the counts then.
// --gpu-tracers hands the tracers to the compute shader (render/gpu_tracers.h)
// at the first timed step, through a headless EGL context (Mesa's llvmpipe on
// a machine without a GPU): the simulation keeps none and evaluates its
// tracers' grids for them (Simulation::SetExternalTracers), and gpu_tracers is
// the GPU's median step (grid upload, dispatch, wait for it).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <glad/gl.h>
#include <glm/geometric.hpp>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include "app/platform/gl_context.h"
#include "render/gpu_tracers.h"
#include "scene/scene.h"
#include "sim/simulation.h"

namespace {

using namespace vorton;

/// A case: a scene file, the counts it runs at, the solver (empty: the
/// scene's) and how many seconds of the scene run untimed first (developed
/// flow: the dye has spread, the vortons have been remeshed and culled).
struct BenchCase {
    const char* name;
    const char* scene;
    int vortons;
    int tracers;
    const char* solver;
    double develop = 0.0;
};

// The *_small cases match the article code's own scenes (counts from issue 4);
// the large ones show scaling, with the grid solver meant for them.
constexpr BenchCase kCases[] = {
    {"dye_drop_small", "dye_drop", 280, 55512, ""},
    {"two_drops_small", "two_drops", 560, 121740, ""},
    {"stratified_small", "stratified_ball", 1016, 191812, ""},
    {"dye_drop_default", "dye_drop", 3000, 100000, ""},
    {"dye_drop_16k_1m", "dye_drop", 16384, 1048576, "grid"},
    {"dye_drop_64k_4m", "dye_drop", 65536, 4194304, "grid"},
    {"dye_drop_developed", "dye_drop", 3000, 100000, "", 20.0},
    {"two_drops_developed", "two_drops", 6000, 200000, "", 20.0},
    {"16k_1m_developed", "dye_drop", 16384, 1048576, "grid", 20.0},
    // The body scenes as shipped, in developed flow: the wall sheet's wake at its cap
    // (ball_through_smoke) or its wake_length (falling_ball).
    {"falling_ball_developed", "falling_ball", 600, 100000, "", 20.0},
    {"ball_smoke_developed", "ball_through_smoke", 6000, 150000, "", 20.0},
    // A fixed ball's shedding wake at its cap (flow_past_ball's wake sheds from about 38 s),
    // and the ring the caps have coarsened (vortex_ring: 15.6 mm seeded, 79 mm by 18 s).
    {"flow_past_ball_developed", "flow_past_ball", 6000, 150000, "", 40.0},
    {"vortex_ring_developed", "vortex_ring", 10000, 100000, "", 20.0},
};

double Percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, std::size_t(std::lround(p * double(v.size() - 1))));
    return v[i];
}

/// Relative RMS error of the velocity tracers get from the velocity grid
/// (the fast solver's grid values, interpolated) against direct summation at
/// up to 2000 tracers.
double GridAccuracy(Simulation& sim) {
    std::vector<glm::vec3> points;
    const auto& t = sim.GetTracers().position;
    const std::size_t ts = std::max<std::size_t>(1, t.size() / 2000);
    for (std::size_t i = 0; i < t.size(); i += ts) points.push_back(t[i]);
    std::vector<glm::vec3> fast(points.size()), exact(points.size());
    sim.TracerGridVelocity(points, fast);
    sim.DirectVelocityAt(points, exact);
    const glm::vec3 u8 = sim.Params().freeStream;
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        exact[i] += u8;
        num += glm::dot(fast[i] - exact[i], fast[i] - exact[i]);
        den += glm::dot(exact[i], exact[i]);
    }
    return den > 0.0 ? std::sqrt(num / den) : 0.0;
}

/// Relative RMS velocity error of the current solver against direct
/// summation at up to 2000 vortons and 2000 tracers of the current state.
double Accuracy(Simulation& sim) {
    std::vector<glm::vec3> points;
    const auto& v = sim.GetVortons().position;
    const auto& t = sim.GetTracers().position;
    const std::size_t vs = std::max<std::size_t>(1, v.size() / 2000), ts = std::max<std::size_t>(1, t.size() / 2000);
    for (std::size_t i = 0; i < v.size(); i += vs) points.push_back(v[i]);
    for (std::size_t i = 0; i < t.size(); i += ts) points.push_back(t[i]);
    std::vector<glm::vec3> fast(points.size()), exact(points.size());
    sim.VelocityAt(points, fast);
    sim.DirectVelocityAt(points, exact);
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        num += glm::dot(fast[i] - exact[i], fast[i] - exact[i]);
        den += glm::dot(exact[i], exact[i]);
    }
    return den > 0.0 ? std::sqrt(num / den) : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vorton-bench: simulation-only timings of named cases (median and p95 ms per step)"};
    std::vector<std::string> caseNames;
    int threads = 0, frames = 50, warmup = 10, repeat = 1;
    std::vector<std::string> sets;
    std::string csvPath;
    bool accuracy = false, gpuTracers = false, list = false;
    std::string validCases;
    for (const BenchCase& c : kCases) validCases += std::string(validCases.empty() ? "" : ", ") + c.name;
    app.add_option("--case", caseNames,
                   "case to run (repeatable; default: all but the 64k/4M and *_developed cases): " + validCases);
    app.add_option("--threads", threads, "worker threads (0: all cores)")->check(CLI::Range(0, 256));
    app.add_option("--frames", frames, "timed steps per case")->check(CLI::PositiveNumber);
    app.add_option("--warmup", warmup, "untimed steps first")->check(CLI::NonNegativeNumber);
    app.add_option("--repeat", repeat, "runs per case, each from a fresh simulation; the medians reported are "
                                       "the median over runs of each run's median")
        ->check(CLI::PositiveNumber);
    app.add_option("--set", sets, "KEY=VALUE parameter override applied to every case, as in vorton --set "
                                  "(e.g. solver=grid)");
    app.add_option("--csv", csvPath, "append rows to FILE (header written if the file is new)");
    app.add_flag("--accuracy", accuracy, "also report the fast solver's RMS velocity error against direct summation");
    app.add_flag("--gpu-tracers", gpuTracers,
                 "move the tracers on the GPU from the first timed step on (OpenGL 4.3 compute, headless EGL) "
                 "and report its time per step apart from the simulation's");
    app.add_flag("--list", list, "list the cases and exit");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    if (list) {
        for (const BenchCase& c : kCases) {
            std::printf("%-22s %-16s %7d vortons %8d tracers  solver %-9s  %4.0f s untimed first\n", c.name,
                        c.scene, c.vortons, c.tracers, *c.solver ? c.solver : "(scene's)", c.develop);
        }
        return 0;
    }
    std::vector<const BenchCase*> selected;
    for (const std::string& name : caseNames) {
        const auto it = std::find_if(std::begin(kCases), std::end(kCases), [&](const BenchCase& c) { return name == c.name; });
        if (it == std::end(kCases)) {
            std::cerr << "vorton-bench: --case: unknown case '" << name << "'; valid cases: " << validCases << "\n";
            return 2;
        }
        selected.push_back(&*it);
    }
    if (selected.empty()) {
        for (const BenchCase& c : kCases) {
            if (std::string(c.name) != "dye_drop_64k_4m" && c.develop == 0.0) selected.push_back(&c);
        }
    }
    threads = threads > 0 ? threads : tbb::info::default_concurrency();
    std::unique_ptr<platform::GlContext> glContext;
    std::unique_ptr<render::GpuTracers> gpu;
    if (gpuTracers) {
        auto context = platform::GlContext::CreateHeadless(16, 16);
        if (!context) {
            std::cerr << "vorton-bench: --gpu-tracers: " << context.error() << "\n";
            return 3;
        }
        glContext = std::move(context.value());
        auto created = render::GpuTracers::Create(VORTON_BENCH_SHADER_DIR);
        if (!created) {
            std::cerr << "vorton-bench: --gpu-tracers: " << created.error() << "\n";
            return 3;
        }
        gpu = std::move(created.value());
        std::printf("GPU tracers on %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    }
    tbb::task_arena arena(threads);

    std::ofstream csv;
    if (!csvPath.empty()) {
        const bool fresh = !std::filesystem::exists(csvPath);
        csv.open(csvPath, std::ios::app);
        if (!csv) {
            std::cerr << "vorton-bench: --csv: cannot open " << csvPath << " for writing\n";
            return 3;
        }
        if (fresh) {
            csv << "case,threads,vortons,tracers,grid_points,frames,median_ms,p95_ms";
            for (int s = 0; s < kStageCount; ++s) csv << ",ms_" << StageName(Stage(s));
            csv << (accuracy ? ",rms_error,grid_rms_error" : "") << (gpu ? ",gpu_tracers_ms" : "")
                << "\n";
        }
    }

    std::printf("%-22s %7s %8s %8s %9s %9s %9s", "case", "threads", "vortons", "tracers", "grid_pts", "median_ms",
                "p95_ms");
    for (int s = 0; s < kStageCount; ++s) std::printf(" %9.9s", std::string(StageName(Stage(s))).c_str());
    std::printf("%s%s\n", accuracy ? "  rms_error  grid_rms_error" : "", gpu ? "  gpu_tracers" : "");
    for (const BenchCase* c : selected) {
        std::vector<std::string> caseSets = {"vorton_count=" + std::to_string(c->vortons),
                                             "tracer_count=" + std::to_string(c->tracers)};
        if (*c->solver) caseSets.push_back(std::string("solver=") + c->solver);
        caseSets.insert(caseSets.end(), sets.begin(), sets.end());
        auto scene = PrepareScene(c->scene, caseSets);
        if (!scene) {
            std::cerr << "vorton-bench: " << scene.error() << "\n";
            return 2;
        }
        // Each run: its median step and stage times; reported: the median over runs.
        std::vector<double> runMedian, runP95;
        std::vector<std::vector<double>> runStage(kStageCount);
        std::size_t vortons = 0, tracers = 0, gridPoints = 0;
        double error = 0.0, gridError = 0.0;
        std::vector<double> runGpuMs;
        for (int run = 0; run < repeat; ++run) {
            Simulation sim(scene.value().setup);
            const int untimed = warmup + int(std::lround(c->develop / double(sim.Params().dt)));
            std::vector<double> stepMs, gpuMs;
            std::vector<std::vector<double>> stageMs(kStageCount);
            bool ok = true;
            std::vector<std::uint8_t> cells;
            // From the first timed step on the tracers live on the GPU, moved on the grids each
            // step leaves; the GPU's box of them tells the simulation where to evaluate.
            for (int f = 0; f < untimed + frames && ok; ++f) {
                const bool timed = f >= untimed;
                if (gpu && f == untimed) {
                    gpu->SetPositions(sim.GetTracers().position);
                    sim.SetExternalTracers(BoundsOf(sim.GetTracers().position), 0);
                    sim.MutableTracers().Clear();
                }
                arena.execute([&] {
                    const StepReport r = sim.Step();
                    if (!r.ok) {
                        std::cerr << "vorton-bench: " << c->name << ": " << r.message << "\n";
                        ok = false;
                    }
                });
                if (!ok || !timed) continue;
                stepMs.push_back(sim.LastStepMs());
                for (int s = 0; s < kStageCount; ++s) stageMs[std::size_t(s)].push_back(sim.LastStageTimes()[std::size_t(s)]);
                if (gpu) {
                    const auto begin = std::chrono::steady_clock::now();
                    std::vector<render::GpuTracerSphere> spheres;
                    for (std::size_t b = 0; b < sim.Bodies().size(); ++b) {
                        spheres.push_back({sim.Bodies()[b].position, sim.Setup().bodies[b].radius});
                    }
                    gpu->Step(sim.LastStepStartGrid(), sim.CurrentTracerGrid(), sim.Params().freeStream,
                              sim.Params().dt, spheres, true);
                    const render::GpuTracerStats stats = gpu->ReadStats();  // waits for the GPU
                    gpu->ReadOccupiedCells(cells);
                    const NestedGrid grid = sim.CurrentTracerGrid().grid;
                    sim.SetExternalTracers(stats.box, 0, &grid, cells);
                    gpuMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
                }
            }
            if (!ok) return 3;
            if (gpu) runGpuMs.push_back(Percentile(gpuMs, 0.5));
            runMedian.push_back(Percentile(stepMs, 0.5));
            runP95.push_back(Percentile(stepMs, 0.95));
            for (int s = 0; s < kStageCount; ++s) runStage[std::size_t(s)].push_back(Percentile(stageMs[std::size_t(s)], 0.5));
            vortons = sim.GetVortons().Size();
            tracers = gpu ? gpu->Count() : sim.GetTracers().Size();
            gridPoints = sim.LastStepWork().solverGridPoints;
            if (accuracy && run == 0) {
                arena.execute([&] {
                    // The grid first: VelocityAt reloads the solver, which
                    // drops the cached tracer grid the other one samples.
                    gridError = GridAccuracy(sim);
                    error = Accuracy(sim);
                });
            }
        }
        std::vector<std::vector<double>>& stageMs = runStage;
        const double median = Percentile(runMedian, 0.5), p95 = Percentile(runP95, 0.5);
        std::printf("%-22s %7d %8zu %8zu %9zu %9.3f %9.3f", c->name, threads, vortons, tracers, gridPoints, median, p95);
        for (int s = 0; s < kStageCount; ++s) std::printf(" %9.3f", Percentile(stageMs[std::size_t(s)], 0.5));
        if (accuracy) std::printf("  %9.5f  %9.5f", error, gridError);
        if (gpu) std::printf("  %11.3f", Percentile(runGpuMs, 0.5));
        std::printf("\n");
        std::fflush(stdout);
        if (csv.is_open()) {
            csv << c->name << ',' << threads << ',' << vortons << ',' << tracers << ',' << gridPoints << ','
                << frames << ',' << median << ',' << p95;
            for (int s = 0; s < kStageCount; ++s) csv << ',' << Percentile(stageMs[std::size_t(s)], 0.5);
            if (accuracy) csv << ',' << error << ',' << gridError;
            if (gpu) csv << ',' << Percentile(runGpuMs, 0.5);
            csv << "\n";
        }
    }
    return 0;
}
