#include "app/field_colours.h"

#include <algorithm>
#include <array>

namespace vorton {

glm::vec3 Viridis(float t) {
    // Samples of viridis at t = 0, 0.25, 0.5, 0.75, 1, interpolated linearly.
    static constexpr std::array<glm::vec3, 5> kStops{{{0.267f, 0.005f, 0.329f},
                                                      {0.229f, 0.322f, 0.546f},
                                                      {0.128f, 0.567f, 0.551f},
                                                      {0.369f, 0.789f, 0.383f},
                                                      {0.993f, 0.906f, 0.144f}}};
    const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
    const int i = std::min(int(x), 3);
    return glm::mix(kStops[std::size_t(i)], kStops[std::size_t(i) + 1], x - float(i));
}

glm::vec3 BlueWhiteRed(float t) {
    const glm::vec3 blue(0.2f, 0.4f, 1.0f), white(0.85f, 0.85f, 0.85f), red(1.0f, 0.25f, 0.2f);
    t = std::clamp(t, 0.0f, 1.0f);
    return t < 0.5f ? glm::mix(blue, white, 2.0f * t) : glm::mix(white, red, 2.0f * t - 1.0f);
}

bool FieldColours::Update(const DisplaySettings& display, const SimSnapshot& snapshot, const SceneSetup& setup) {
    const auto field = ColourField(display.colour);
    m_groups.clear();
    m_palette.clear();
    if (field == ColourField::Speed) {
        if (snapshot.tracerSpeeds.size() != snapshot.tracerPositions.size()) return false;
        const float top = std::max(display.speedMax, 1e-6f);
        m_groups.resize(snapshot.tracerSpeeds.size());
        for (std::size_t i = 0; i < m_groups.size(); ++i) {
            const float t = std::clamp(snapshot.tracerSpeeds[i] / top, 0.0f, 1.0f);
            m_groups[i] = std::uint16_t(t * float(kBins - 1) + 0.5f);
        }
        for (int b = 0; b < kBins; ++b) m_palette.emplace_back(Viridis(float(b) / float(kBins - 1)), 1.0f);
        m_legend = {"speed (m/s)", 0.0f, top, false};
        return true;
    }
    if (field == ColourField::Density) {
        const float range = std::max(display.densityMax, 1e-6f);
        for (const DensityGroup& g : setup.groups) {
            m_palette.emplace_back(BlueWhiteRed(0.5f + 0.5f * g.densityDeviation / range), 1.0f);
        }
        m_legend = {"density deviation (kg/m^3)", -range, range, true};
        return !m_palette.empty();
    }
    return false;
}

}  // namespace vorton
