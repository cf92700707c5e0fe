#pragma once
/// \file
/// Remeshing: redistributing vortons onto a regular lattice.

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "particles.h"

namespace vorton {

/// The cubic lattice vortons were seeded on: points origin + h·(i, j, k) for any integers.
struct Lattice {
    glm::vec3 origin{0.0f};
    float spacing = 0.0f;  ///< h, m; 0 means "no lattice" (remeshing off)
};

/// Replaces the vortons by vortons on the lattice: each old vorton's strength
/// α = ωV and excess-mass weight (massFraction·V, per group) are spread to the
/// 4×4×4 lattice points around it with the M4′ kernel (Monaghan 1985), which
/// reproduces polynomials up to degree 2, so Σα, the linear impulse ½Σx×α and
/// each group's mass are conserved exactly (up to round-off and the dropped
/// points below). A point becomes a vorton (volume h³, core σ) when it is
/// occupied (Σ weights ≥ ½) or carries |α| or mass above `threshold` × the
/// largest; its group is the one with the most mass there (others' mass at
/// that point is dropped: groups rarely mix) and its massFraction that group's
/// mass / h³. Vortons already on the lattice at rest are left as they are.
/// Remeshing bounds the Lagrangian distortion that otherwise clusters vortons
/// and lets stretching run away (Koumoutsakos, J. Comput. Phys. 138 (1997);
/// Cottet & Koumoutsakos 2000, §7). Serial, in a fixed order: deterministic.
/// Returns false (and changes nothing) if the lattice would exceed maxPoints.
bool Remesh(const Lattice& lattice, float sigma, float threshold, std::size_t groupCount, std::size_t maxPoints,
            Vortons& vortons);

}  // namespace vorton
