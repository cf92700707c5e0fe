#include "stratification.h"

#include <algorithm>
#include <cmath>

namespace vorton {

void StratifiedProfile::Build(std::span<const DensityGroup> groups, float width) {
    struct Layer {
        float bottom, top, value;
    };
    std::vector<Layer> layers;
    for (const DensityGroup& g : groups) {
        if (!g.layer) continue;
        layers.push_back({g.center.z - g.halfExtents.z, g.center.z + g.halfExtents.z, g.densityDeviation});
    }
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
