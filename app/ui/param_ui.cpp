#include "app/ui/param_ui.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <cmath>
#include <tbb/info.h>

namespace vorton {

namespace {

/// A float for reading: up to 6 significant digits, plain up to 1e6 (100000, not 1e+05).
std::string Number(float f) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", double(f));
    return buffer;
}

template <typename Struct>
SliderRange Within(SliderRange r, const ParamInfo<Struct>& info) {
    r.min = std::clamp(r.min, info.min, info.max);
    r.max = std::clamp(r.max, info.min, info.max);
    return r;
}

}  // namespace

SliderRange BodySlider(const ParamInfo<BodySpec>& info, const BodySpec& scene, float ambientDensity) {
    SliderRange r = TableSlider(info);
    if (info.key == "density") {
        r = SliderRange{std::min(0.5f * ambientDensity, scene.density), std::max(3.0f * ambientDensity, scene.density),
                        false, "%.1f"};
    } else if (info.key == "radius") {
        r = SliderRange{0.25f * scene.radius, 4.0f * scene.radius, false, "%.3f"};
    }
    return Within(r, info);
}

SliderRange AmbientDensitySlider(const ParamInfo<SimParams>& info, const SceneSetup& setup, float scene) {
    float lo = 0.0f, hi = std::numeric_limits<float>::max();
    bool free = false;
    for (const BodySpec& body : setup.bodies) {
        if (body.fixed || !(body.density > 0.0f)) continue;
        free = true;
        lo = std::max(lo, body.density / 3.0f);
        hi = std::min(hi, 2.0f * body.density);
    }
    if (!free) return TableSlider(info);
    if (lo > hi) std::swap(lo, hi);
    for (const DensityGroup& group : setup.groups) lo = std::max(lo, -group.densityDeviation / 0.9f);
    SliderRange r{std::min(lo, scene), std::max({hi, lo, scene}), false, "%.1f"};
    return Within(r, info);
}

SliderRange GroupSlider(const ParamInfo<DensityGroup>& info, const DensityGroup& scene, float ambientDensity) {
    SliderRange r = TableSlider(info);
    if (info.key == "density_deviation") {
        const float span = std::max(4.0f * std::abs(scene.densityDeviation), 0.02f * ambientDensity);
        r = SliderRange{std::max(-span, -0.9f * ambientDensity), span, false, "%.2f"};
    } else if (info.key == "release_beyond") {
        r = SliderRange{0.0f, std::max(1.0f, 4.0f * scene.releaseBeyond), false, "%.2f"};
    }
    return Within(r, info);
}

template <typename Struct>
std::string ParamTooltip(const ParamInfo<Struct>& info, const SliderRange& range) {
    std::string text(info.help);
    const bool isBool = std::holds_alternative<bool Struct::*>(info.member);
    const bool isEnum = std::holds_alternative<Solver Struct::*>(info.member);
    if (info.unit == "rgb") {
        text += "\nred, green, blue in 0-1, as in scene files";
    } else if (!isBool && !isEnum) {
        text += "\nunit: " + (info.unit.empty() ? std::string("none") : std::string(info.unit));
        text += "\nslider " + Number(range.min) + " to " + Number(range.max) + (range.logarithmic ? " (log)" : "");
        if (range.min != info.min || range.max != info.max) {
            text += "; Ctrl+click to type " + Number(info.min) + " to " + Number(info.max);
        }
    }
    text += info.live ? "\napplies at once" : "\napplies on Reset";
    text += "\nright-click: reset to the scene's value";
    return text;
}

template std::string ParamTooltip(const ParamInfo<SimParams>&, const SliderRange&);
template std::string ParamTooltip(const ParamInfo<DensityGroup>&, const SliderRange&);
template std::string ParamTooltip(const ParamInfo<BodySpec>&, const SliderRange&);
template std::string ParamTooltip(const ParamInfo<DisplaySettings>&, const SliderRange&);

int MaxPanelThreads() { return std::max(1, int(tbb::info::default_concurrency())); }

}  // namespace vorton

#include "scene/scene_writer.h"

namespace vorton {

bool operator==(const PanelEdits& a, const PanelEdits& b) {
    Scene sa, sb;
    sa.setup = a.setup;
    sa.display = a.display;
    sb.setup = b.setup;
    sb.display = b.display;
    return SceneToJson(sa) == SceneToJson(sb);
}

}  // namespace vorton
