#pragma once
/// \file
/// Baroclinic generation of vorticity in the Boussinesq approximation.

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/uniform_grid.h"

namespace vorton {

/// Computes dα_k/dt from Dω/Dt = (∇ρ′ × g)/ρ₀ (docs/METHOD.md §3; Gourlay part 8):
///
/// 1. spread each vorton's excess mass δρ_k V_k onto a density grid with
///    cloud-in-cell weights divided by the cell volume (Σ grid·cell = Σ δρ V);
/// 2. take the central-difference gradient and form B = ∇ρ′ × g/ρ₀ at each
///    grid point (summation by parts makes the grid's impulse rate
///    ½ Σ x × B·cell exactly g·Σ δρV/ρ₀);
/// 3. hand each point's B·cell to the vortons within two cells of it, in
///    proportion to a tent weight of half-width two cells, normalised over
///    those vortons. Σ dα/dt equals the grid total exactly, and no generation
///    is lost where the dye has moved away from the vortons that once
///    surrounded it: every point with a gradient has a dyed vorton within two
///    cells. (Interpolating ∇ρ′ to the vortons instead, as the article does,
///    loses the generation at the edge of a blob that has outrun its halo, and
///    a falling drop stops gaining impulse after about a second.)
///
/// Serial scatters in a fixed order and a parallel gather: deterministic.
class BaroclinicGenerator {
public:
    /// position, excessMass (δρ_k V_k, kg) and rate (dα_k/dt, m³/s²) have N entries.
    /// cellSize in m; gravity in m/s²; ambientDensity in kg/m³.
    void ComputeRates(std::span<const glm::vec3> position, std::span<const float> excessMass, float cellSize,
                      glm::vec3 gravity, float ambientDensity, std::span<glm::vec3> rate);

    const GridGeometry& Grid() const { return m_grid; }
    std::span<const float> Density() const { return m_density; }  ///< ρ′ at the grid points, kg/m³

private:
    GridGeometry m_grid;
    std::vector<float> m_density;
    std::vector<glm::vec3> m_gradient;  // then B·cell
    std::vector<float> m_weight;        // Σ of receiving weights at each point
    std::vector<std::uint32_t> m_layerStart, m_layerOf, m_byLayer;  // vortons by z-layer
};

}  // namespace vorton
