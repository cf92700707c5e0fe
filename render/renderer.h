#pragma once
/// \file
/// Draws one frame of the demo (issue 13's look): the backdrop, the floor, the rigid spheres,
/// the dye (a lit, self-shadowed volume or lit particles), vortons and bounding box, in linear
/// HDR, then tone-mapped into the bound framebuffer.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "render/dye_lighting.h"
#include "render/dye_volume.h"
#include "render/dynamic_buffer.h"
#include "render/frame_input.h"
#include "render/frame_targets.h"
#include "render/shader_program.h"
#include "render/volume_textures.h"
#include "sim/result.h"

namespace vorton::render {

/// Where the time of the last Draw went, ms (wall clock on the calling thread).
struct RenderTimings {
    double splatMs = 0.0;    ///< tracers into the dye grid, with its blur (0 when not rebuilt)
    double lightMs = 0.0;    ///< the light and sky sweeps (0 when not rebuilt)
    double uploadMs = 0.0;   ///< the 3D textures' upload (0 when not rebuilt)
    /// The march and its blend into the scene; measured only with SetProfiling(true) (which
    /// waits for the GPU around it), else 0.
    double marchMs = 0.0;
    /// The particle mode's tracer pass (particles only); measured only with SetProfiling(true),
    /// else 0.
    double particlesMs = 0.0;
    /// The whole Draw; with profiling, until the GPU is done.
    double drawMs = 0.0;
    VolumeGrid grid;         ///< the dye grid in use
    glm::ivec2 marchSize{0}; ///< pixels the volume is marched at
};

/// Owns the GL programs, buffers and targets for drawing frames. Create and destroy it with
/// the same GL context current; not thread-safe.
class Renderer {
public:
    /// Compiles the shaders found in shaderDir (errors name the file and the GLSL log). Needs a
    /// current GL 3.3 core context with glad loaded (LoadGl); error if GL was not loaded.
    static Result<std::unique_ptr<Renderer>> Create(const std::filesystem::path& shaderDir);
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;
    ~Renderer();  // frees GL objects

    /// Draws the frame into the framebuffer bound at the call, over (0,0)..viewport:
    /// 1. into a multisampled linear-HDR target: the floor (Look::floor) and the spheres
    ///    (opaque, depth-tested), lit by the key light fixed in the world;
    /// 2. in volume mode, the dye ray-marched against that depth (at full or half resolution)
    ///    and laid over it; in particle mode, lit Gaussian sprites as wide as the local tracer
    ///    spacing (read from the dye grid), in depth order by weighted blended order-independent
    ///    transparency (McGuire and Bavoil 2013), then laid over it; then the optional bounding
    ///    box and vortons;
    /// 3. the target resolved, laid over the backdrop and tone-mapped (exposure, filmic curve,
    ///    sRGB) into the caller's framebuffer, every pixel written.
    /// The dye grid is rebuilt (CPU, oneTBB) only when the tracers' version, the palette or the
    /// look's dye settings changed. Leaves GL state as ImGui's backend expects: the caller's
    /// framebuffer bound, no program/VAO bound, depth test, blending and culling off, depth
    /// writes on, texture unit 0 active.
    void Draw(const FrameInput& input);

    /// With profiling on, Draw waits for the GPU around the volume pass and at its end so that
    /// RenderTimings::marchMs and drawMs measure the GPU's work (slower; for measurements).
    void SetProfiling(bool on) { m_profiling = on; }
    const RenderTimings& Timings() const { return m_timings; }

    /// Samples per pixel of the HDR target (the window's and the headless frames' 4).
    static constexpr int kSamples = 4;

private:
    Renderer();
    /// The frame's light and camera, shared by the lit programs (lighting.glsl's uniforms).
    struct Lighting {
        glm::vec3 toLight{0.0f, 0.0f, 1.0f};
        glm::vec3 key{1.0f};                                // key light radiance
        glm::vec3 sky{0.3f};                                // sky radiance
        glm::vec3 backdropTop{0.0f}, backdropBottom{0.0f};  // radiance
        std::vector<glm::vec4> shadowSpheres;               // centre, radius
        glm::mat4 viewProjection{1.0f};
        glm::mat4 inverseViewProjection{1.0f};
        float fogStart = 0.0f;                              // m from the eye
    };
    void UpdateVolume(const FrameInput& input);
    Lighting MakeLighting(const FrameInput& input) const;
    void SetLighting(const ShaderProgram& program, const Lighting& lighting) const;
    void DrawFloor(const FrameInput& input, const Lighting& lighting);
    void DrawSpheres(const FrameInput& input, const Lighting& lighting);
    void DrawVolume(const FrameInput& input, const Lighting& lighting);
    void DrawBounds(const FrameInput& input);
    void DrawTracers(const FrameInput& input, const Lighting& lighting);
    void DrawVortons(const FrameInput& input);
    void Composite(const Lighting& lighting, float exposure, unsigned targetFramebuffer);
    /// Limits drawing to the pixels of a target of `target` pixels that the box [lo, hi] (m)
    /// can cover, grown by `margin` pixels; the whole target when the box reaches behind the
    /// eye. Returns false when the box is wholly off screen.
    bool ScissorToBox(const Lighting& lighting, glm::vec3 lo, glm::vec3 hi, glm::ivec2 target, int margin) const;

    ShaderProgram m_floor;
    ShaderProgram m_march;
    ShaderProgram m_apply;
    ShaderProgram m_composite;
    ShaderProgram m_tracers;
    ShaderProgram m_particleResolve;
    ShaderProgram m_vortons;
    ShaderProgram m_lines;
    ShaderProgram m_spheres;
    unsigned m_emptyVao = 0;
    unsigned m_tracerVao = 0;
    unsigned m_vortonVao = 0;
    unsigned m_lineVao = 0;
    unsigned m_sphereVao = 0;
    unsigned m_sphereVertices = 0;  // static unit-sphere mesh (GL buffer names)
    unsigned m_sphereIndices = 0;
    int m_sphereIndexCount = 0;
    DynamicBuffer m_tracerPositions;
    DynamicBuffer m_tracerGroups;
    // What the tracer buffers hold: version (0: unknown) and element count.
    std::uint64_t m_tracerPositionsVersion = 0;
    std::uint64_t m_tracerGroupsVersion = 0;
    std::size_t m_tracerPositionsCount = 0;
    std::size_t m_tracerGroupsCount = 0;
    DynamicBuffer m_vortonPositions;
    DynamicBuffer m_vortonStrengths;
    DynamicBuffer m_lineVertices;

    FrameTargets m_targets;
    DyeVolume m_dye;
    DyeLighting m_dyeLighting;
    VolumeTextures m_volumeTextures;
    std::vector<glm::vec4> m_linearPalette;
    /// What the volume was last built from (see UpdateVolume); a mismatch rebuilds it.
    struct VolumeKey {
        std::uint64_t positions = 0, groups = 0;
        std::size_t count = 0;
        std::vector<glm::vec4> palette;
        std::vector<glm::vec4> spheres;  // centre, radius: they shadow the dye
        float tracerVolume = 0, extinction = 0, absorption = 0, gamma = 0, azimuth = 0, elevation = 0, key = 0, sky = 0;
        int voxels = 0;
        bool operator==(const VolumeKey&) const = default;
    };
    VolumeKey m_volumeKey;
    int m_max3DTexture = 256;
    bool m_profiling = false;
    RenderTimings m_timings;
};

}  // namespace vorton::render
