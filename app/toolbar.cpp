// What a first launch shows (issue 14, item 1): the toolbar, the mouse hint, the F1 help.
#include "app/panel.h"

#include <imgui.h>

#include <cctype>
#include <cstdio>
#include <string>

#include "app/demo_app.h"
#include "app/panel_widgets.h"

namespace vorton {

namespace {

/// "stratified_ball" as "Stratified ball".
std::string PrettyName(const std::string& name) {
    std::string pretty = name;
    for (char& c : pretty) {
        if (c == '_') c = ' ';
    }
    if (!pretty.empty()) pretty[0] = char(std::toupper(static_cast<unsigned char>(pretty[0])));
    return pretty;
}

/// The scene picker: each scene's name and, under it, its description.
void ScenePicker(DemoApp& app) {
    const std::string& current = app.CurrentScene().name;
    ImGui::SetNextItemWidth(Px(190.0f));
    // The list is wider than the combo, so descriptions wrap less.
    ImGui::SetNextWindowSizeConstraints(ImVec2(Px(460.0f), 0.0f), ImVec2(Px(460.0f), Px(560.0f)));
    if (ImGui::BeginCombo("##scene", PrettyName(current).c_str())) {
        const auto& names = app.SceneNames();
        const auto& descriptions = app.SceneDescriptions();
        for (std::size_t i = 0; i < names.size(); ++i) {
            ImGui::PushID(int(i));
            if (ImGui::Selectable(PrettyName(names[i]).c_str(), names[i] == current)) app.RequestScene(names[i]);
            if (i < descriptions.size() && !descriptions[i].empty()) {
                ImGui::Indent();
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
                ImGui::TextWrapped("%s", descriptions[i].c_str());
                ImGui::PopStyleColor();
                ImGui::Unindent();
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    if (!app.CurrentScene().description.empty()) HelpMarker(app.CurrentScene().description);
}

}  // namespace

void DrawToolbar(DemoApp& app) {
    ImGui::SetNextWindowPos(ImVec2(Px(10.0f), Px(6.0f)), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.8f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    ImGui::Begin("Toolbar", nullptr, flags);
    ScenePicker(app);
    ImGui::SameLine();
    if (ImGui::Button(app.Paused() ? " Run " : "Pause")) app.Paused() = !app.Paused();
    HelpMarker(app.Paused() ? "run the simulation (Space)" : "pause the simulation (Space)");
    ImGui::SameLine();
    if (ImGui::Button("Step")) app.RequestStep();
    HelpMarker("one step (N)");
    ImGui::SameLine();
    if (ImGui::Button("Reset")) app.RequestReset();
    HelpMarker("back to the scene's start, with the settings applied on reset (R)");
    ImGui::SameLine();
    const bool recording = app.IsRecording();
    ImGui::PushStyleColor(ImGuiCol_Button, recording ? ImVec4(0.75f, 0.15f, 0.15f, 1.0f) : ImVec4(0.45f, 0.12f, 0.12f, 1.0f));
    if (ImGui::Button(recording ? "Stop" : "Rec")) app.ToggleNamedRecording();
    ImGui::PopStyleColor();
    HelpMarker(recording ? "stop recording" : "record a video named after the scene and the time (format and folder in More > Capture)");
    ImGui::SameLine();
    ImGui::BeginDisabled(recording);
    if (ImGui::Button("10 s clip")) app.ToggleNamedRecording(10.0);
    ImGui::EndDisabled();
    HelpMarker("record 10 s of simulated time (as many of video) and stop");
    ImGui::SameLine();
    if (ImGui::Button(app.View().showPanel ? "Less" : "More")) app.View().showPanel = !app.View().showPanel;
    HelpMarker("the full panel: look, physics, bodies, capture, internals (M)");
    ImGui::SameLine();
    // How the simulation keeps up: simulated seconds per wall-clock second.
    const SimSnapshot& sim = app.Snapshot();
    ImGui::Text("t %.2f s", sim.time);
    ImGui::SameLine();
    const double factor = app.RealTimeFactor();
    if (app.Paused()) {
        ImGui::TextDisabled("paused");
    } else if (factor > 0.0) {
        const bool slow = factor < 0.95;
        const ImVec4 colour = slow ? ImVec4(1.0f, 0.7f, 0.3f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f);
        ImGui::TextColored(colour, slow ? "%.2fx real time (slower)" : "%.2fx real time", factor);
    }
    HelpMarker("simulated seconds per wall-clock second, over the last 0.5-3 s; below 1 the fluid moves in slow "
               "motion (fewer vortons or tracers, or a larger time step, speed it up)");
    if (sim.substeps > 1) {
        ImGui::SameLine();
        SubstepNote(sim);
    }
    if (app.ClipFramesLeft() > 0) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "clip: %d frames to go", app.ClipFramesLeft());
    }
    ImGui::End();
}

void DrawMouseHint(DemoApp& app) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    char paintHint[160];
    std::snprintf(paintHint, sizeof paintHint,
                  "Paint mode (I): left drag releases dye   Wheel: blob radius %.3f m   Right drag: pan   F1: help",
                  double(app.View().paint.radius));
    const char* hint = app.View().paintMode
                           ? paintHint
                           : "Left drag: orbit, or grab and throw a sphere   Right drag: pan   Wheel: zoom   F1: help";
    const ImVec2 size = ImGui::CalcTextSize(hint);
    const ImVec2 at((display.x - size.x) * 0.5f, display.y - size.y - Px(10.0f));
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    draw->AddRectFilled(ImVec2(at.x - Px(8.0f), at.y - Px(4.0f)), ImVec2(at.x + size.x + Px(8.0f), at.y + size.y + Px(4.0f)),
                        IM_COL32(0, 0, 0, 110), Px(4.0f));
    draw->AddText(at, IM_COL32(230, 230, 230, 220), hint);
}

void DrawHelp(DemoApp& app) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.92f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse;
    if (!ImGui::Begin("Help (F1 closes)", &app.View().showHelp, flags)) {
        ImGui::End();
        return;
    }
    static constexpr const char* kRows[][2] = {
        {"Left drag", "orbit the camera; on a sphere: grab it, move it, let go to throw it"},
        {"Wheel", "zoom; while holding a sphere: push it away or pull it closer"},
        {"Right / middle drag", "pan"},
        {"Space", "run / pause"},
        {"N", "one step"},
        {"R", "reset the scene (applies settings marked 'on reset')"},
        {"C", "reset the camera"},
        {"F", "follow the dye and bodies"},
        {"V / B", "show the vortons / the bounds"},
        {"M", "the full panel (More)"},
        {"H", "hide or show all of the interface"},
        {"T", "the timings window"},
        {"D", "the diagnostics dock: invariants, counts, closed-form checks"},
        {"I", "paint mode: left drag releases blobs of dye (More > Paint: deviation, colour, radius)"},
        {"P or F12", "screenshot"},
        {"Ctrl+Z / Ctrl+Y", "undo / redo a panel edit"},
        {"Right-click a control", "reset it to the scene's value"},
        {"Ctrl+click a slider", "type a value, also beyond the slider's range"},
        {"F1", "this help"},
        {"Esc", "quit"},
    };
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const auto& row : kRows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ImVec4(0.95f, 0.85f, 0.5f, 1.0f), "%s", row[0]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row[1]);
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

void DrawGrabFeedback(DemoApp& app) {
    if (app.GrabbedBody() < 0 || !app.Paused()) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const char* text = "paused: the sphere goes here when you run (Space)";
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const ImVec2 size = ImGui::CalcTextSize(text);
    const ImVec2 at(mouse.x + Px(18.0f), mouse.y + Px(10.0f));
    draw->AddRectFilled(ImVec2(at.x - Px(6.0f), at.y - Px(3.0f)), ImVec2(at.x + size.x + Px(6.0f), at.y + size.y + Px(3.0f)),
                        IM_COL32(20, 20, 20, 200), Px(4.0f));
    draw->AddText(at, IM_COL32(255, 210, 120, 255), text);
}

}  // namespace vorton
