#pragma once
/// \file
/// How much light reaches each voxel of the dye volume (issue 13, item 1: self-shadowing):
/// the transmittance towards the key light, per colour channel, and the share of the sky
/// that is not hidden by dye above. Both come from sweeps through the grid, plane by plane
/// away from the light, so the cost is one pass over the voxels (no march per voxel). From
/// them, the lit medium the renderer marches: per voxel the light the dye scatters per metre
/// and its extinction, so the march needs one texture fetch per step.

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "render/dye_volume.h"

namespace vorton::render {

/// The dye's optical properties (Look::dyeExtinction, Look::dyeAbsorption) and the light.
struct DyeOptics {
    /// Extinction at concentration 1, 1/m.
    float extinction = 40.0f;
    /// Absorption of the colours a dye does not show, relative to scattering (≥ 1).
    float absorption = 2.0f;
    /// Unit vector towards the key light, world space.
    glm::vec3 toLight{0.0f, 0.0f, 1.0f};
    /// The sky's light comes from a whole hemisphere: dye above dims it by
    /// exp(-skyShare · optical depth straight up).
    float skyShare = 0.5f;
    /// Key light and sky radiance, linear RGB.
    glm::vec3 keyRadiance{3.0f};
    glm::vec3 skyRadiance{0.35f};
    /// Spheres (centre, radius; m) that shadow the dye from the key light.
    std::span<const glm::vec4> spheres;

    /// Concentrations are shown as C^thinDyeGamma (≤ 1 lifts thin dye: wakes and tendrils of a
    /// few per cent show, dye as dense as seeded is unchanged; 1: as is).
    float thinDyeGamma = 1.0f;

    /// A voxel of DyeVolume::Voxels() with its concentration C (a) taken to C^thinDyeGamma and
    /// its colour-weighted concentrations (rgb) scaled alike.
    glm::vec4 Shown(const glm::vec4& voxel) const {
        if (thinDyeGamma == 1.0f || voxel.a <= 0.0f) return voxel;
        return voxel * (std::pow(voxel.a, thinDyeGamma) / voxel.a);
    }

    /// Extinction per channel of a (Shown) voxel, 1/m:
    /// extinction·(absorption·C + (1 - absorption)·Σ c·C), never negative.
    glm::vec3 Extinction(const glm::vec4& voxel) const {
        return glm::max(extinction * (absorption * voxel.a + (1.0f - absorption) * glm::vec3(voxel)),
                        glm::vec3(0.0f));
    }
};

/// Transmittance towards the key light and sky visibility, on a grid of half the dye grid's
/// resolution over the same box (light varies smoothly; 8x fewer voxels to sweep), and the lit
/// medium at the dye grid's full resolution.
class DyeLighting {
public:
    /// Sweeps `dye` averaged 2x2x2 (the dye grid's sides are even, so both grids cover the same
    /// box). Each light voxel's transmittance is the previous plane's (nearer the light)
    /// interpolated where the light ray crosses it, times exp(-σ·Δs) over the step between the
    /// planes (trapezoid rule); the sky visibility sweeps straight down with a [1 2 1] spread so
    /// shadows from above are soft. Then the medium, trilinear in the light grid. Deterministic.
    void Build(const DyeVolume& dye, const DyeOptics& optics);

    /// The grid of Packed(): half the dye grid's voxels per side, twice its spacing.
    const VolumeGrid& LightGrid() const { return m_light; }
    /// Per light voxel, RGBA8 packed in a uint32 (r in the low byte): rgb = sqrt(transmittance
    /// to the key light), a = sqrt(sky visibility); the square root keeps precision in deep
    /// shadow. Spheres are not in it (surfaces add their shadows themselves).
    std::span<const std::uint32_t> Packed() const { return m_packed; }
    /// Per dye voxel, the lit medium: rgb = radiance scattered towards any direction per metre,
    /// extinction·Σ c·C ⊙ (key ⊙ T_key·sphere shadow + sky·visibility) (isotropic scattering,
    /// the dye's colour as its albedo), in render units per m; a = extinction·Σ C, 1/m.
    std::span<const glm::vec4> Medium() const { return m_medium; }
    /// The unpacked transmittance towards the key light in the light voxel holding world point
    /// p (m; clamped into the grid), for tests.
    glm::vec3 KeyTransmittance(glm::vec3 p) const;
    /// The unpacked sky visibility there, 0..1.
    float SkyVisibility(glm::vec3 p) const;

private:
    void Downsample(const DyeVolume& dye, const DyeOptics& optics);
    void SweepSky(const DyeOptics& optics);
    void SweepKey(const DyeOptics& optics);
    void LightMedium(const DyeVolume& dye, const DyeOptics& optics);
    std::size_t LightIndex(glm::vec3 p) const;

    VolumeGrid m_light;
    std::vector<glm::vec4> m_coarse;  // the dye averaged onto the light grid
    std::vector<float> m_sky;         // visibility per light voxel
    std::vector<glm::vec3> m_key;     // transmittance per light voxel
    std::vector<std::uint32_t> m_packed;
    std::vector<glm::vec4> m_medium;
};

}  // namespace vorton::render
