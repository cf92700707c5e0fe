#include "app/panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <tbb/info.h>

#include "app/demo_app.h"
#include "app/panel_widgets.h"

namespace vorton {

namespace {

constexpr float kDegrees = 180.0f / std::numbers::pi_v<float>;

/// Gravity as magnitude and direction (tilt from straight down, azimuth). Returns true when edited.
bool GravityWidget(SimParams& p) {
    float magnitude = glm::length(p.gravity);
    glm::vec3 dir = magnitude > 0.0f ? p.gravity / magnitude : glm::vec3(0.0f, 0.0f, -1.0f);
    float tilt = std::acos(std::clamp(-dir.z, -1.0f, 1.0f)) * kDegrees;
    float azimuth = std::atan2(dir.y, dir.x) * kDegrees;
    bool changed = ImGui::SliderFloat("Gravity (m/s^2)", &magnitude, 0.0f, 30.0f, "%.2f");
    HelpMarker("magnitude of g; 9.81 on Earth");
    changed |= ImGui::SliderFloat("Tilt from down (deg)", &tilt, 0.0f, 180.0f, "%.0f");
    HelpMarker("0: gravity points down (-z); 180: up");
    changed |= ImGui::SliderFloat("Azimuth (deg)", &azimuth, -180.0f, 180.0f, "%.0f");
    if (changed) {
        const float t = tilt / kDegrees, a = azimuth / kDegrees;
        p.gravity = magnitude * glm::vec3(std::sin(t) * std::cos(a), std::sin(t) * std::sin(a), -std::cos(t));
    }
    return changed;
}

/// The parameters of SimParams the table places in `panel`, live ones or
/// those applied on reset, each with its table label and slider range (the
/// gravity vector as magnitude and direction). Returns true when one was edited.
bool SimParamWidgets(SimParams& p, ParamInfo<SimParams>::Panel panel, bool live) {
    bool edited = false;
    const bool treeInUse = p.solver == Solver::Tree || p.solver == Solver::Auto;
    for (const auto& info : SimParamInfos()) {
        if (info.panel != panel || info.live != live) continue;
        // The treecode's settings only where the treecode may run.
        const auto* real = std::get_if<float SimParams::*>(&info.member);
        if (!treeInUse && real && *real == &SimParams::treeTheta) continue;
        if (const auto* vec = std::get_if<glm::vec3 SimParams::*>(&info.member); vec && *vec == &SimParams::gravity) {
            edited |= GravityWidget(p);
            continue;
        }
        const bool narrowed = info.sliderMin != 0.0f || info.sliderMax != 0.0f;
        edited |= ParamWidget(p, info, ParamLabel(info).c_str(), narrowed ? info.sliderMin : info.min,
                              narrowed ? info.sliderMax : info.max);
    }
    return edited;
}

void SceneSection(DemoApp& app) {
    const std::string& current = app.CurrentScene().name;
    if (ImGui::BeginCombo("Scene", current.c_str())) {
        for (const std::string& name : app.SceneNames()) {
            if (ImGui::Selectable(name.c_str(), name == current)) app.RequestScene(name);
        }
        ImGui::EndCombo();
    }
    if (!app.CurrentScene().description.empty()) ImGui::TextWrapped("%s", app.CurrentScene().description.c_str());
    if (ImGui::Button(app.Paused() ? "Run (space)" : "Pause (space)")) app.Paused() = !app.Paused();
    ImGui::SameLine();
    if (ImGui::Button("Step (N)")) app.RequestStep();
    ImGui::SameLine();
    if (ImGui::Button("Reset (R)")) app.RequestReset();
    ImGui::SameLine();
    if (ImGui::Button("Camera (C)")) app.ResetCamera();
}

void StatsSection(DemoApp& app) {
    const SimSnapshot& sim = app.Snapshot();
    ImGui::Text("t = %.2f s   step %lld   %.1f FPS", sim.time, static_cast<long long>(sim.stepCount), app.Fps());
    ImGui::Text("%zu vortons, %zu tracers, %d threads", sim.vortonCount, sim.tracerPositions.size(), app.Threads());
    ImGui::Text("sim %.1f ms/step, %.1f steps/s", sim.stepMs, app.StepsPerSecond());
    ImGui::Checkbox("Timings (T)", &app.View().showTimings);
    HelpMarker("a window with the time of each stage of a step, ms per step over time, steps/s and FPS");
}

void FluidSection(DemoApp& app) {
    SimParams& p = app.Setup().params;
    if (!ImGui::CollapsingHeader("Fluid", ImGuiTreeNodeFlags_DefaultOpen)) return;
    using Panel = ParamInfo<SimParams>::Panel;
    bool edited = SimParamWidgets(p, Panel::Fluid, true);
    ImGui::Separator();
    for (DensityGroup& g : app.Setup().groups) {
        ImGui::PushID(g.name.c_str());
        ImGui::TextUnformatted(g.name.c_str());
        for (const auto& info : GroupParamInfos()) {
            if (!info.live) continue;  // the shape: applied on reset, from the scene file or --set
            // A useful slider range: a few times the scene's own magnitude.
            const float span = std::max(100.0f, 4.0f * std::abs(g.densityDeviation));
            edited |= ParamWidget(g, info, ParamLabel(info).c_str(), -span, span);
        }
        ImGui::PopID();
    }
    if (edited) app.SetupEdited();
}

/// A plot of one quantity over the last steps (oldest left), its latest value inside, and
/// the plotted range beside it.
void HistoryPlot(const char* id, const char* name, const char* unit, const StepHistory& history) {
    const std::vector<float>& values = history.Values();
    if (values.empty()) return;
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    const float low = *lowest, high = *highest;
    const float pad = std::max(0.05f * (high - low), 1.0e-3f + 0.01f * std::max(std::abs(low), std::abs(high)));
    char overlay[64], label[96];
    std::snprintf(overlay, sizeof overlay, "%s %.3g %s", name, history.Latest(), unit);
    std::snprintf(label, sizeof label, "max %.3g\nmin %.3g##%s", high, low, id);
    // Width 0: the item width (ImGui 1.86 takes -1 literally).
    ImGui::PlotLines(label, values.data(), int(values.size()), history.Offset(), overlay, low - pad, high + pad,
                     ImVec2(0.0f, 56.0f));
}

void BodiesSection(DemoApp& app) {
    std::vector<BodySpec>& specs = app.Setup().bodies;
    const auto& bodies = app.Snapshot().bodies;
    if (specs.empty() || bodies.empty()) return;
    if (!ImGui::CollapsingHeader("Bodies", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const std::vector<BodySpec>& sceneSpecs = app.CurrentScene().setup.bodies;
    int& selected = app.SelectedBody();
    bool edited = false;
    for (std::size_t i = 0; i < specs.size() && i < bodies.size(); ++i) {
        BodySpec& spec = specs[i];
        const BodyState& b = bodies[i];
        // Slider ranges around the scene file's values, so they stay put while dragging.
        const BodySpec& reference = i < sceneSpecs.size() ? sceneSpecs[i] : spec;
        ImGui::PushID(int(i));
        ImGui::RadioButton(spec.name.c_str(), &selected, int(i));
        HelpMarker("plot this body's height and speed below; grabbing a body selects it too");
        // Flags on the name's line, then the sliders and colour.
        for (const auto& info : BodyParamInfos()) {
            if (!info.live || !std::holds_alternative<bool BodySpec::*>(info.member)) continue;
            ImGui::SameLine();
            edited |= ParamWidget(spec, info, ParamLabel(info).c_str(), 0.0f, 1.0f);
        }
        ImGui::SameLine();
        ImGui::TextDisabled("%s", b.grabbed ? "held by the mouse" : spec.fixed ? "fixed" : "free");
        for (const auto& info : BodyParamInfos()) {
            // Not position and velocities: they are the state at reset.
            if (!info.live || std::holds_alternative<bool BodySpec::*>(info.member)) continue;
            float low = info.min, high = info.max;
            if (info.key == "density") {
                low = 1.0f;
                high = std::max(2.0e4f, 4.0f * reference.density);
            } else if (info.key == "radius") {
                low = std::min(0.01f, 0.25f * reference.radius);
                high = std::max(0.5f, 4.0f * reference.radius);
            }
            edited |= ParamWidget(spec, info, ParamLabel(info).c_str(), low, high);
        }
        const glm::vec3 f = b.NetForce();
        ImGui::Text("height %.3f m   speed %.3f m/s", b.position.z, glm::length(b.velocity));
        ImGui::Text("net force (%.3g, %.3g, %.3g) N, |F| = %.3g N", f.x, f.y, f.z, glm::length(f));
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("from the fluid (%.3g, %.3g, %.3g) N\nweight and buoyancy (%.3g, %.3g, %.3g) N",
                              b.fluidForce.x, b.fluidForce.y, b.fluidForce.z, b.weightForce.x, b.weightForce.y,
                              b.weightForce.z);
        }
        ImGui::Text("fluid around it %.1f kg/m^3", b.fluidDensity);
        ImGui::PopID();
        ImGui::Separator();
    }
    if (edited) app.SetupEdited();
    if (selected < 0 || std::size_t(selected) >= bodies.size()) selected = 0;
    const auto& histories = app.BodyHistories();
    if (std::size_t(selected) < histories.size()) {
        const BodyHistory& h = histories[std::size_t(selected)];
        const double seconds = double(std::max<std::size_t>(h.height.Values().size(), 1) - 1) * app.Setup().params.dt;
        ImGui::Text("%s over the last %.1f s", specs[std::size_t(selected)].name.c_str(), seconds);
        HistoryPlot("height", "height", "m", h.height);
        HistoryPlot("speed", "speed", "m/s", h.speed);
    }
    ImGui::TextDisabled("Left drag a sphere to move or throw it; wheel: push/pull.");
}

void SolverSection(DemoApp& app) {
    SimParams& p = app.Setup().params;
    if (!ImGui::CollapsingHeader("Solver")) return;
    using Panel = ParamInfo<SimParams>::Panel;
    bool edited = SimParamWidgets(p, Panel::Solver, true);
    int threads = app.Threads();
    // Up to twice the hardware threads: more only adds waiting (results are the same anyway).
    if (ImGui::SliderInt("Threads", &threads, 1, 2 * tbb::info::default_concurrency())) app.SetThreads(threads);
    HelpMarker("worker threads of the simulation, applied at the next step; results are identical for any count");
    ImGui::TextDisabled("Applied on Reset:");
    edited |= SimParamWidgets(p, Panel::Solver, false);
    if (edited) app.SetupEdited();
}

void RecordingSection(DemoApp& app) {
    auto& path = app.View().recordPath;
    // The default name follows the scene, so recordings of two scenes do not overwrite each
    // other; a name the user typed stays.
    auto& defaultPath = app.View().defaultRecordPath;
    if (path[0] == '\0' || std::string_view(path.data()) == std::string_view(defaultPath.data())) {
        std::snprintf(path.data(), path.size(), "vorton_%s.mp4", app.CurrentScene().name.c_str());
        defaultPath = path;
    }
    if (!ImGui::CollapsingHeader("Recording", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::InputText("File or folder/", path.data(), path.size());
    HelpMarker("FILE.mp4 records a video through ffmpeg; a path ending in / records a PNG sequence");
    if (ImGui::Button(app.IsRecording() ? "Stop recording" : "Record")) app.ToggleRecording(path.data());
    ImGui::SameLine();
    if (ImGui::Button("Screenshot (P)")) app.RequestScreenshot();
    ImGui::Checkbox("Include this panel in recordings", &app.RecordPanel());
}

}  // namespace

void DrawPanel(DemoApp& app) {
    ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(380.0f, 0.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin("Vorton fluid", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    // Where the panel ends, for the camera to centre the view in the rest of the window.
    const float displayWidth = ImGui::GetIO().DisplaySize.x;
    if (displayWidth > 0.0f) app.SetPanelShare((ImGui::GetWindowPos().x + ImGui::GetWindowWidth()) / displayWidth);
    SceneSection(app);
    if (!app.BlowUp().empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s", app.BlowUp().c_str());
    StatsSection(app);
    FluidSection(app);
    BodiesSection(app);
    SolverSection(app);
    DisplaySection(app);
    RecordingSection(app);
    if (!app.StatusMessage().empty()) {
        const ImVec4 color = app.StatusIsError() ? ImVec4(1.0f, 0.45f, 0.35f, 1.0f) : ImVec4(0.6f, 0.85f, 0.6f, 1.0f);
        ImGui::PushTextWrapPos(360.0f);
        ImGui::TextColored(color, "%s", app.StatusMessage().c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
}

void DrawTimings(DemoApp& app) {
    const SimSnapshot& sim = app.Snapshot();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    // Top right, below the REC indicator.
    ImGui::SetNextWindowPos(ImVec2(display.x - 10.0f, 44.0f), ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.7f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (!ImGui::Begin("Timings", &app.View().showTimings, flags)) {
        ImGui::End();
        return;
    }
    double stageSum = 0.0;
    for (double ms : sim.stageMs) stageSum += ms;
    ImGui::Text("step %lld, %d threads%s", static_cast<long long>(sim.stepCount), app.Threads(),
                app.LockStep() ? ", lock-step" : "");
    if (ImGui::BeginTable("stages", 3, ImGuiTableFlags_SizingFixedFit)) {
        for (int s = 0; s < kStageCount; ++s) {
            const std::string_view name = StageName(Stage(s));
            const double ms = sim.stageMs[std::size_t(s)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%.*s", int(name.size()), name.data());
            ImGui::TableNextColumn();
            ImGui::Text("%8.2f ms", ms);
            ImGui::TableNextColumn();
            const float share = stageSum > 0.0 ? float(ms / stageSum) : 0.0f;
            ImGui::ProgressBar(share, ImVec2(90.0f, ImGui::GetTextLineHeight()), "");
        }
        ImGui::EndTable();
    }
    ImGui::Text("step %.1f ms (stages %.1f ms)", sim.stepMs, stageSum);
    ImGui::Text("%.1f steps/s   %.1f FPS (draw %.1f ms)", app.StepsPerSecond(), app.Fps(), app.DrawMs());
    HelpMarker("draw: the render thread's time issuing a frame (tracer upload, draw calls, this UI), "
               "without waiting for a step, recording or the buffer swap");
    const render::RenderTimings& r = app.RenderTimes();
    ImGui::Text("dye grid %dx%dx%d of %.1f mm", r.grid.size.x, r.grid.size.y, r.grid.size.z, 1000.0 * r.grid.spacing);
    ImGui::Text("rebuilt: splat %.1f, light %.1f, upload %.1f ms", r.splatMs, r.lightMs, r.uploadMs);
    HelpMarker("the dye splatted into its grid, the light and sky swept through it and the textures uploaded; "
               "only on frames with a new step (0 otherwise)");
    bool profile = app.ProfilingGpu();
    if (ImGui::Checkbox("Time the GPU", &profile)) app.SetProfilingGpu(profile);
    HelpMarker("wait for the GPU around the volume or particle pass to time it (a little slower)");
    if (profile && r.particlesMs > 0.0) {
        ImGui::Text("particle pass %.1f ms", r.particlesMs);
    } else if (profile) {
        ImGui::Text("volume pass %.1f ms at %dx%d", r.marchMs, r.marchSize.x, r.marchSize.y);
    }
    const StepHistory& history = sim.stepMsHistory;
    if (!history.Values().empty()) {
        const float highest = *std::max_element(history.Values().begin(), history.Values().end());
        char overlay[48];
        std::snprintf(overlay, sizeof overlay, "ms per step, max %.1f", highest);
        ImGui::PlotLines("##step_ms", history.Values().data(), int(history.Values().size()), history.Offset(),
                         overlay, 0.0f, highest * 1.2f, ImVec2(260.0f, 60.0f));
    }
    ImGui::End();
}

void DrawRecordingIndicator(DemoApp& app) {
    if (!app.IsRecording()) return;
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    const ImVec2 center(size.x - 110.0f, 24.0f);
    draw->AddCircleFilled(center, 8.0f, IM_COL32(230, 40, 40, 255));
    char text[32];
    std::snprintf(text, sizeof text, "REC %d", app.RecordedFrames());
    draw->AddText(ImVec2(center.x + 14.0f, center.y - 8.0f), IM_COL32(255, 255, 255, 255), text);
}

}  // namespace vorton
