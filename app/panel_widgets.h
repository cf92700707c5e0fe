#pragma once
/// \file
/// Dear ImGui widgets the panel's sections share: a parameter from its table entry, its label,
/// a tooltip.

#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include <glm/common.hpp>

#include "sim/params.h"

namespace vorton {

/// A tooltip with `help` while the last item is hovered.
inline void HelpMarker(std::string_view help) {
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
                if (info.unit == "rgb") {
                    changed = ImGui::ColorEdit3(label, &(target.*member).x);
                } else {
                    const float speed = 0.005f * std::max(std::abs(sliderMin), std::abs(sliderMax));
                    changed = ImGui::DragFloat3(label, &(target.*member).x, speed, sliderMin, sliderMax, "%.3g");
                    target.*member = glm::clamp(target.*member, glm::vec3(info.min), glm::vec3(info.max));
                }
            } else if constexpr (std::is_same_v<T, bool>) {
                changed = ImGui::Checkbox(label, &(target.*member));
            } else {
                static_assert(std::is_same_v<T, Solver>, "a ParamInfo member type without a widget");
                // Every solver, by the names --set takes.
                Solver& v = target.*member;
                if (ImGui::BeginCombo(label, SolverName(v).data())) {
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
    HelpMarker(info.help);
    return changed;
}

/// "Label (unit)", or just the label for colours and unitless parameters.
template <typename Struct>
std::string ParamLabel(const ParamInfo<Struct>& info) {
    if (info.unit.empty() || info.unit == "rgb") return std::string(info.label);
    return std::string(info.label) + " (" + std::string(info.unit) + ")";
}

}  // namespace vorton
