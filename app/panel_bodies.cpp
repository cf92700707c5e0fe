// The panel's Bodies section: the selected body's plots first, then each body's settings.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <glm/geometric.hpp>

#include "app/demo_app.h"
#include "app/panel.h"
#include "app/panel_widgets.h"
#include "app/ui/add_ball.h"

namespace vorton {

namespace {

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
                     ImVec2(0.0f, Px(56.0f)));
}

void Plots(DemoApp& app) {
    const auto& bodies = app.Snapshot().bodies;
    int& selected = app.SelectedBody();
    if (selected < 0 || std::size_t(selected) >= bodies.size()) selected = 0;
    const auto& histories = app.BodyHistories();
    const BodySpec* spec = app.DrawnBodySpec(std::size_t(selected));
    if (std::size_t(selected) >= histories.size() || !spec) return;
    const BodyHistory& h = histories[std::size_t(selected)];
    const double seconds = double(std::max<std::size_t>(h.height.Values().size(), 1) - 1) * app.Setup().params.dt;
    ImGui::Text("%s over the last %.1f s", spec->name.c_str(), seconds);
    HistoryPlot("height", "height", "m", h.height);
    HistoryPlot("speed", "speed", "m/s", h.speed);
}

/// The state of the body named `name` in the snapshot and its index there, or null (a body
/// added since, which joins at the next step).
std::pair<const BodyState*, int> FrontBody(const DemoApp& app, const std::string& name) {
    const SimSnapshot& front = app.Snapshot();
    for (std::size_t j = 0; j < front.bodies.size(); ++j) {
        const BodySpec* spec = app.DrawnBodySpec(j);
        if (spec && spec->name == name) return {&front.bodies[j], int(j)};
    }
    return {nullptr, -1};
}

/// The scene file's spec of the body named `name`, or null for a body added at run time.
const BodySpec* SceneSpec(const DemoApp& app, const std::string& name) {
    for (const BodySpec& spec : app.CurrentScene().setup.bodies) {
        if (spec.name == name) return &spec;
    }
    return nullptr;
}

void AddRemoveButtons(DemoApp& app, std::optional<std::size_t>& remove) {
    if (ImGui::Button("Add a ball")) app.AddBall();
    HelpMarker("a free ball at the centre of the view (raised clear of the others), like the selected body "
               "in size, density and colour; drag it to throw it, Ctrl+Z takes it back. Balls that touch "
               "bounce off each other and, where they slide, set each other spinning (Fluid: Ball bounce, Ball friction)");
    const int selected = app.SelectedBody();
    if (!app.Setup().bodies.empty() && selected >= 0 && std::size_t(selected) < app.Setup().bodies.size()) {
        ImGui::SameLine();
        if (ImGui::Button("Remove the selected")) remove = std::size_t(selected);
        HelpMarker("takes the selected body out of the running scene; the others keep their motion; "
                   "Ctrl+Z brings it back at its starting place");
    }
}

}  // namespace

void BodiesSection(DemoApp& app) {
    std::vector<BodySpec>& specs = app.Setup().bodies;
    if (!ImGui::CollapsingHeader("Bodies", specs.empty() ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) return;
    std::optional<std::size_t> remove;
    AddRemoveButtons(app, remove);
    if (remove) {
        app.RemoveBody(*remove);
        return;
    }
    if (specs.empty()) return;
    // The scene's point first: where the selected body goes and how fast.
    Plots(app);
    const float ambient = app.Setup().params.ambientDensity;
    int& selected = app.SelectedBody();
    bool edited = false;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        BodySpec& spec = specs[i];
        const auto [state, index] = FrontBody(app, spec.name);
        // Slider ranges around the scene file's values, so they stay put while dragging; a
        // ball added at run time has none (nor a value to offer back): the scene's first
        // body's ranges, or those of the ball "Add a ball" makes in a scene without bodies.
        const BodySpec* sceneSpec = SceneSpec(app, spec.name);
        const std::vector<BodySpec>& sceneBodies = app.CurrentScene().setup.bodies;
        const BodySpec added = sceneBodies.empty() ? NewBall(SceneSetup{}, -1, glm::vec3(0.0f), {}) : sceneBodies[0];
        const BodySpec& reference = sceneSpec ? *sceneSpec : added;
        ImGui::PushID(spec.name.c_str());
        ImGui::Separator();
        if (!state) {
            ImGui::TextDisabled("%s joins at the next step", spec.name.c_str());
            ImGui::PopID();
            continue;
        }
        const BodyState& b = *state;
        ImGui::RadioButton(spec.name.c_str(), &selected, index);
        HelpMarker("plot this body's height and speed above; grabbing a body selects it too");
        // Flags on the name's line, then the sliders and colour.
        for (const auto& info : BodyParamInfos()) {
            if (!info.live || !std::holds_alternative<bool BodySpec::*>(info.member)) continue;
            ImGui::SameLine();
            edited |= ParamWidget(spec, info, SliderRange{}, sceneSpec);
        }
        ImGui::SameLine();
        ImGui::TextDisabled("%s", b.grabbed                                               ? "held by the mouse"
                                     : spec.fixed && spec.oscillationPeriod > 0.0f ? "fixed, oscillating"
                                     : spec.fixed                                   ? "fixed"
                                                                                    : "free");
        for (const auto& info : BodyParamInfos()) {
            // Not position and velocities: they are the state at reset.
            if (!info.live || std::holds_alternative<bool BodySpec::*>(info.member)) continue;
            edited |= ParamWidget(spec, info, BodySlider(info, reference, ambient), sceneSpec);
        }
        const glm::vec3 f = b.NetForce();
        ImGui::Text("height %.3f m   speed %.3f m/s", b.position.z, glm::length(b.velocity));
        ImGui::Text("net force |F| = %.3g N", glm::length(f));
        if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("net (%.3g, %.3g, %.3g) N\nfrom the fluid (%.3g, %.3g, %.3g) N\nweight and buoyancy "
                              "(%.3g, %.3g, %.3g) N",
                              f.x, f.y, f.z, b.fluidForce.x, b.fluidForce.y, b.fluidForce.z, b.weightForce.x,
                              b.weightForce.y, b.weightForce.z);
        }
        ImGui::Text("fluid around it %.1f kg/m^3 (ambient %.0f)", b.fluidDensity, ambient);
        ImGui::PopID();
    }
    if (edited) app.SetupEdited();
    ImGui::TextDisabled("Left drag a sphere to move or throw it; wheel: push/pull.");
}

}  // namespace vorton
