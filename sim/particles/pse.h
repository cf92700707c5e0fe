#pragma once
/// \file
/// Viscous diffusion by particle strength exchange (PSE).

#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/uniform_grid.h"

namespace vorton {

/// Computes dα_p/dt = (ν/ε²) Σ_q (V_p α_q − V_q α_p) η_ε(x_p − x_q) with the
/// second-order Gaussian kernel η_ε(x) = 4/(π^{3/2} ε³) exp(−|x|²/ε²) and
/// ε_pq = (σ_p + σ_q)/2, cut off at 3·ε_pq (the kernel is 1e-4 of its peak).
/// Degond & Mas-Gallic, Math. Comp. 53 (1989); Cottet & Koumoutsakos (2000) §5.
///
/// Written as a gather (each vorton reads its neighbours and writes only its
/// own rate) or, with equal cores and N ≥ 500, pairwise (each pair once, in
/// layers along the box's longest axis: with many layers in three phases so
/// that no two tasks write one rate; with few, a block per row of a layer,
/// each into its own buffer, summed in block order afterwards);
/// all are race-free, and since the pair term is antisymmetric to the bit,
/// Σ dα/dt = 0 up to the round-off of the sums (Σα is conserved).
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
    /// ComputeRates on one cell list over all N vortons (rate already zeroed).
    void ComputeRatesOnCells(std::span<const glm::vec3> position, std::span<const glm::vec3> vorticity,
                             std::span<const float> radius, std::span<const float> volume, float viscosity,
                             std::span<glm::vec3> rate, std::span<const float> eddyViscosity);
    /// Splits a flow spread thin over a large box (whose cell list would have more than
    /// kSparseCellsPerVorton cells per vorton: two balls' wakes tens of metres apart)
    /// into slabs along its longest axis separated by at least `reach` of empty space,
    /// where no pair interacts: each slab's vortons (in index order) into m_slabStart /
    /// m_slabVortons. False when it is not sparse or has no such gap.
    bool SplitIntoSlabs(std::span<const glm::vec3> position, float reach);
    std::vector<std::uint32_t> m_slabStart, m_slabVortons, m_slabOf, m_bucketCount;
    // One slab's vortons, gathered.
    std::vector<glm::vec3> m_subPosition, m_subVorticity, m_subRate;
    std::vector<float> m_subRadius, m_subVolume, m_subEddy;

    GridGeometry m_cells;                 // cell list geometry (a cell per grid point)
    std::vector<std::uint32_t> m_start;   // first sorted vorton of each cell, size cells+1
    std::vector<std::uint32_t> m_sorted;  // vorton indices sorted by cell
    std::vector<std::uint32_t> m_cellOf;  // cell of each vorton
    // The vortons in cell order, one array per component, so the inner loop
    // over a run of neighbouring cells is contiguous and vectorises.
    std::vector<float> m_x, m_y, m_z, m_ax, m_ay, m_az, m_volume, m_radius, m_eddy;
    std::vector<float> m_rx, m_ry, m_rz;  // rates in cell order (the pairwise path), or the blocks' buffers
    // Few layers: per block (a row of a layer), the sorted vortons it may
    // write [first, last) and where its buffer starts in m_rx/m_ry/m_rz.
    std::vector<std::uint32_t> m_blockFirst, m_blockLast;
    std::vector<std::size_t> m_blockOffset;
};

/// e^x for x ≤ 0 to a relative 3e-7 (measured; x < −87 gives e^−87): Cody–Waite reduction to
/// 2^n·e^r, |r| ≤ ln2/2, and a degree-6 Taylor polynomial. Plain arithmetic
/// and bit operations, on a float or lane by lane on a GCC vector of floats
/// (F) with its int32 twin (I): every lane and thread gets the same bits.
template <typename F, typename I = std::int32_t>
inline F ExpNonPositive(F x) {
    constexpr bool kScalar = std::is_same_v<F, float>;
    x = x > -87.0f ? x : F{} - 87.0f;
    // x = n ln2 + r, n = round(x log2 e) by truncation (x ≤ 0); ln2 split in
    // a part exact in float and the rest.
    constexpr float kLog2e = 1.44269504f, kLn2Hi = 0.693145752f, kLn2Lo = 1.42860677e-6f;
    I ni;
    F n;
    if constexpr (kScalar) {
        ni = -std::int32_t(0.5f - x * kLog2e);
        n = float(ni);
    } else {
        ni = -__builtin_convertvector(0.5f - x * kLog2e, I);
        n = __builtin_convertvector(ni, F);
    }
    const F r = (x - n * kLn2Hi) - n * kLn2Lo;
    F p = F{} + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    // 2^n by building the exponent field; n ≥ −126 here.
    const I bits = (ni + 127) << 23;
    F scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

}  // namespace vorton
