#pragma once
/// \file
/// The treecode's far field on eight accepted clusters at once: their moments
/// gathered lane by lane (FarBatch), then the Taylor series of the velocity
/// and of the stretching evaluated in eight-lane arithmetic
/// (tree_far_field.cpp, where the series is written out). Built for AVX2 and
/// for the baseline, picked at load time; every lane does the same IEEE
/// operations (no FMA contraction, sim/numerics/simd.h), so both give the
/// same bits.

#include <glm/vec3.hpp>

namespace vorton::tree {

inline constexpr int kFarLanes = 8;

/// Moments of up to kFarLanes clusters (treecode.h's Node), one lane each:
/// centre c (m), σ_c² (m²), A = Σα (m³/s), dipole D_ia = Σα_i d_a (row i in
/// dipole[3i..3i+2], m⁴/s) and quadrupole S_iab (row i in quadrupole[6i..6i+5]
/// for ab = xx, xy, xz, yy, yz, zz, m⁵/s). Lanes past those used must hold
/// finite moments (a used lane's); what they induce is ignored.
struct FarBatch {
    alignas(32) float cx[kFarLanes], cy[kFarLanes], cz[kFarLanes], sigma2[kFarLanes];
    alignas(32) float ax[kFarLanes], ay[kFarLanes], az[kFarLanes];
    alignas(32) float dipole[9][kFarLanes];
    alignas(32) float quadrupole[18][kFarLanes];
};

/// Adds to *v 4π times the velocity (m/s) the first `lanes` clusters of b
/// induce at x (m), lane by lane in order.
void AddFarVelocity(const FarBatch& b, int lanes, glm::vec3 x, glm::vec3* v);
/// The same, and to *s 4π times the stretching (∇v)ᵀω (1/s²), ω (1/s) the
/// vorticity at x.
void AddFarStretch(const FarBatch& b, int lanes, glm::vec3 x, glm::vec3 omega, glm::vec3* v, glm::vec3* s);

}  // namespace vorton::tree
