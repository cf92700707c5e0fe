#pragma once
/// \file
/// The dye coloured by a field instead of by its groups (issue 13, item 7): the tracers' speed
/// or their group's density deviation, on a fixed range. The renderer needs nothing new: the
/// tracers get groups (bins of the field's value) and the palette samples a colour map.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/sim_worker.h"
#include "scene/display_settings.h"

namespace vorton {

/// DisplaySettings::colour's values.
enum class ColourField : int { Dye = 0, Speed = 1, Density = 2 };

/// A perceptual colour map from dark blue-violet through teal to yellow (a fit of matplotlib's
/// viridis), t in [0, 1] (clamped); sRGB 0..1.
glm::vec3 Viridis(float t);
/// A diverging map: blue (t = 0), pale grey (0.5), red (1); sRGB 0..1.
glm::vec3 BlueWhiteRed(float t);

/// Groups and palette for the field a DisplaySettings asks for.
class FieldColours {
public:
    /// Colour map samples for speed; a tracer's bin is its speed / speed_max in 1/(kBins-1) steps.
    static constexpr int kBins = 64;

    /// Recomputes for `snapshot` (its tracerSpeeds for speed) and `setup` (the groups' density
    /// deviations). Returns false for ColourField::Dye, or speed without speeds in the snapshot:
    /// then the scene's own groups and colours apply.
    bool Update(const DisplaySettings& display, const SimSnapshot& snapshot, const SceneSetup& setup);

    /// Per tracer, the bin (speed) or the group (density); empty for density (the tracers' own
    /// groups are used).
    std::span<const std::uint16_t> Groups() const { return m_groups; }
    std::span<const glm::vec4> Palette() const { return m_palette; }

    /// What the legend shows: the field's name and unit, its range, the map from low to high.
    struct Legend {
        std::string name;
        float low = 0.0f, high = 1.0f;
        bool diverging = false;
    };
    const Legend& CurrentLegend() const { return m_legend; }

private:
    std::vector<std::uint16_t> m_groups;
    std::vector<glm::vec4> m_palette;
    Legend m_legend;
};

}  // namespace vorton
