#include "display_settings.h"

#include <iomanip>
#include <sstream>

#include "json_lines.h"
#include "param_access.h"

namespace vorton {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 2> kDyeNames{"volume", "particles"};
constexpr std::array<std::string_view, 3> kBackdropNames{"gradient", "dark", "light"};
constexpr std::array<std::string_view, 4> kQualityNames{"low", "medium", "high", "ultra"};
constexpr std::array<std::string_view, 3> kColourNames{"dye", "speed", "density"};

std::string Join(std::span<const std::string_view> names, const char* separator) {
    std::string out;
    for (std::string_view n : names) out += (out.empty() ? "" : separator) + std::string(n);
    return out;
}

std::string ValidKeys() {
    std::string keys;
    for (const auto& c : DisplayChoices()) keys += (keys.empty() ? "display." : ", display.") + std::string(c.key);
    for (const auto& info : DisplayParamInfos()) keys += ", display." + std::string(info.key);
    return keys;
}

}  // namespace

std::span<const DisplayChoice> DisplayChoices() {
    using D = DisplaySettings;
    static const std::array<DisplayChoice, 4> choices{{
        {"dye", "Dye", &D::dye, kDyeNames,
         "volume: the dye as a lit, self-shadowing cloud; particles: one lit sprite per tracer"},
        {"backdrop", "Backdrop", &D::backdrop, kBackdropNames, "what is behind the scene"},
        {"quality", "Quality", &D::quality, kQualityNames,
         "the dye volume's grid (64^3, 96^3, 128^3, 192^3 voxels at most) and march step"},
        {"colour", "Colour by", &D::colour, kColourNames,
         "dye: each group's colour; speed: the tracers' speed, 0 to speed_max; density: each group's density "
         "deviation, -density_max (blue) to +density_max (red); a legend shows the range"},
    }};
    return choices;
}

std::span<const ParamInfo<DisplaySettings>> DisplayParamInfos() {
    using D = DisplaySettings;
    static const std::array<ParamInfo<D>, 17> infos{{
        {"half_resolution", "Half-resolution march", "", &D::halfResolution, 0.0f, 1.0f, true, false,
         "march the volume at half the width and height (about 4x faster; edges upsampled with depth)"},
        {"exposure", "Exposure", "", &D::exposure, 0.05f, 20.0f, true, true, "multiplies the light before tone mapping"},
        {"dye_extinction", "Dye opacity", "1/m", &D::dyeExtinction, 0.0f, 1000.0f, true, true,
         "optical depth per metre of dye as dense as it was seeded (Beer-Lambert)", {}, 1.0f, 200.0f},
        {"dye_absorption", "Dye absorption", "", &D::dyeAbsorption, 1.0f, 10.0f, true, false,
         "1: grey extinction; more: light through a dye takes its colour, so dyes mix by absorption"},
        {"thin_dye", "Thin dye shown", "", &D::thinDye, 0.1f, 1.0f, true, false,
         "concentration C drawn as C^thin_dye: below 1 wakes and tendrils of thin dye show (1: as it is)"},
        {"light_azimuth", "Light azimuth", "deg", &D::lightAzimuth, -360.0f, 360.0f, true, false,
         "the key light's direction about the vertical, from +x towards +y (fixed in the world)"},
        {"light_elevation", "Light elevation", "deg", &D::lightElevation, 5.0f, 89.0f, true, false,
         "the key light's height above the horizon"},
        {"light_intensity", "Light", "", &D::lightIntensity, 0.0f, 20.0f, true, false, "key light radiance"},
        {"ambient", "Ambient", "", &D::ambient, 0.0f, 5.0f, true, false, "sky light radiance (dimmed by dye above)"},
        {"floor", "Floor", "", &D::floor, 0.0f, 1.0f, true, false, "a ground plane with a 0.25 m grid, fixed in the world (but see floor_recedes)"},
        {"floor_depth", "Floor depth", "m", &D::floorDepth, 0.0f, 1.0e4f, true, false,
         "how far below the lowest dye or body the floor lies (placed at load and reset)", {}, 0.0f, 20.0f},
        {"floor_recedes", "Floor recedes", "", &D::floorRecedes, 0.0f, 1.0f, true, false,
         "the fluid has no bottom: dye or a body that sinks to the floor pushes it down rather than "
         "passing through it"},
        {"fog", "Fog", "1/m", &D::fog, 0.0f, 10.0f, true, false, "depth fog towards the backdrop, beyond the dye",
         {}, 0.0f, 2.0f},
        {"tracer_size", "Tracer size", "m", &D::tracerSize, 1.0e-4f, 1.0f, true, true,
         "particle mode: sprite diameter", {}, 0.001f, 0.03f},
        {"tracer_opacity", "Tracer opacity", "", &D::tracerOpacity, 0.0f, 1.0f, true, false,
         "particle mode: one sprite's opacity", {}, 0.02f, 1.0f},
        {"speed_max", "Speed range", "m/s", &D::speedMax, 1e-3f, 100.0f, true, true,
         "colour=speed: the speed shown at the top of the colour map", {}, 0.01f, 5.0f},
        {"density_max", "Density range", "kg/m^3", &D::densityMax, 1e-3f, 1.0e4f, true, true,
         "colour=density: the deviation shown at either end of the colour map", {}, 1.0f, 500.0f},
    }};
    return infos;
}

VolumeQuality QualityLevel(int quality) {
    switch (quality) {
        case 0: return {64, 1.5f};
        case 1: return {96, 1.0f};
        case 3: return {192, 0.6f};
        case 2:
        default: return {128, 0.8f};
    }
}

Status SetDisplayParam(DisplaySettings& display, const std::string& key, const json& value) {
    const std::string field = key.starts_with("display.") ? key.substr(8) : key;
    for (const DisplayChoice& choice : DisplayChoices()) {
        if (field != choice.key) continue;
        if (value.is_string()) {
            for (std::size_t i = 0; i < choice.names.size(); ++i) {
                if (value.get<std::string>() == choice.names[i]) {
                    display.*choice.member = int(i);
                    return Ok{};
                }
            }
        } else if (value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
                   value.get<std::int64_t>() < std::int64_t(choice.names.size())) {
            display.*choice.member = value.get<int>();
            return Ok{};
        }
        return Error{key + ": unknown value " + Excerpt(value) + " (valid: " + Join(choice.names, ", ") + ")"};
    }
    for (const auto& info : DisplayParamInfos()) {
        if (field == info.key) return AssignParam(display, info, key, value);
    }
    return Error{"unknown display key '" + key + "'; valid: " + ValidKeys()};
}

std::string DescribeDisplay(const DisplaySettings& display) {
    std::ostringstream out;
    auto row = [&](const std::string& key, const std::string& value, std::string_view unit, const std::string& range,
                   std::string_view help) {
        out << std::left << std::setw(34) << ("display." + key) << std::setw(22) << value << std::setw(8) << unit
            << range << " live  " << help << "\n";
    };
    for (const DisplayChoice& c : DisplayChoices()) {
        std::ostringstream value;
        value << std::quoted(std::string(c.names[std::size_t(display.*c.member)]));
        row(std::string(c.key), value.str(), "", Join(c.names, "|"), c.help);
    }
    for (const auto& info : DisplayParamInfos()) {
        std::ostringstream value, range;
        if (const auto* b = std::get_if<bool DisplaySettings::*>(&info.member)) {
            value << (display.**b ? "true" : "false");
            range << "true|false";
        } else if (const auto* f = std::get_if<float DisplaySettings::*>(&info.member)) {
            value << display.**f;
            range << "[" << info.min << ", " << info.max << "]";
        }
        row(std::string(info.key), value.str(), info.unit, range.str(), info.help);
    }
    return out.str();
}

}  // namespace vorton
