#pragma once
/// \file
/// The treecode's eight-lane kernels. The far field on eight accepted
/// clusters at once: their packed moments (FarRecord) transposed to one lane
/// each, then the Taylor series of the velocity and of the stretching
/// evaluated in eight-lane arithmetic (tree_far_field.cpp, where the series
/// is written out). The near field of an opened leaf: its sources summed
/// eight at a time with the regularised kernel (biot_savart.h), the
/// contributions added in source order. Built for AVX2 and for the baseline,
/// picked at load time; every lane does the same IEEE operations as the
/// scalar code (no FMA contraction, sim/numerics/simd.h), so both give the
/// same bits as AccumulateVorton one source at a time.

#include <cstdint>

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

/// The treecode's sources in sorted order, one array per component:
/// position (m), α = ωV (m³/s) and core σ² (m²). Each array holds
/// kFarLanes − 1 more entries past the last source (α = 0, σ² = 1 m²), so
/// eight lanes can be read from any source.
struct LeafSources {
    const float* x;
    const float* y;
    const float* z;
    const float* alphaX;
    const float* alphaY;
    const float* alphaZ;
    const float* sigma2;
};

/// Adds to *v the unscaled velocity (4π times m/s) that sources begin .. end−1
/// induce at x (m), added in source order: the same bits as AccumulateVorton
/// over them.
void AddLeafVelocity(const LeafSources& sources, std::uint32_t begin, std::uint32_t end, glm::vec3 x, glm::vec3* v);
/// The same, and to *s the unscaled stretching (∇v)ᵀω (4π times 1/s²), ω
/// (1/s) the vorticity at x.
void AddLeafStretch(const LeafSources& sources, std::uint32_t begin, std::uint32_t end, glm::vec3 x,
                    glm::vec3 omega, glm::vec3* v, glm::vec3* s);

}  // namespace vorton::tree
