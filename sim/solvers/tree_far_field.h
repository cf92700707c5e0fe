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

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

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

/// Owns the seven padded rows a LeafSources views: Assign(n) sizes them for
/// n sources and writes only the padding (α = 0, σ² = 1 m²); Set fills
/// source i. The treecode keeps its sorted sources here, and the tests build
/// their leaves the same way.
class LeafSourceRows {
public:
    /// Sizes the rows for n sources; the sources' own entries are left as
    /// they were (Set writes them), the kFarLanes − 1 padding entries are set.
    void Assign(std::size_t n) {
        m_count = n;
        m_stride = n + kFarLanes - 1;
        m_rows.resize(kRows * m_stride);
        for (int row = 0; row < kRows; ++row) {
            std::fill_n(m_rows.begin() + row * m_stride + n, kFarLanes - 1, row == kSigma2 ? 1.0f : 0.0f);
        }
    }
    /// Source i (i < size()): position (m), α (m³/s), σ² (m²).
    void Set(std::size_t i, glm::vec3 position, glm::vec3 alpha, float sigma2) {
        assert(i < m_count);
        float* entry = m_rows.data() + i;
        for (int a = 0; a < 3; ++a) {
            entry[(kX + a) * m_stride] = position[a];
            entry[(kAlphaX + a) * m_stride] = alpha[a];
        }
        entry[kSigma2 * m_stride] = sigma2;
    }
    std::size_t size() const { return m_count; }
    glm::vec3 Position(std::size_t k) const { return {Row(kX)[k], Row(kY)[k], Row(kZ)[k]}; }
    glm::vec3 Alpha(std::size_t k) const { return {Row(kAlphaX)[k], Row(kAlphaY)[k], Row(kAlphaZ)[k]}; }
    float Sigma2(std::size_t k) const { return Row(kSigma2)[k]; }
    LeafSources View() const {
        return {Row(kX), Row(kY), Row(kZ), Row(kAlphaX), Row(kAlphaY), Row(kAlphaZ), Row(kSigma2)};
    }

private:
    enum RowIndex { kX, kY, kZ, kAlphaX, kAlphaY, kAlphaZ, kSigma2, kRows };
    const float* Row(int row) const { return m_rows.data() + row * m_stride; }
    std::vector<float> m_rows;
    std::size_t m_count = 0, m_stride = 0;
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
