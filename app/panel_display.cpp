// The panel's Display section: the look (issue 13) and the overlays.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/demo_app.h"
#include "app/panel.h"
#include "app/panel_widgets.h"

namespace vorton {

namespace {

/// A combo over a display choice's names. Returns true when changed.
bool ChoiceWidget(DisplaySettings& d, const DisplayChoice& choice) {
    int& value = d.*choice.member;
    bool changed = false;
    const std::string label(choice.label);
    if (ImGui::BeginCombo(label.c_str(), choice.names[std::size_t(value)].data())) {
        for (std::size_t i = 0; i < choice.names.size(); ++i) {
            if (ImGui::Selectable(choice.names[i].data(), int(i) == value) && int(i) != value) {
                value = int(i);
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    HelpMarker(choice.help);
    return changed;
}

}  // namespace

void DisplaySection(DemoApp& app) {
    ViewSettings& v = app.View();
    if (!ImGui::CollapsingHeader("Look")) return;
    ImGui::Checkbox("Vortons (V)", &v.showVortons);
    ImGui::SameLine();
    ImGui::Checkbox("Bounds (B)", &v.showBounds);
    DisplaySettings& d = v.display;
    const DisplaySettings& scene = app.CurrentScene().display;
    const bool particles = d.dye == 1;
    for (const DisplayChoice& choice : DisplayChoices()) {
        if (particles && choice.key == "quality") continue;
        ChoiceWidget(d, choice);
        if (ResetMenu(std::string(choice.key).c_str())) d.*choice.member = scene.*choice.member;
    }
    const ColourField colour = ColourField(d.colour);
    for (const auto& info : DisplayParamInfos()) {
        // Each mode's own settings only, and a colour range only for the field that uses it.
        const bool particleKey = info.key.starts_with("tracer_");
        const bool volumeKey = info.key.starts_with("dye_") || info.key == "half_resolution";
        if ((particles && volumeKey) || (!particles && particleKey)) continue;
        if (info.key == "speed_max" && colour != ColourField::Speed) continue;
        if (info.key == "density_max" && colour != ColourField::Density) continue;
        if ((info.key == "floor_depth" || info.key == "floor_recedes") && !d.floor) continue;
        ParamWidget(d, info, TableSlider(info), &scene);
    }
}

void DrawLegend(DemoApp& app) {
    const FieldColours::Legend& legend = app.Colours().CurrentLegend();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x - Px(10.0f), display.y - Px(10.0f)), ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                   ImGuiWindowFlags_NoInputs;
    if (!ImGui::Begin("Legend", nullptr, flags)) {
        ImGui::End();
        return;
    }
    ImGui::TextUnformatted(legend.name.c_str());
    // The colour map in 32 slices, low on the left.
    constexpr int kSlices = 32;
    const ImVec2 size(Px(240.0f), Px(14.0f));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int i = 0; i < kSlices; ++i) {
        const float t = (float(i) + 0.5f) / kSlices;
        const glm::vec3 c = legend.diverging ? BlueWhiteRed(t) : Viridis(t);
        const float x0 = at.x + size.x * float(i) / kSlices, x1 = at.x + size.x * float(i + 1) / kSlices;
        draw->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1, at.y + size.y), ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, 1.0f)));
    }
    ImGui::Dummy(size);
    ImGui::Text("%.3g", legend.low);
    char high[32];
    std::snprintf(high, sizeof high, "%.3g", legend.high);
    ImGui::SameLine(size.x - ImGui::CalcTextSize(high).x + ImGui::GetStyle().WindowPadding.x);
    ImGui::TextUnformatted(high);
    ImGui::End();
}

}  // namespace vorton
