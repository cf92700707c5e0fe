#pragma once
/// \file
/// What the panel's parameter widgets take from the parameter tables (sim/params.h,
/// scene/display_settings.h), without ImGui, so it can be tested: each slider's range, scale and
/// format, the tooltip with unit and ranges, and resetting one field to the scene's value.

#include <string>
#include <string_view>
#include <variant>

#include "scene/scene.h"
#include "sim/params.h"

namespace vorton {

/// A slider: the dragged range (typing with Ctrl+click goes beyond it, up to the table's
/// [min, max]), logarithmic or linear, and its printf format.
struct SliderRange {
    float min = 0.0f;
    float max = 1.0f;
    bool logarithmic = false;
    const char* format = "%.4g";
};

/// The table's own slider range: [sliderMin, sliderMax] when the table narrows it, else
/// [min, max]; logarithmic when the table says so and the range is positive.
template <typename Struct>
SliderRange TableSlider(const ParamInfo<Struct>& info) {
    const bool narrowed = info.sliderMin != 0.0f || info.sliderMax != 0.0f;
    SliderRange r;
    r.min = narrowed ? info.sliderMin : info.min;
    r.max = narrowed ? info.sliderMax : info.max;
    r.logarithmic = info.logScale && r.min > 0.0f;
    if (std::holds_alternative<int Struct::*>(info.member)) r.format = "%d";
    return r;
}

/// A body's slider, fitted to the physics around the scene's value `scene` and the ambient
/// density rho0 (kg/m³): density linear over [0.5 rho0, 3 rho0] (a sphere that rises, floats or
/// sinks; the whole ±2 % around neutral is ~40 px wide, not 1), widened to hold the scene's own
/// value; radius linear over [R/4, 4 R]; others TableSlider(). Within the table's [min, max].
SliderRange BodySlider(const ParamInfo<BodySpec>& info, const BodySpec& scene, float ambientDensity);

/// The ambient density's slider where there are free bodies: linear over the densities at
/// which each free body is between 0.5 and 3 times the fluid's, [max ρ_b/3, min 2ρ_b] (the
/// range BodySlider gives a body's density about ρ₀; ordered when the bodies' densities are
/// too far apart for both), and above the most negative group deviation over 0.9 (the fluid's
/// density stays positive, as GroupSlider keeps it), widened to hold the scene's value
/// `scene` (kg/m³). Without free bodies TableSlider(). Within the table's [min, max]. In
/// falling_ball (a 1,200 kg/m³ ball) [400, 2,400]: at 10 kg/m³, the table slider's end, the
/// ball fell past what its wall model follows within a second (Simulation::kBodySpeedCourant).
SliderRange AmbientDensitySlider(const ParamInfo<SimParams>& info, const SceneSetup& setup, float scene);

/// A group's slider around the scene's value and rho0: density deviation linear over
/// ±max(4 |Δρ|, 2 % rho0), not below -0.9 rho0 (the fluid's density stays positive);
/// release_beyond over [0, max(1 m, 4 times the scene's)]; others TableSlider().
SliderRange GroupSlider(const ParamInfo<DensityGroup>& info, const DensityGroup& scene, float ambientDensity);

/// The tooltip of a parameter: its help, then "unit: U", the slider's range, the range typing
/// accepts (Ctrl+click), and whether it applies live or on reset; the right-click hint last.
template <typename Struct>
std::string ParamTooltip(const ParamInfo<Struct>& info, const SliderRange& range);

/// Sets the field `info` describes in `target` to its value in `scene` (the panel's "reset to
/// scene value"). Returns true when the value changed.
template <typename Struct>
bool ResetToScene(Struct& target, const Struct& scene, const ParamInfo<Struct>& info) {
    return std::visit(
        [&](auto member) {
            if (target.*member == scene.*member) return false;
            target.*member = scene.*member;
            return true;
        },
        info.member);
}

/// Worker threads the panel offers: 1 to the machine's hardware threads (more only adds
/// waiting; results are the same for any count).
int MaxPanelThreads();

}  // namespace vorton

namespace vorton {

/// What the panel edits and undo/redo restores: the setup (parameters, groups, bodies) and the
/// display settings. Equal when every table value is (compared as SceneToJson writes them).
struct PanelEdits {
    SceneSetup setup;
    DisplaySettings display;
    friend bool operator==(const PanelEdits& a, const PanelEdits& b);
};

}  // namespace vorton
