#pragma once
/// \file
/// The treecode's far field on eight accepted clusters at once: their packed
/// moments (FarRecord) transposed to one lane each, then the Taylor series of
/// the velocity and of the stretching evaluated in eight-lane arithmetic
/// (tree_far_field.cpp, where the series is written out). Built for AVX2 and
/// for the baseline, picked at load time; every lane does the same IEEE
/// operations (no FMA contraction, sim/numerics/simd.h), so both give the
/// same bits.

#include <glm/vec3.hpp>

namespace vorton::tree {

inline constexpr int kFarLanes = 8;

/// One cluster's far-field moments (treecode.h), packed in the order
/// the kernel reads them: centre c (m) at 0–2, σ_c² (m²) at 3, A = Σα (m³/s)
/// at 4–6, dipole D_ia = Σα_i d_a (row i at 7 + 3i, m⁴/s), quadrupole S_iab
/// (row i at 16 + 6i for ab = xx, xy, xz, yy, yz, zz, m⁵/s), then zeros to a
/// whole number of eight-float rows, so eight records transpose in 8×8 blocks.
struct FarRecord {
    static constexpr int kCenter = 0, kSigma2 = 3, kAlpha = 4, kDipole = 7, kQuadrupole = 16;
    static constexpr int kFloats = 40;
    alignas(32) float m[kFloats];
};

/// Adds to *v 4π times the velocity (m/s) the clusters records[0 .. lanes−1]
/// induce at x (m), in order. `records` holds kFarLanes pointers; those past
/// `lanes` must point to valid records (what they induce is ignored).
void AddFarVelocity(const FarRecord* const* records, int lanes, glm::vec3 x, glm::vec3* v);
/// The same, and to *s 4π times the stretching (∇v)ᵀω (1/s²), ω (1/s) the
/// vorticity at x.
void AddFarStretch(const FarRecord* const* records, int lanes, glm::vec3 x, glm::vec3 omega, glm::vec3* v,
                   glm::vec3* s);

}  // namespace vorton::tree
