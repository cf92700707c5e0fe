#pragma once
/// \file
/// The tracers' dye as a concentration field on a voxel grid fitted to the dye (issue 13,
/// item 1). Each tracer stands for a small volume of dyed fluid; splatting them (trilinear
/// weights, then a [1 2 1]/4 blur along each axis; wider where tracers are sparse) gives a
/// smooth field for the renderer to ray-march. Runs on the CPU with oneTBB and is deterministic: the voxels do not depend on
/// the thread count.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace vorton::render {

/// A box of cubic voxels. Voxel (i, j, k) is centred at origin + ((i, j, k) + 0.5)·spacing;
/// storage is x fastest, then y, then z.
struct VolumeGrid {
    glm::vec3 origin{0.0f};  ///< m: the grid's lower corner, world space
    float spacing = 0.0f;    ///< m: voxel edge
    glm::ivec3 size{0};      ///< voxels along x, y and z

    std::size_t Count() const { return std::size_t(size.x) * std::size_t(size.y) * std::size_t(size.z); }
    bool Empty() const { return size.x <= 0 || size.y <= 0 || size.z <= 0; }
    glm::vec3 Min() const { return origin; }
    glm::vec3 Max() const { return origin + glm::vec3(size) * spacing; }
};

/// Builds and holds the dye field. Not thread-safe; Build may run its own parallel loops.
class DyeVolume {
public:
    struct Settings {
        /// Voxel budget: the grid's spacing grows until it has at most this many voxels.
        std::size_t maxVoxels = 128 * 128 * 128;
        /// Most voxels along any axis (the GL's 3D texture limit).
        int maxAxisVoxels = 512;
        /// Fluid volume one tracer stands for, m³ (FrameInput::tracerVolume); ≤ 0: the dye box's
        /// volume shared among the tracers.
        float tracerVolume = 0.0f;
    };

    /// Fits the grid to the dye and splats it. The box is the 0.1st to 99.9th percentile of the
    /// tracers on each axis (from at most 32768 of them; far strays are dropped) grown by
    /// kPadding voxels (and one more where needed to make each side even). The spacing is at least kSpacingPerTracer tracer spacings (fewer
    /// tracers per voxel would show as noise), within the budget, and rounded up to a power of
    /// 2^(1/8) with the origin on a multiple of it, so the grid stays put from step to step
    /// while the dye's box changes a little. `groups` as FrameInput::tracerGroups; `palette`
    /// RGBA per group (alpha scales the amount of dye); an empty palette is white.
    void Build(std::span<const glm::vec3> positions, std::span<const std::uint16_t> groups,
               std::span<const glm::vec4> palette, const Settings& settings);

    const VolumeGrid& Grid() const { return m_grid; }
    /// Per voxel: rgb = Σ_g c_g·C_g, a = Σ_g C_g, where C_g is the concentration of group g
    /// (1: as dense as the dye was seeded; dimensionless) and c_g its colour.
    std::span<const glm::vec4> Voxels() const { return m_voxels; }
    /// The tracer volume used, m³.
    float TracerVolume() const { return m_tracerVolume; }

    /// Empty voxels kept around the dye's box on every side (the splat and blur spread a
    /// tracer over ±2 voxels, scattered tracers over ±5).
    static constexpr int kPadding = 5;
    /// Smallest voxel edge in units of the tracers' mean spacing (tracerVolume^(1/3)).
    static constexpr float kSpacingPerTracer = 1.1f;
    /// Dye with no body of dye near (no voxel within about 3 holding this many tracers) is
    /// spread over about four voxels more (up to twice this many, a share of it, falling
    /// linearly to none and blended between blocks): scattered tracers show as a faint haze rather than
    /// as separate dots, and bodies keep their edges. The amount of dye is unchanged, except
    /// that the haze fades to nothing across the padding towards the grid's faces (a smoothstep
    /// over kPadding voxels), so the box does not cut it off with a flat face.
    static constexpr float kBodyTracers = 0.4f;

private:
    /// One tracer in grid units, sorted by the plane below it.
    struct Splat {
        float x, y, fz;     // voxel-centre coordinates in x and y; fraction towards plane k0 + 1
        std::uint32_t group;
    };
    void FitGrid(std::span<const glm::vec3> positions, const Settings& settings);
    void SortIntoPlanes(std::span<const glm::vec3> positions, std::span<const std::uint16_t> groups,
                        std::size_t groupCount);
    void AccumulatePlanes(std::span<const glm::vec4> colors);
    void Blur();
    void SpreadSparseDye();

    VolumeGrid m_grid;
    float m_tracerVolume = 0.0f;
    std::vector<glm::vec4> m_voxels;
    std::vector<glm::vec4> m_scratch;
    std::vector<Splat> m_splats;               // sorted by plane
    std::vector<std::uint32_t> m_planeStart;   // m_splats index where each plane's bin starts
    std::vector<std::uint32_t> m_bin;          // per tracer: bin, or kNoBin
    std::vector<std::uint32_t> m_chunkCounts;  // per chunk and bin
    std::vector<char> m_planeHasDye;           // per z plane: some tracer touches it
    std::vector<glm::vec4> m_coarse, m_coarseScratch;  // half resolution, for SpreadSparseDye
    std::vector<float> m_coarsePeak, m_peakScratch;    // densest fine voxel near each coarse one
};

}  // namespace vorton::render
