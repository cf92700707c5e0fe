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

#include "app/demo_app.h"
#include "app/panel_widgets.h"

namespace vorton {

namespace {

constexpr float kDegrees = 180.0f / std::numbers::pi_v<float>;

/// Gravity as magnitude and direction (tilt from straight down, azimuth); a right-click on
/// any of them gives the scene's gravity back. Returns true when edited.
bool GravityWidget(SimParams& p, const SimParams& scene) {
    float magnitude = glm::length(p.gravity);
    glm::vec3 dir = magnitude > 0.0f ? p.gravity / magnitude : glm::vec3(0.0f, 0.0f, -1.0f);
    float tilt = std::acos(std::clamp(-dir.z, -1.0f, 1.0f)) * kDegrees;
    float azimuth = std::atan2(dir.y, dir.x) * kDegrees;
    bool reset = false;
    bool changed = ImGui::SliderFloat("Gravity (m/s^2)", &magnitude, 0.0f, 30.0f, "%.2f");
    HelpMarker("magnitude of g; 9.81 on Earth\nunit: m/s^2; slider 0 to 30\nright-click: reset to the scene's value");
    reset |= ResetMenu("gravity");
    changed |= ImGui::SliderFloat("Tilt from down (deg)", &tilt, 0.0f, 180.0f, "%.0f");
    HelpMarker("0: gravity points down (-z); 180: up");
    reset |= ResetMenu("tilt");
    changed |= ImGui::SliderFloat("Azimuth (deg)", &azimuth, -180.0f, 180.0f, "%.0f");
    reset |= ResetMenu("azimuth");
    if (changed) {
        const float t = tilt / kDegrees, a = azimuth / kDegrees;
        p.gravity = magnitude * glm::vec3(std::sin(t) * std::cos(a), std::sin(t) * std::sin(a), -std::cos(t));
    }
    if (reset) p.gravity = scene.gravity;
    return changed || reset;
}

/// The parameters of SimParams the table places in `panel`, live ones or those applied on
/// reset, each with its table label and slider range (the gravity vector as magnitude and
/// direction). Only those that apply: the treecode's opening angle where the tree may run,
/// the wake length where `setup` has bodies; the ambient density's slider fitted to its free
/// bodies (AmbientDensitySlider). Returns true when one was edited.
bool SimParamWidgets(SimParams& p, const SimParams& scene, ParamInfo<SimParams>::Panel panel, bool live,
                     const SceneSetup& setup) {
    const bool bodies = !setup.bodies.empty();
    bool edited = false;
    const bool treeInUse = p.solver == Solver::Tree || p.solver == Solver::Auto;
    for (const auto& info : SimParamInfos()) {
        if (info.panel != panel || info.live != live) continue;
        const auto* real = std::get_if<float SimParams::*>(&info.member);
        if (!treeInUse && real && *real == &SimParams::treeTheta) continue;
        if (!bodies && real && *real == &SimParams::wakeLength) continue;
        if (real && *real == &SimParams::ambientDensity) {
            edited |= ParamWidget(p, info, AmbientDensitySlider(info, setup, scene.ambientDensity), &scene);
            continue;
        }
        if (const auto* vec = std::get_if<glm::vec3 SimParams::*>(&info.member); vec && *vec == &SimParams::gravity) {
            edited |= GravityWidget(p, scene);
            continue;
        }
        const auto* integer = std::get_if<int SimParams::*>(&info.member);
        if (bodies && p.bodySheet && integer && *integer == &SimParams::remeshEvery) {
            // Bodies that make their own vorticity need remeshing (SetupProblem refuses 0).
            ParamInfo<SimParams> atLeastOne = info;
            atLeastOne.min = std::max(1.0f, info.min);
            atLeastOne.sliderMin = std::max(1.0f, info.sliderMin);
            const int before = p.remeshEvery;
            p.remeshEvery = std::max(p.remeshEvery, 1);
            edited |= ParamWidget(p, atLeastOne, TableSlider(atLeastOne), &scene) || p.remeshEvery != before;
            continue;
        }
        edited |= ParamWidget(p, info, TableSlider(info), &scene);
    }
    return edited;
}

/// Undo, redo and the scene's values back, on one line.
void EditButtons(DemoApp& app) {
    ImGui::BeginDisabled(!app.CanUndo());
    if (ImGui::Button("Undo")) app.Undo();
    ImGui::EndDisabled();
    HelpMarker("undo the last edit (Ctrl+Z)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!app.CanRedo());
    if (ImGui::Button("Redo")) app.Redo();
    ImGui::EndDisabled();
    HelpMarker("redo (Ctrl+Y)");
    ImGui::SameLine();
    if (ImGui::Button("Restore scene defaults")) app.RestoreSceneDefaults();
    HelpMarker("every parameter, group, body and display setting back to the scene file's value (undoable)");
}

/// The rewind timeline: drag back over the kept states and let go to resume from there.
void Timeline(DemoApp& app) {
    const SimSnapshot& sim = app.Snapshot();
    if (!sim.rewindUnavailable.empty()) {
        ImGui::TextDisabled("Rewind: %s", sim.rewindUnavailable.c_str());
        return;
    }
    if (sim.rewindTimes.empty()) return;
    const float oldest = float(sim.rewindTimes.front()), now = float(sim.time);
    float& scrub = app.RewindScrub();
    static bool held = false;  // the slider is being dragged (there is one panel)
    if (!held) scrub = now;
    ImGui::SliderFloat("Rewind", &scrub, oldest, std::max(now, oldest + 1e-3f), "t = %.2f s");
    held = ImGui::IsItemActive();
    if (ImGui::IsItemDeactivatedAfterEdit()) app.RequestRewind(double(scrub));
    HelpMarker("drag back in time and let go: the run goes on from the newest kept state at or before it (edits "
               "then start a new branch). The last 10 s are kept within 256 MB, every few steps when states are "
               "large");
    ImGui::TextDisabled("%zu states, %.0f of %.0f MB, from t = %.2f s", sim.rewindTimes.size(),
                        double(sim.rewindBytes) / 1048576.0, double(sim.rewindBudget) / 1048576.0, double(oldest));
}

void SceneSection(DemoApp& app) {
    if (!ImGui::CollapsingHeader("Scene and playback", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::TextWrapped("%s", app.CurrentScene().name.c_str());
    if (!app.CurrentScene().description.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        ImGui::TextWrapped("%s", app.CurrentScene().description.c_str());
        ImGui::PopStyleColor();
    }
    if (ImGui::Button("Camera (C)")) app.ResetCamera();
    HelpMarker("back to the scene's view, framing the dye and bodies");
    ImGui::SameLine();
    ImGui::Checkbox("Follow (F)", &app.View().followDye);
    HelpMarker("the camera keeps the dye and bodies framed as they move; bodies far apart: the selected one and those near it");
    EditButtons(app);
    Timeline(app);
}

void PhysicsSection(DemoApp& app) {
    // Open at first where there are no bodies; with bodies, their plots come first into view.
    const ImGuiTreeNodeFlags open = app.CurrentScene().setup.bodies.empty() ? ImGuiTreeNodeFlags_DefaultOpen : 0;
    if (!ImGui::CollapsingHeader("Physics", open)) return;
    SimParams& p = app.Setup().params;
    const SceneSetup& scene = app.CurrentScene().setup;
    using Panel = ParamInfo<SimParams>::Panel;
    bool edited = SimParamWidgets(p, scene.params, Panel::Fluid, true, app.Setup());
    for (std::size_t i = 0; i < app.Setup().groups.size(); ++i) {
        DensityGroup& g = app.Setup().groups[i];
        const DensityGroup& sceneGroup = i < scene.groups.size() ? scene.groups[i] : g;
        ImGui::PushID(g.name.c_str());
        Subheading(g.name.c_str());
        for (const auto& info : GroupParamInfos()) {
            if (!info.live) continue;  // the shape: applied on reset, from the scene file or --set
            // Dye released by a body only where there is a body.
            if (info.key == "release_beyond" && (app.Setup().bodies.empty() || g.releaseBeyond <= 0.0f)) continue;
            edited |= ParamWidget(g, info, GroupSlider(info, sceneGroup, p.ambientDensity), &sceneGroup);
        }
        ImGui::PopID();
    }
    if (edited) app.SetupEdited();
}

/// The last step's Lagrangian CFL number, orange past the point where a step remeshes at once.
void LagrangianCflLine(const SimSnapshot& sim) {
    const bool high = sim.lagrangianCfl > double(Simulation::kRemeshStretchCourant);
    const ImVec4 colour = high ? ImVec4(1.0f, 0.6f, 0.2f, 1.0f) : ImGui::GetStyleColorVec4(ImGuiCol_Text);
    ImGui::TextColored(colour, "Lagrangian CFL %.2f%s", sim.lagrangianCfl, high ? " (remeshed at once)" : "");
    HelpMarker("dt times the fastest stretching rate |(w.grad)u|/|w| of the vortons away from the bodies: how "
               "far one step strains the flow. Past 1 the particles are distorted before the next remesh, so the "
               "step remeshes at once, off the remesh_every cadence (Koumoutsakos 1997; Cottet & Koumoutsakos "
               "2000, ch. 7); if it stays high, a smaller dt follows the flow better");
}

void InternalsSection(DemoApp& app) {
    if (!ImGui::CollapsingHeader("Simulation internals")) return;
    const SimSnapshot& sim = app.Snapshot();
    ImGui::Text("t = %.2f s   step %lld   %.1f FPS", sim.time, static_cast<long long>(sim.stepCount), app.Fps());
    ImGui::Text("%zu vortons, %zu tracers%s", sim.vortonCount, sim.tracerPositions.size(),
                sim.tracersOnGpu ? " (moved on the GPU)" : "");
    if (sim.spacing > 0.0f) {
        const ImVec4 colour = sim.latticeNotice.empty() ? ImGui::GetStyleColorVec4(ImGuiCol_Text)
                                                        : ImVec4(1.0f, 0.75f, 0.3f, 1.0f);
        if (!app.Setup().bodies.empty()) {
            ImGui::TextColored(colour, "lattice h %.1f mm, R/h %.1f", 1000.0 * sim.spacing,
                               double(app.Setup().bodies[0].radius / sim.spacing));
        } else {
            ImGui::TextColored(colour, "lattice h %.1f mm", 1000.0 * sim.spacing);
        }
        HelpMarker(sim.latticeNotice.empty()
                       ? std::string_view("the vortons' spacing, as seeded (R/h: the first body's radius over it)")
                       : std::string_view(sim.latticeNotice));
    }
    if (app.GpuTracersAvailable()) {
        ImGui::Checkbox("Tracers on the GPU", &app.UseGpuTracers());
        HelpMarker("move the dye tracers with a compute shader, on the velocity grids the simulation computes "
                   "anyway, by the same arithmetic as the CPU (the same picture); the CPU keeps them when the "
                   "scene emits or releases dye, when coloured by speed, and with --stats or --dump outputs");
    }
    ImGui::Text("sim %.1f ms/step, %.1f steps/s", sim.stepMs, app.StepsPerSecond());
    SubstepNote(sim);
    LagrangianCflLine(sim);
    ImGui::Checkbox("Timings (T)", &app.View().showTimings);
    HelpMarker("a window with the time of each stage of a step, ms per step over time, steps/s and FPS");
    ImGui::SameLine();
    ImGui::Checkbox("Diagnostics (D)", &app.View().showDiagnostics);
    HelpMarker("a window with the circulation, impulse, kinetic energy, enstrophy and counts over time, and the "
               "closed forms (impulse law, ring speed, terminal velocity, drag and shedding in a stream) measured "
               "against the run");
    SimParams& p = app.Setup().params;
    const SimParams& scene = app.CurrentScene().setup.params;
    using Panel = ParamInfo<SimParams>::Panel;
    bool edited = SimParamWidgets(p, scene, Panel::Solver, true, app.Setup());
    int threads = app.Threads();
    // Up to the hardware threads: more only adds waiting (results are the same anyway).
    const int maxThreads = MaxPanelThreads();
    if (maxThreads > 1 && ImGui::SliderInt("Threads", &threads, 1, maxThreads)) app.SetThreads(threads);
    HelpMarker("worker threads of the simulation, applied at the next step; results are identical for any count");
    Subheading("Applied on Reset");
    edited |= SimParamWidgets(p, scene, Panel::Solver, false, app.Setup());
    if (edited) app.SetupEdited();
}

}  // namespace

void SubstepNote(const SimSnapshot& sim) {
    if (sim.substeps <= 1) return;
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "%d substeps (a fast ball)", sim.substeps);
    HelpMarker("a body or its wake crosses more than 2 vorton spacings per step (a ball thrown hard): each step is "
               "taken in substeps of at most one spacing until they slow, and costs as many times more");
}

void DrawPanel(DemoApp& app) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = Px(kToolbarHeight + 10.0f);
    const float width = Px(kPanelWidth);
    const float height = std::max(Px(200.0f), display.y - top - Px(10.0f));
    // Fixed width (sections opening do not move it), as tall as the window; it scrolls.
    ImGui::SetNextWindowPos(ImVec2(Px(10.0f), top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, Px(200.0f)), ImVec2(width, height));
    ImGui::Begin("Vorton fluid", &app.View().showPanel, ImGuiWindowFlags_NoCollapse);
    // Where the panel ends, for the camera to centre the view in the rest of the window.
    if (display.x > 0.0f) app.SetPanelShare((ImGui::GetWindowPos().x + ImGui::GetWindowWidth()) / display.x);
    ImGui::PushItemWidth(-Px(215.0f));  // room for the labels
    if (!app.BlowUp().empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s", app.BlowUp().c_str());
        ImGui::PopTextWrapPos();
    }
    if (!app.StatusMessage().empty()) {
        const ImVec4 color = app.StatusIsError() ? ImVec4(1.0f, 0.45f, 0.35f, 1.0f) : ImVec4(0.6f, 0.85f, 0.6f, 1.0f);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(color, "%s", app.StatusMessage().c_str());
        ImGui::PopTextWrapPos();
    }
    SceneSection(app);
    DisplaySection(app);
    PhysicsSection(app);
    PaintSection(app);
    BodiesSection(app);
    CaptureSection(app);
    InternalsSection(app);
    ImGui::PopItemWidth();
    ImGui::End();
}

void DrawTimings(DemoApp& app) {
    const SimSnapshot& sim = app.Snapshot();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    // Top right, below the REC indicator.
    ImGui::SetNextWindowPos(ImVec2(display.x - Px(10.0f), Px(44.0f)), ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
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
            ImGui::ProgressBar(share, ImVec2(Px(90.0f), ImGui::GetTextLineHeight()), "");
        }
        ImGui::EndTable();
    }
    ImGui::Text("step %.1f ms (stages %.1f ms)", sim.stepMs, stageSum);
    SubstepNote(sim);
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
                         overlay, 0.0f, highest * 1.2f, ImVec2(Px(260.0f), Px(60.0f)));
    }
    ImGui::End();
}

void DrawRecordingIndicator(DemoApp& app) {
    if (!app.IsRecording()) return;
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    const ImVec2 center(size.x - Px(110.0f), Px(24.0f));
    draw->AddCircleFilled(center, Px(8.0f), IM_COL32(230, 40, 40, 255));
    char text[32];
    std::snprintf(text, sizeof text, "REC %d", app.RecordedFrames());
    draw->AddText(ImVec2(center.x + Px(14.0f), center.y - 0.5f * ImGui::GetFontSize()), IM_COL32(255, 255, 255, 255), text);
}

}  // namespace vorton
