#include "sim/particles/stratification.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vorton {

void StratifiedProfile::Build(std::span<const DensityGroup> groups, float width) {
    struct Layer {
        float bottom, top, value;
    };
    std::vector<Layer> layers;
    m_xMin = m_yMin = std::numeric_limits<float>::max();
    m_xMax = m_yMax = -std::numeric_limits<float>::max();
    for (const DensityGroup& g : groups) {
        if (!g.layer) continue;
        layers.push_back({g.center.z - g.halfExtents.z, g.center.z + g.halfExtents.z, g.densityDeviation});
        m_xMin = std::min(m_xMin, g.center.x - g.halfExtents.x);
        m_xMax = std::max(m_xMax, g.center.x + g.halfExtents.x);
        m_yMin = std::min(m_yMin, g.center.y - g.halfExtents.y);
        m_yMax = std::max(m_yMax, g.center.y + g.halfExtents.y);
    }
    // A quarter of the narrower half width: wide enough to take a wave out
    // over a few cells, narrow enough to leave the middle alone.
    m_spongeWidth = layers.empty() ? 1.0f : 0.25f * 0.5f * std::min(m_xMax - m_xMin, m_yMax - m_yMin);
    std::sort(layers.begin(), layers.end(), [](const Layer& a, const Layer& b) {
        return a.bottom + a.top < b.bottom + b.top;
    });
    m_values.clear();
    m_interfaces.clear();
    for (std::size_t i = 0; i < layers.size(); ++i) {
        m_values.push_back(layers[i].value);
        if (i > 0) m_interfaces.push_back(0.5f * (layers[i - 1].top + layers[i].bottom));
    }
    m_width = width > 0.0f ? width : 1.0f;
}

float StratifiedProfile::Delta(float z) const {
    if (m_values.empty()) return 0.0f;
    float delta = m_values[0];
    for (std::size_t i = 1; i < m_values.size(); ++i) {
        delta += (m_values[i] - m_values[i - 1]) * 0.5f * (1.0f + std::tanh((z - m_interfaces[i - 1]) / m_width));
    }
    return delta;
}

float StratifiedProfile::BuoyancyFrequency(float gravity, float ambientDensity) const {
    if (m_values.size() < 2 || !(ambientDensity > 0.0f)) return 0.0f;
    // The steepest slope of ½ΔΔ(1 + tanh(s/w)) is ΔΔ/(2w) at each interface.
    float slope = 0.0f;
    for (std::size_t i = 1; i < m_values.size(); ++i) {
        slope = std::max(slope, std::abs(m_values[i] - m_values[i - 1]) / (2.0f * m_width));
    }
    return std::sqrt(std::abs(gravity) / ambientDensity * slope);
}

float StratifiedProfile::Sponge(float x, float y) const {
    if (m_values.empty()) return 0.0f;
    const float d = std::min({x - m_xMin, m_xMax - x, y - m_yMin, m_yMax - y});
    if (!(d < m_spongeWidth)) return 0.0f;
    if (d <= 0.0f) return 1.0f;
    const float t = 1.0f - d / m_spongeWidth;
    return t * t;
}

float StratifiedProfile::SphereMean(float z, float radius) const {
    if (m_values.empty() || radius <= 0.0f) return 0.0f;
    constexpr int kSlices = 64;
    double sum = 0.0, weight = 0.0;
    for (int i = 0; i < kSlices; ++i) {
        const double s = radius * (-1.0 + (2.0 * i + 1.0) / kSlices);
        const double area = double(radius) * radius - s * s;
        sum += area * Delta(z + float(s));
        weight += area;
    }
    return float(sum / weight);
}

}  // namespace vorton
