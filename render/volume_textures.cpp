#include "render/volume_textures.h"

#include <glad/gl.h>

#include <algorithm>

#include <glm/gtc/packing.hpp>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace vorton::render {
namespace {

GLuint Texture3D() {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_3D, texture);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    // Beyond the grid there is no dye and full light; the grid's padding makes its faces so.
    for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R}) {
        glTexParameteri(GL_TEXTURE_3D, wrap, GL_CLAMP_TO_EDGE);
    }
    glBindTexture(GL_TEXTURE_3D, 0);
    return texture;
}

// Floats to halves, round to nearest: with the CPU's F16C instructions eight at a time when it has
// them (every x86-64 CPU since 2013), else glm's portable conversion.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx,f16c"))) void ToHalvesF16c(const float* in, std::uint16_t* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; ++i) out[i] = std::uint16_t(glm::packHalf1x16(in[i]));
}
bool HasF16c() { return __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx"); }
#else
void ToHalvesF16c(const float*, std::uint16_t*, std::size_t) {}
bool HasF16c() { return false; }
#endif

void ToHalves(const float* in, std::uint16_t* out, std::size_t n) {
    static const bool f16c = HasF16c();
    if (f16c) {
        ToHalvesF16c(in, out, n);
    } else {
        for (std::size_t i = 0; i < n; ++i) out[i] = std::uint16_t(glm::packHalf1x16(in[i]));
    }
}

}  // namespace

int Max3DTextureSize() {
    GLint size = 256;
    glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &size);
    return std::max<int>(size, 16);
}

VolumeTextures::VolumeTextures() : m_medium(Texture3D()), m_light(Texture3D()) {}

VolumeTextures::~VolumeTextures() {
    const GLuint textures[] = {m_medium, m_light};
    glDeleteTextures(2, textures);
}

void VolumeTextures::Upload(const VolumeGrid& grid, const DyeLighting& lighting, bool uploadMedium) {
    m_grid = grid;
    if (m_grid.Empty()) return;
    const glm::ivec3 n = m_grid.size;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (uploadMedium) {
        // Halves converted here, in parallel, rather than by the driver on one thread.
        const auto voxels = lighting.Medium();
        m_half.resize(voxels.size());
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, voxels.size(), 65536), [&](const auto& r) {
            ToHalves(&voxels[r.begin()].x, reinterpret_cast<std::uint16_t*>(&m_half[r.begin()]), 4 * r.size());
        });
        glBindTexture(GL_TEXTURE_3D, m_medium);
        if (m_mediumSize != n) {
            glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA16F, n.x, n.y, n.z, 0, GL_RGBA, GL_HALF_FLOAT, m_half.data());
            m_mediumSize = n;
        } else {
            glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, n.x, n.y, n.z, GL_RGBA, GL_HALF_FLOAT, m_half.data());
        }
    } else {
        m_mediumSize = glm::ivec3(0);  // stale: HasMedium() is false
    }
    glBindTexture(GL_TEXTURE_3D, m_light);
    const void* packed = lighting.Packed().data();
    const glm::ivec3 nl = lighting.LightGrid().size;
    if (m_lightSize != nl) {
        glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, nl.x, nl.y, nl.z, 0, GL_RGBA, GL_UNSIGNED_BYTE, packed);
        m_lightSize = nl;
    } else {
        glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, nl.x, nl.y, nl.z, GL_RGBA, GL_UNSIGNED_BYTE, packed);
    }
    glBindTexture(GL_TEXTURE_3D, 0);
}

void VolumeTextures::Bind(int mediumUnit, int lightUnit) const {
    glActiveTexture(GLenum(GL_TEXTURE0 + mediumUnit));
    glBindTexture(GL_TEXTURE_3D, m_medium);
    glActiveTexture(GLenum(GL_TEXTURE0 + lightUnit));
    glBindTexture(GL_TEXTURE_3D, m_light);
    glActiveTexture(GL_TEXTURE0);
}

}  // namespace vorton::render
