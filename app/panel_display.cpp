// The panel's Display section: the look (issue 13) and the overlays.
#include <imgui.h>

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
    if (!ImGui::CollapsingHeader("Display")) return;
    ImGui::Checkbox("Vortons (V)", &v.showVortons);
    ImGui::SameLine();
    ImGui::Checkbox("Bounds (B)", &v.showBounds);
    ImGui::SameLine();
    ImGui::Checkbox("Follow dye (F)", &v.followDye);
    ImGui::Checkbox("Timings (T)", &v.showTimings);
    DisplaySettings& d = v.display;
    const bool particles = d.dye == 1;
    for (const DisplayChoice& choice : DisplayChoices()) {
        if (particles && choice.key == "quality") continue;
        ChoiceWidget(d, choice);
    }
    for (const auto& info : DisplayParamInfos()) {
        // Each mode's own settings only.
        const bool particleKey = info.key.starts_with("tracer_");
        const bool volumeKey = info.key.starts_with("dye_") || info.key == "half_resolution";
        if ((particles && volumeKey) || (!particles && particleKey)) continue;
        const bool narrowed = info.sliderMin != 0.0f || info.sliderMax != 0.0f;
        ParamWidget(d, info, ParamLabel(info).c_str(), narrowed ? info.sliderMin : info.min,
                    narrowed ? info.sliderMax : info.max);
    }
    ImGui::TextDisabled("Mouse: left orbit or grab a sphere, right/middle pan, wheel zoom.");
    ImGui::TextDisabled("H hides this panel, T the timings.");
}

}  // namespace vorton
