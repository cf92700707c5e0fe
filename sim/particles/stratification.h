#pragma once
/// \file
/// The stratified ambient density profile (docs/METHOD.md §2).

#include <span>
#include <vector>

#include "sim/params.h"

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

    /// Buoyancy frequency N = √((|g|/ρ₀) max|dΔ/dz|) of the steepest
    /// interface, 1/s (0 with no layers).
    float BuoyancyFrequency(float gravity, float ambientDensity) const;
    /// Strength in [0, 1] of the absorbing layer at x: 0 further than the
    /// sponge width inside the layers' sides (their union in x and y), rising
    /// as (1 − d/W)² to 1 at the sides and beyond. The particles hold the
    /// layers only inside their boxes; at the sides the density field would
    /// end in a wall that turns every passing internal wave into spurious
    /// baroclinic vorticity. Waves are absorbed there instead, as an open
    /// boundary is in stratified-flow models (Klemp & Lilly, J. Atmos. Sci.
    /// 35, 1978; Durran, *Numerical Methods for Fluid Dynamics*, §8.3).
    float Sponge(float x, float y) const;

private:
    std::vector<float> m_values;      // layer deviations, bottom to top
    std::vector<float> m_interfaces;  // heights between consecutive layers
    float m_width = 1.0f;
    float m_xMin = 0.0f, m_xMax = 0.0f, m_yMin = 0.0f, m_yMax = 0.0f;  // the layers' sides, m
    float m_spongeWidth = 1.0f;                                        // W, m
};

}  // namespace vorton
