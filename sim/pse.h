#pragma once
/// \file
/// Viscous diffusion by particle strength exchange (PSE).

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "uniform_grid.h"

namespace vorton {

/// Computes dα_p/dt = (ν/ε²) Σ_q (V_p α_q − V_q α_p) η_ε(x_p − x_q) with the
/// second-order Gaussian kernel η_ε(x) = 4/(π^{3/2} ε³) exp(−|x|²/ε²) and
/// ε_pq = (σ_p + σ_q)/2, cut off at 3·ε_pq (the kernel is 1e-4 of its peak).
/// Degond & Mas-Gallic, Math. Comp. 53 (1989); Cottet & Koumoutsakos (2000) §5.
///
/// Written as a gather: each vorton reads its neighbours and writes only its
/// own rate, so it is race-free, and since the pair term is antisymmetric to
/// the bit, Σ dα/dt = 0 up to the round-off of the sums (Σα is conserved).
/// Neighbours come from a cell list built in a fixed order: deterministic.
class ParticleStrengthExchange {
public:
    /// Fills rate[p] = dα_p/dt (m³/s²) for N vortons. All spans have length N
    /// except `eddyViscosity`, which is empty or gives an extra viscosity per
    /// vorton (m²/s); a pair then uses ν + (ν_t,p + ν_t,q)/2, symmetric, so Σα
    /// stays conserved.
    void ComputeRates(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity,
                      std::span<const float> radius, std::span<const float> volume, float viscosity,
                      std::span<glm::vec3> rate, std::span<const float> eddyViscosity = {});

private:
    GridGeometry m_cells;                 // cell list geometry (a cell per grid point)
    std::vector<std::uint32_t> m_start;   // first sorted vorton of each cell, size cells+1
    std::vector<std::uint32_t> m_sorted;  // vorton indices sorted by cell
    std::vector<std::uint32_t> m_cellOf;  // cell of each vorton
    std::vector<std::uint32_t> m_fill;    // counting-sort cursor per cell
};

}  // namespace vorton
