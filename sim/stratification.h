#pragma once
/// \file
/// The stratified ambient density profile (METHOD.md "Stratified ambient").

#include <span>
#include <vector>

#include "params.h"

namespace vorton {

/// Δ(z), kg/m³: the ambient density minus ρ₀ as a function of height, made of
/// the layer groups (DensityGroup::layer, boxes) stacked in z. Each layer's
/// density_deviation holds over its height range; the lowest layer's value
/// continues below it and the highest's above it, so a stable stack stays
/// stable everywhere; neighbouring layers meet at the midpoint between them
/// in a smooth step ½(1 + tanh(s/w)) of width w. With no layers Δ = 0.
class StratifiedProfile {
public:
    /// Builds the profile of the layer groups; `width` w > 0, m.
    void Build(std::span<const DensityGroup> groups, float width);
    bool Empty() const { return m_values.empty(); }
    /// Δ(z), kg/m³.
    float Delta(float z) const;
    /// Mean of Δ over a sphere of radius R centred at height z, kg/m³: the
    /// volume integral ∫ Δ(z+s)·π(R² − s²) ds / (4/3 πR³) by the midpoint rule
    /// on 64 slices (Gourlay part 9's displaced mass, as an integral).
    float SphereMean(float z, float radius) const;

private:
    std::vector<float> m_values;      // layer deviations, bottom to top
    std::vector<float> m_interfaces;  // heights between consecutive layers
    float m_width = 1.0f;
};

}  // namespace vorton
