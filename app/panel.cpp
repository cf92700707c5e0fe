#include "app/panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include <glm/geometric.hpp>

#include "app/demo_app.h"

namespace vorton {

namespace {

constexpr float kDegrees = 180.0f / std::numbers::pi_v<float>;

void HelpMarker(std::string_view help) {
    if (!help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%.*s", int(help.size()), help.data());
}

/// One widget for a parameter, typed by its member pointer. Returns true when edited.
template <typename Struct>
bool ParamWidget(Struct& target, const ParamInfo<Struct>& info, const char* label, float sliderMin, float sliderMax) {
    bool changed = false;
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(target.*member)>;
            if constexpr (std::is_same_v<T, float>) {
                const ImGuiSliderFlags flags = info.logScale && sliderMin > 0.0f ? ImGuiSliderFlags_Logarithmic : 0;
                changed = ImGui::SliderFloat(label, &(target.*member), sliderMin, sliderMax, "%.4g", flags);
                target.*member = std::clamp(target.*member, info.min, info.max);
            } else if constexpr (std::is_same_v<T, int>) {
                int v = target.*member;
                const ImGuiSliderFlags flags = info.logScale ? ImGuiSliderFlags_Logarithmic : 0;
                changed = ImGui::SliderInt(label, &v, int(sliderMin), int(sliderMax), "%d", flags);
                target.*member = std::clamp(v, int(info.min), int(info.max));
            } else if constexpr (std::is_same_v<T, glm::vec3>) {
                changed = ImGui::ColorEdit3(label, &(target.*member).x);
            } else {
                int v = int(target.*member);
                const char* names[] = {"direct", "tree"};
                changed = ImGui::Combo(label, &v, names, 2);
                target.*member = Solver(v);
            }
        },
        info.member);
    HelpMarker(info.help);
    return changed;
}

const ParamInfo<SimParams>* FindInfo(std::string_view key) {
    for (const auto& info : SimParamInfos()) {
        if (info.key == key) return &info;
    }
    return nullptr;
}

/// Gravity as magnitude and direction (tilt from straight down, azimuth).
void GravityWidget(SimParams& p) {
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
    const Simulation& sim = app.Sim();
    ImGui::Text("t = %.2f s   step %lld   %.1f FPS", sim.Time(), static_cast<long long>(sim.StepCount()), app.Fps());
    ImGui::Text("%zu vortons, %zu tracers, %d threads", sim.GetVortons().Size(), sim.GetTracers().Size(),
                app.Threads());
    ImGui::Text("sim %.1f ms/step", sim.LastStepMs());
    const auto& history = app.StepMsHistory();
    if (!history.empty()) {
        ImGui::PlotLines("##ms", history.data(), int(history.size()), 0, "ms per step", 0.0f,
                         *std::max_element(history.begin(), history.end()) * 1.2f, ImVec2(0.0f, 40.0f));
    }
    if (ImGui::TreeNode("Stage timings")) {
        for (int s = 0; s < kStageCount; ++s) {
            const std::string_view name = StageName(Stage(s));
            ImGui::Text("%-14.*s %7.2f ms", int(name.size()), name.data(), sim.LastStageTimes()[std::size_t(s)]);
        }
        ImGui::TreePop();
    }
}

void FluidSection(DemoApp& app) {
    SimParams& p = app.Sim().Params();
    if (!ImGui::CollapsingHeader("Fluid", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ParamWidget(p, *FindInfo("ambient_density"), "Ambient density (kg/m^3)", 10.0f, 1.0e4f);
    GravityWidget(p);
    ParamWidget(p, *FindInfo("viscosity"), "Viscosity (m^2/s)", 0.0f, 1.0e-3f);
    ImGui::Separator();
    for (DensityGroup& g : app.Sim().Setup().groups) {
        ImGui::PushID(g.name.c_str());
        ImGui::TextUnformatted(g.name.c_str());
        for (const auto& info : GroupParamInfos()) {
            const std::string label = std::string(info.label) + (info.unit == "rgb" ? "" : " (" + std::string(info.unit) + ")");
            // A useful slider range: a few times the scene's own magnitude.
            const float span = std::max(100.0f, 4.0f * std::abs(g.densityDeviation));
            ParamWidget(g, info, label.c_str(), -span, span);
        }
        ImGui::PopID();
    }
}

void SolverSection(DemoApp& app) {
    SimParams& p = app.Sim().Params();
    if (!ImGui::CollapsingHeader("Solver")) return;
    ParamWidget(p, *FindInfo("dt"), "Time step (s)", 0.001f, 0.05f);
    ParamWidget(p, *FindInfo("solver"), "Solver", 0.0f, 1.0f);
    ParamWidget(p, *FindInfo("tree_theta"), "Opening angle", 0.1f, 1.0f);
    ParamWidget(p, *FindInfo("velocity_grid_cells"), "Velocity grid cells", 1000.0f, 262144.0f);
    int threads = app.Threads();
    if (ImGui::SliderInt("Threads", &threads, 1, 64)) app.SetThreads(threads);
    HelpMarker("worker threads of the simulation; results are identical for any count");
    ImGui::TextDisabled("Applied on Reset:");
    ParamWidget(p, *FindInfo("vorton_count"), "Vortons", 100.0f, 200000.0f);
    ParamWidget(p, *FindInfo("tracer_count"), "Tracers", 1000.0f, 4000000.0f);
}

void DisplaySection(DemoApp& app) {
    ViewSettings& v = app.View();
    if (!ImGui::CollapsingHeader("Display")) return;
    ImGui::Checkbox("Vortons (V)", &v.showVortons);
    ImGui::SameLine();
    ImGui::Checkbox("Bounds (B)", &v.showBounds);
    ImGui::SameLine();
    ImGui::Checkbox("Follow dye (F)", &v.followDye);
    ImGui::SliderFloat("Tracer size (m)", &v.tracerSize, 0.001f, 0.03f, "%.4f", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("Tracer opacity", &v.tracerOpacity, 0.02f, 1.0f, "%.2f");
    ImGui::TextDisabled("Mouse: left orbit, right/middle pan, wheel zoom. H hides this panel.");
}

void RecordingSection(DemoApp& app) {
    auto& path = app.View().recordPath;
    if (path[0] == '\0') std::snprintf(path.data(), path.size(), "vorton_%s.mp4", app.CurrentScene().name.c_str());
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
    SceneSection(app);
    if (!app.BlowUp().empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s", app.BlowUp().c_str());
    StatsSection(app);
    FluidSection(app);
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
