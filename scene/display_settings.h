#pragma once
/// \file
/// How a scene is shown (issue 13): the dye's look, the light, the floor, the backdrop and the
/// render quality. Set by a scene file's "display" object, by `--set display.KEY=VALUE` and by
/// the panel; the app turns them into render::Look. No OpenGL here.

#include <array>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/params.h"
#include "sim/result.h"

namespace vorton {

/// Display options; defaults are the demo's default look.
struct DisplaySettings {
    /// Choices (DisplayChoices() names them): the dye as a lit volume or as particles...
    int dye = 0;
    /// ...the backdrop (gradient, dark, light)...
    int backdrop = 0;
    /// ...the volume's quality (low, medium, high, ultra: grid size and march step)...
    int quality = 2;
    /// ...and what colours the dye: each group's own dye, the tracers' speed or the groups'
    /// density deviation, on a fixed range with a legend.
    int colour = 0;
    bool halfResolution = false;  ///< march the volume at half the width and height
    float exposure = 1.0f;        ///< multiplies the light before tone mapping
    float dyeExtinction = 25.0f;  ///< 1/m: optical depth per m of dye as dense as seeded
    float dyeAbsorption = 2.0f;   ///< ≥ 1: how strongly a dye absorbs the colours it does not show
    float thinDye = 0.85f;        ///< (0, 1]: concentration C shown as C^thinDye, so thin dye shows
    float lightAzimuth = -30.0f;  ///< deg, the key light's direction in the xy plane from +x to +y
    float lightElevation = 55.0f; ///< deg above the horizontal
    float lightIntensity = 2.4f;  ///< key light radiance (1: white)
    float ambient = 0.25f;        ///< sky light radiance
    bool floor = true;            ///< a ground plane with a grid, fixed in the world but for floorRecedes
    /// m: how far below the lowest dye or body (at load and reset) the floor lies.
    float floorDepth = 0.6f;
    /// The fluid has no bottom: dye or a body that sinks to the floor pushes it down, so it
    /// stays min(0.25 m, floorDepth / 4) below them instead of cutting through them.
    bool floorRecedes = true;
    float fog = 0.0f;             ///< 1/m of depth fog beyond the dye (0: none)
    float tracerSize = 0.006f;    ///< m, sprite diameter in particle mode
    float tracerOpacity = 0.35f;  ///< 0..1, one sprite's opacity in particle mode
    float speedMax = 0.5f;        ///< m/s: the top of the colour range of colour=speed
    float densityMax = 50.0f;     ///< kg/m³: colour=density spans ±this
};

/// A display option with named values, stored as the index of its name.
struct DisplayChoice {
    std::string_view key;
    std::string_view label;
    int DisplaySettings::*member;
    std::span<const std::string_view> names;
    std::string_view help;
};

/// The named-value keys ("dye", "backdrop", "quality").
std::span<const DisplayChoice> DisplayChoices();
/// The other keys, as a parameter table (numbers and booleans).
std::span<const ParamInfo<DisplaySettings>> DisplayParamInfos();

/// The march settings of a quality level: the dye grid's voxel budget (the cube of
/// `gridSide`) and the step in voxels.
struct VolumeQuality {
    int gridSide;
    float marchStep;
};
VolumeQuality QualityLevel(int quality);

/// Sets "display.KEY" (or "KEY") from a JSON value: a choice by name (or its index), other keys
/// with the checks of AssignParam. Error for an unknown key or value, listing the valid ones.
Status SetDisplayParam(DisplaySettings& display, const std::string& key, const nlohmann::json& value);

/// Every display key with its value, range and help, one per line (for --list-params).
std::string DescribeDisplay(const DisplaySettings& display);

}  // namespace vorton
