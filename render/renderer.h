#pragma once
/// \file
/// Draws one frame of the demo: background, rigid spheres, tracer particles, vortons, bounding
/// box.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include <glm/glm.hpp>

#include "render/dynamic_buffer.h"
#include "render/shader_program.h"
#include "sim/result.h"

namespace vorton::render {

/// Background gradient colours (linear RGB 0..1), top and bottom of the viewport.
inline constexpr glm::vec3 kBackgroundTop{0.105f, 0.125f, 0.165f};
inline constexpr glm::vec3 kBackgroundBottom{0.012f, 0.013f, 0.018f};
/// Most dye groups FrameInput::groupColors can hold; extra entries are ignored.
inline constexpr std::size_t kMaxGroups = 64;

/// Camera matrices for one frame.
struct SceneView {
    glm::mat4 view{1.0f};        ///< world -> view
    glm::mat4 projection{1.0f};  ///< view -> clip (perspective; projection[1][1] sets sprite size)
    glm::vec3 eye{0.0f};         ///< camera position, m
    glm::ivec2 viewport{1, 1};   ///< pixels; Draw() renders into (0,0)..viewport
};

/// A rigid sphere to draw: lit, opaque, with a surface pattern fixed in the
/// body so that its rotation shows.
struct SphereInstance {
    glm::vec3 center{0.0f};    ///< m, world space
    float radius = 0.1f;       ///< m
    glm::mat3 rotation{1.0f};  ///< body → world
    glm::vec3 color{0.9f};     ///< linear RGB 0..1
    bool highlight = false;    ///< hovered or grabbed: drawn brighter with a rim
};

/// What to draw; spans are read during Draw() only (no ownership).
struct FrameInput {
    SceneView view;
    /// m, world space, z up.
    std::span<const glm::vec3> tracerPositions;
    /// Per tracer, index into groupColors (same length as tracerPositions). If empty or shorter,
    /// every tracer uses group 0. Indices past the palette use its last colour.
    std::span<const std::uint16_t> tracerGroups;
    /// Names the contents of tracerPositions (and of tracerGroups): when non-zero and equal to
    /// the previous Draw's, with the same length, the buffer uploaded then is drawn again and
    /// the span is not read. 0: upload every Draw.
    std::uint64_t tracerPositionsVersion = 0;
    std::uint64_t tracerGroupsVersion = 0;
    /// RGBA dye colour per group, up to kMaxGroups entries; alpha scales opacity. Empty: pale grey.
    std::span<const glm::vec4> groupColors;
    float tracerSize = 0.006f;    ///< world-space diameter of a tracer sprite, m
    float tracerOpacity = 0.35f;  ///< 0..1 per sprite; overlapping sprites build up density
    bool showVortons = false;
    std::span<const glm::vec3> vortonPositions;  ///< m
    /// |vorticity| per vorton, 1/s, coloured relative to the largest (may be empty: one colour).
    std::span<const float> vortonStrength;
    float vortonSize = 0.02f;  ///< m
    /// Rigid spheres; they hide the tracers behind them.
    std::span<const SphereInstance> spheres;
    bool showBounds = false;
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};  ///< axis-aligned box drawn as 12 lines, m
};

/// Owns the GL programs and buffers for drawing frames. Create and destroy it with the same
/// GL context current; not thread-safe.
class Renderer {
public:
    /// Compiles the shaders found in shaderDir (errors name the file and the GLSL log). Needs a
    /// current GL 3.3 core context with glad loaded (LoadGl); error if GL was not loaded.
    static Result<std::unique_ptr<Renderer>> Create(const std::filesystem::path& shaderDir);
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;
    ~Renderer();  // frees GL objects

    /// Into the bound framebuffer (which needs a depth buffer for the spheres to hide what is
    /// behind them): clears depth, draws a dark vertical gradient background, then the spheres
    /// (opaque, lit, body-fixed stripes; depth tested and written), then the optional bounding
    /// box, tracers (soft round point sprites, world-size with perspective, coloured by group)
    /// and optional vortons, blended and depth tested so the spheres hide what is behind them;
    /// sprites write no depth, so they never hide each other. Uploads each span at most once per
    /// call, the tracers only when their version changed (FrameInput::tracerPositionsVersion).
    /// Leaves GL state as ImGui's backend expects: no program/VAO bound, depth test, blending and
    /// face culling off, depth writes on.
    void Draw(const FrameInput& input);

private:
    Renderer();
    void DrawBackground();
    void DrawSpheres(const FrameInput& input, const glm::mat4& viewProjection);
    void DrawBounds(const FrameInput& input, const glm::mat4& viewProjection);
    void DrawTracers(const FrameInput& input, float pointScale);
    void DrawVortons(const FrameInput& input, float pointScale);

    ShaderProgram m_background;
    ShaderProgram m_tracers;
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
};

}  // namespace vorton::render
