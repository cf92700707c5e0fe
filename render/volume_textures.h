#pragma once
/// \file
/// The dye volume on the GPU: two 3D textures over the same box, the lit medium the volume
/// pass marches (RGBA16F, DyeLighting::Medium(), the dye grid) and the light that surfaces and
/// particles read (RGBA8, DyeLighting::Packed(), the light grid at half its resolution).

#include <cstdint>
#include <vector>

#include "render/dye_lighting.h"

namespace vorton::render {

/// Owns the two textures. Needs the creating GL context current; not thread-safe.
class VolumeTextures {
public:
    VolumeTextures();
    VolumeTextures(const VolumeTextures&) = delete;
    VolumeTextures& operator=(const VolumeTextures&) = delete;
    ~VolumeTextures();

    /// Replaces the textures' contents (reallocating when the grid's size changed). With
    /// `uploadMedium` false only the light is uploaded (particle mode marches nothing).
    void Upload(const VolumeGrid& grid, const DyeLighting& lighting, bool uploadMedium);
    /// Forgets the contents: HasVolume() is false until the next Upload.
    void Clear() { m_grid = VolumeGrid{}; }
    /// Binds the medium to texture unit `mediumUnit` and the light to `lightUnit`.
    void Bind(int mediumUnit, int lightUnit) const;
    const VolumeGrid& Grid() const { return m_grid; }
    bool HasVolume() const { return !m_grid.Empty(); }
    bool HasMedium() const { return HasVolume() && m_mediumSize == m_grid.size; }

private:
    VolumeGrid m_grid;
    glm::ivec3 m_mediumSize{0};  // allocated size of each texture
    glm::ivec3 m_lightSize{0};
    unsigned m_medium = 0;
    unsigned m_light = 0;
    std::vector<std::uint64_t> m_half;  // RGBA16F staging: four halves per voxel
};

/// GL's largest 3D texture side (at least 256 by the GL 3.3 spec).
int Max3DTextureSize();

}  // namespace vorton::render
