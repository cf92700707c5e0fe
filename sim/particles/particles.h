#pragma once
/// \file
/// Particle storage, structure-of-arrays: one array per quantity, all of the
/// same length.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace vorton {

/// Group index of vortons that carry no density group (the zero-deviation halo).
inline constexpr std::uint16_t kAmbientGroup = 0xFFFF;

/// Vortex particles (Gourlay part 3). Vorticity is stored as vorticity ω
/// itself, not the articles' angular velocity ω/2, so no factors of ½ appear.
/// The vector strength of vorton k is α_k = ω_k V_k.
struct Vortons {
    std::vector<glm::vec3> position;   ///< x_k, m
    std::vector<glm::vec3> vorticity;  ///< ω_k, 1/s
    std::vector<float> radius;         ///< σ_k, core radius of the regularised kernel, m
    std::vector<float> volume;         ///< V_k, m³
    std::vector<std::uint16_t> group;  ///< density group index, or kAmbientGroup
    /// Share of its group's density deviation this vorton carries: δρ_k =
    /// massFraction_k · δρ_group. 1 at seeding; remeshing moves mass around.
    std::vector<float> massFraction;
    /// Height z (m) at which the vorton's fluid was born: in a stratified
    /// ambient its density is the profile there (docs/METHOD.md §2).
    std::vector<float> birthHeight;

    std::size_t Size() const { return position.size(); }
    void Clear();
    /// Appends a vorton; birthHeight is x.z unless given.
    void Add(glm::vec3 x, glm::vec3 omega, float sigma, float v, std::uint16_t g, float fraction = 1.0f);
    void Add(glm::vec3 x, glm::vec3 omega, float sigma, float v, std::uint16_t g, float fraction, float birthZ);
    /// Keeps the vortons whose keep byte is set (N bytes), in order; returns how many went.
    std::size_t Compact(std::span<const std::uint8_t> keep);
};

/// Vorticity of vorton k averaged over a lattice cell of `cellVolume` (m³), in 1/s: ω_k for
/// a vorton that holds a cell of fluid or more, α_k / cellVolume for one that holds less.
/// The vortons of a body's vortex sheet hold almost no fluid (body_coupling.cpp): their own
/// ω_k = α_k / V_k is a sheet's strength over a sliver, not a value of the field, so what
/// reads the field per vorton (the subgrid viscosity, max |ω|, the enstrophy, the vortons'
/// colour) reads this.
glm::vec3 CellVorticity(const Vortons& vortons, std::size_t k, float cellVolume);

/// The high-pass part of the vorticity at each vorton, |ω_c − ω̄_c| (1/s), into `rate`
/// (length N): ω_c = Σα/h³ over the vortons nearest the same lattice point (origin + h·i),
/// ω̄_c = Σα/(27h³) over the 3×3×3 points around it (a box filter of width 3h; a point with
/// no vorton holds no vorticity). Where the lattice resolves the field, ω − ω̄ ≈ −(h²/3)∇²ω
/// (a Gaussian core of rms a: 4/3·(h/a)² of ω at its centre); a vorton far stronger than
/// its neighbours keeps 26/27 of its own. The rate of a high-pass filtered eddy viscosity
/// (Stolz, Schlatter & Kleiser, Phys. Fluids 17, 065103, 2005), which leaves the resolved
/// scales, a laminar core among them, to the viscosity. Deterministic: sums in the order of
/// the points' keys, then of the vortons' indices. h ≤ 0 (no lattice): |ω_k| itself.
void HighPassVorticity(const Vortons& vortons, glm::vec3 origin, float h, std::span<float> rate);

/// Passive tracers: moved by the flow, never feed back into it.
struct Tracers {
    std::vector<glm::vec3> position;   ///< m
    std::vector<glm::vec3> velocity;   ///< m/s, of the last step (cached for collisions and output)
    std::vector<std::uint16_t> group;  ///< density group index (dye colour, density deviation)

    std::size_t Size() const { return position.size(); }
    void Clear();
    void Add(glm::vec3 x, std::uint16_t g);
};

}  // namespace vorton
