#pragma once
/// \file
/// Dear ImGui widgets the panel's sections share: a parameter from its table entry (range, scale
/// and format from app/ui/param_ui.h), its tooltip, and the right-click "reset to scene value".

#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include <glm/common.hpp>

#include "app/ui/param_ui.h"
#include "sim/params.h"

namespace vorton {

/// A tooltip with `help` while the last item is hovered.
inline void HelpMarker(std::string_view help) {
    if (!help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%.*s", int(help.size()), help.data());
}

/// A separator and a dim heading inside a section.
inline void Subheading(const char* text) {
    ImGui::Separator();
    ImGui::TextDisabled("%s", text);
}

/// A right-click menu on the last item with "Reset to scene value". Returns true when chosen.
inline bool ResetMenu(const char* id) {
    bool chosen = false;
    ImGui::PushID(id);
    if (ImGui::BeginPopupContextItem("reset")) {
        chosen = ImGui::MenuItem("Reset to scene value");
        ImGui::EndPopup();
    }
    ImGui::PopID();
    return chosen;
}

/// "Label (unit)", or just the label for colours and unitless parameters.
template <typename Struct>
std::string ParamLabel(const ParamInfo<Struct>& info) {
    if (info.unit.empty() || info.unit == "rgb") return std::string(info.label);
    return std::string(info.label) + " (" + std::string(info.unit) + ")";
}

/// One widget for a parameter, typed by its member pointer, dragging over `range` (typing with
/// Ctrl+click up to the table's [min, max]); colours in 0-1 as in files. With `scene`, a
/// right-click offers its value back. Returns true when edited.
template <typename Struct>
bool ParamWidget(Struct& target, const ParamInfo<Struct>& info, const SliderRange& range,
                 const Struct* scene = nullptr) {
    const std::string label = ParamLabel(info);
    bool changed = false;
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(target.*member)>;
            const ImGuiSliderFlags log = range.logarithmic ? ImGuiSliderFlags_Logarithmic : 0;
            if constexpr (std::is_same_v<T, float>) {
                changed = ImGui::SliderFloat(label.c_str(), &(target.*member), range.min, range.max, range.format, log);
                target.*member = std::clamp(target.*member, info.min, info.max);
            } else if constexpr (std::is_same_v<T, int>) {
                int v = target.*member;
                changed = ImGui::SliderInt(label.c_str(), &v, int(range.min), int(range.max), "%d", log);
                target.*member = std::clamp(v, int(info.min), int(info.max));
            } else if constexpr (std::is_same_v<T, glm::vec3>) {
                if (info.unit == "rgb") {
                    changed = ImGui::ColorEdit3(label.c_str(), &(target.*member).x,
                                                ImGuiColorEditFlags_Float | ImGuiColorEditFlags_NoOptions);
                } else {
                    const float speed = 0.005f * std::max(std::abs(range.min), std::abs(range.max));
                    changed = ImGui::DragFloat3(label.c_str(), &(target.*member).x, speed, range.min, range.max, "%.3g");
                    target.*member = glm::clamp(target.*member, glm::vec3(info.min), glm::vec3(info.max));
                }
            } else if constexpr (std::is_same_v<T, bool>) {
                changed = ImGui::Checkbox(label.c_str(), &(target.*member));
            } else {
                static_assert(std::is_same_v<T, Solver>, "a ParamInfo member type without a widget");
                // Every solver, by the names --set takes.
                Solver& v = target.*member;
                if (ImGui::BeginCombo(label.c_str(), SolverName(v).data())) {
                    for (const Solver s : kSolvers) {
                        if (ImGui::Selectable(SolverName(s).data(), s == v) && s != v) {
                            v = s;
                            changed = true;
                        }
                    }
                    ImGui::EndCombo();
                }
            }
        },
        info.member);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ParamTooltip(info, range).c_str());
    if (scene && ResetMenu(label.c_str())) changed |= ResetToScene(target, *scene, info);
    return changed;
}

}  // namespace vorton
