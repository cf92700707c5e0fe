// The renderer's set-up and frame sequence; the passes are in renderer_passes.cpp.
#include "render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>

#include "render/sphere_mesh.h"
#include "render/tone_map.h"

namespace vorton::render {
namespace {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "tracer positions are uploaded as-is");

// Enough facets that the silhouette of a sphere filling the screen stays round (at 48 segments
// a 500-pixel radius deviates from the circle by about one pixel).
constexpr int kSphereSegments = 48;  // around the body z axis
constexpr int kSphereRings = 24;     // pole to pole

// The key light is a little warm and the sky a little blue, as outdoors.
constexpr glm::vec3 kKeyTint{1.0f, 0.96f, 0.9f};
constexpr glm::vec3 kSkyTint{0.85f, 0.93f, 1.1f};

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

glm::vec3 KeyRadiance(const Look& look) { return std::max(look.lightIntensity, 0.0f) * kKeyTint; }
glm::vec3 SkyRadiance(const Look& look) { return std::max(look.ambientIntensity, 0.0f) * kSkyTint; }

glm::vec3 ToLight(const Look& look) {
    const float azimuth = glm::radians(look.lightAzimuth);
    const float elevation = glm::radians(std::clamp(look.lightElevation, -89.0f, 89.0f));
    return {std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth),
            std::sin(elevation)};
}

Renderer::Renderer() = default;

Result<std::unique_ptr<Renderer>> Renderer::Create(const std::filesystem::path& shaderDir) {
    if (GLAD_GL_VERSION_3_3 == 0 || glCreateShader == nullptr) {
        return Error{"Renderer: OpenGL 3.3 is not loaded (create a context and call LoadGl first)"};
    }
    std::unique_ptr<Renderer> renderer(new Renderer());
    struct ProgramFiles {
        ShaderProgram* target;
        const char* vertex;
        const char* fragment;
    };
    const ProgramFiles programs[] = {
        {&renderer->m_floor, "fullscreen.vert", "floor.frag"},
        {&renderer->m_march, "fullscreen.vert", "volume_march.frag"},
        {&renderer->m_apply, "fullscreen.vert", "volume_apply.frag"},
        {&renderer->m_composite, "fullscreen.vert", "composite.frag"},
        {&renderer->m_tracers, "tracer.vert", "particle_accumulate.frag"},
        {&renderer->m_particleResolve, "fullscreen.vert", "particle_resolve.frag"},
        {&renderer->m_vortons, "vorton.vert", "sprite.frag"},
        {&renderer->m_lines, "line.vert", "line.frag"},
        {&renderer->m_spheres, "sphere.vert", "sphere.frag"},
    };
    for (const auto& files : programs) {
        auto program = ShaderProgram::Load(shaderDir, files.vertex, files.fragment);
        if (!program) return Error{program.error()};
        *files.target = std::move(program.value());
    }
    // The targets' formats are checked once here, so a GL without them fails at start.
    if (Status s = renderer->m_targets.Prepare({16, 16}, kSamples, 1); !s) return Error{s.error()};
    renderer->m_max3DTexture = Max3DTextureSize();

    // Each VAO remembers which buffer feeds which attribute; DynamicBuffer keeps its GL name
    // when it grows, so this set-up holds for the renderer's lifetime.
    glGenVertexArrays(1, &renderer->m_emptyVao);
    glGenVertexArrays(1, &renderer->m_tracerVao);
    glBindVertexArray(renderer->m_tracerVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_tracerPositions.Id());
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_tracerGroups.Id());
    glVertexAttribIPointer(1, 1, GL_UNSIGNED_SHORT, sizeof(std::uint16_t), nullptr);

    glGenVertexArrays(1, &renderer->m_vortonVao);
    glBindVertexArray(renderer->m_vortonVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_vortonPositions.Id());
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_vortonStrengths.Id());
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(float), nullptr);

    glGenVertexArrays(1, &renderer->m_lineVao);
    glBindVertexArray(renderer->m_lineVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_lineVertices.Id());
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);

    // The sphere mesh never changes: static buffers, the index buffer recorded in the VAO.
    const SphereMesh sphere = UnitSphere(kSphereSegments, kSphereRings);
    static_assert((kSphereSegments + 1) * (kSphereRings + 1) <= 65536, "16-bit indices");
    renderer->m_sphereIndexCount = GLsizei(sphere.indices.size());
    glGenVertexArrays(1, &renderer->m_sphereVao);
    glGenBuffers(1, &renderer->m_sphereVertices);
    glGenBuffers(1, &renderer->m_sphereIndices);
    glBindVertexArray(renderer->m_sphereVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_sphereVertices);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(sphere.vertices.size() * sizeof(glm::vec3)),
                 sphere.vertices.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, renderer->m_sphereIndices);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(sphere.indices.size() * sizeof(std::uint16_t)),
                 sphere.indices.data(), GL_STATIC_DRAW);

    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    return renderer;
}

Renderer::~Renderer() {
    const GLuint vaos[] = {m_emptyVao, m_tracerVao, m_vortonVao, m_lineVao, m_sphereVao};
    glDeleteVertexArrays(5, vaos);
    const GLuint buffers[] = {m_sphereVertices, m_sphereIndices};
    glDeleteBuffers(2, buffers);
}

void Renderer::UpdateVolume(const FrameInput& input) {
    const Look& look = input.look;
    m_linearPalette.clear();
    for (std::size_t g = 0; g < std::min(input.groupColors.size(), kMaxGroups); ++g) {
        const glm::vec4 c = input.groupColors[g];
        m_linearPalette.emplace_back(SrgbDecode(glm::vec3(c)), c.a);
    }
    VolumeKey key{input.tracerPositionsVersion, input.tracerGroupsVersion, input.tracerPositions.size(),
                  m_linearPalette, {}, input.tracerVolume, look.dyeExtinction, look.dyeAbsorption, look.thinDyeGamma,
                  look.lightAzimuth, look.lightElevation, look.lightIntensity, look.ambientIntensity,
                  look.volumeVoxels};
    for (std::size_t i = 0; i < input.spheres.size() && i < kMaxShadowSpheres; ++i) {
        key.spheres.emplace_back(input.spheres[i].center, input.spheres[i].radius);
    }
    const bool fresh = key.positions != 0 && key == m_volumeKey;
    m_timings.splatMs = m_timings.lightMs = m_timings.uploadMs = 0.0;
    if (fresh) return;
    m_volumeKey = std::move(key);
    if (input.tracerPositions.empty()) {
        m_volumeTextures.Clear();
        return;
    }
    auto start = Clock::now();
    DyeVolume::Settings settings;
    settings.maxVoxels = std::size_t(std::clamp(look.volumeVoxels, 4096, 512 * 512 * 512));
    settings.maxAxisVoxels = m_max3DTexture;
    settings.tracerVolume = input.tracerVolume;
    m_dye.Build(input.tracerPositions, input.tracerGroups, m_linearPalette, settings);
    m_timings.splatMs = MsSince(start);
    start = Clock::now();
    DyeOptics optics;
    optics.extinction = look.dyeExtinction;
    optics.absorption = std::max(look.dyeAbsorption, 1.0f);
    optics.thinDyeGamma = std::clamp(look.thinDyeGamma, 0.1f, 1.0f);
    optics.toLight = ToLight(look);
    optics.keyRadiance = KeyRadiance(look);
    optics.skyRadiance = SkyRadiance(look);
    optics.spheres = m_volumeKey.spheres;
    m_dyeLighting.Build(m_dye, optics);
    m_timings.lightMs = MsSince(start);
    start = Clock::now();
    m_volumeTextures.Upload(m_dye.Grid(), m_dyeLighting, true);  // particles read its concentration
    m_timings.uploadMs = MsSince(start);
}

void Renderer::Draw(const FrameInput& input) {
    const auto start = Clock::now();
    GLint target = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
    const glm::ivec2 viewport = glm::max(input.view.viewport, glm::ivec2(1));
    const bool volume = input.look.dye == DyeStyle::Volume;
    const Status prepared = m_targets.Prepare(viewport, kSamples, volume && input.look.halfResolution ? 2 : 1);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(target));
    glViewport(0, 0, viewport.x, viewport.y);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    if (!prepared) {  // no HDR target (cannot happen on a GL that passed Create): a black frame
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        return;
    }
    UpdateVolume(input);
    m_timings.grid = m_volumeTextures.Grid();
    m_timings.marchSize = m_targets.MarchSize();
    const Lighting lighting = MakeLighting(input);

    m_targets.BindScene();
    glClearDepth(1.0);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);  // nothing drawn: the backdrop, added by Composite
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    if (input.look.floor) DrawFloor(input, lighting);
    if (!input.spheres.empty()) DrawSpheres(input, lighting);
    m_timings.marchMs = 0.0;
    if (volume && m_volumeTextures.HasMedium()) DrawVolume(input, lighting);

    // Blended things test against the spheres and the floor but write no depth. The particles
    // are weighted blended (order-independent); the bounds and vortons after them plainly.
    glDepthMask(GL_FALSE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    m_timings.particlesMs = 0.0;
    if (!volume && !input.tracerPositions.empty()) {
        if (m_profiling) glFinish();  // the scene's passes are not the particles'
        const auto particlesStart = Clock::now();
        DrawTracers(input, lighting);
        if (m_profiling) {
            glFinish();
            m_timings.particlesMs = MsSince(particlesStart);
        }
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // shaders output premultiplied alpha
    if (input.showBounds) DrawBounds(input);
    if (input.showVortons && !input.vortonPositions.empty()) DrawVortons(input);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);

    m_targets.ResolveColor();
    Composite(lighting, input.look.exposure, GLuint(target));

    // Leave the state Dear ImGui's OpenGL3 backend (and most code) assumes.
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(target));
    glViewport(0, 0, viewport.x, viewport.y);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    if (m_profiling) glFinish();
    m_timings.drawMs = MsSince(start);
}

bool Renderer::ScissorToBox(const Lighting& lighting, glm::vec3 lo, glm::vec3 hi, glm::ivec2 target,
                            int margin) const {
    glm::vec2 first(1.0f), last(-1.0f);  // normalised device coordinates
    for (int c = 0; c < 8; ++c) {
        const glm::vec3 corner((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z);
        const glm::vec4 clip = lighting.viewProjection * glm::vec4(corner, 1.0f);
        if (clip.w <= 1e-4f) {  // behind the eye: anything may be covered
            glDisable(GL_SCISSOR_TEST);
            return true;
        }
        first = glm::min(first, glm::vec2(clip) / clip.w);
        last = glm::max(last, glm::vec2(clip) / clip.w);
    }
    first = glm::max(first, glm::vec2(-1.0f));
    last = glm::min(last, glm::vec2(1.0f));
    if (first.x >= last.x || first.y >= last.y) return false;
    const glm::vec2 size(target);
    const glm::ivec2 from = glm::max(glm::ivec2(glm::floor((first * 0.5f + 0.5f) * size)) - margin, glm::ivec2(0));
    const glm::ivec2 to = glm::min(glm::ivec2(glm::ceil((last * 0.5f + 0.5f) * size)) + margin, target);
    glEnable(GL_SCISSOR_TEST);
    glScissor(from.x, from.y, to.x - from.x, to.y - from.y);
    return true;
}

void Renderer::Composite(const Lighting& lighting, float exposure, unsigned targetFramebuffer) {
    glBindFramebuffer(GL_FRAMEBUFFER, targetFramebuffer);
    const glm::ivec2 size = m_targets.Size();
    glViewport(0, 0, size.x, size.y);
    glUseProgram(m_composite.Id());
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D, m_targets.ColorTexture());
    glUniform1i(m_composite.Uniform("uScene"), 3);
    glUniform3fv(m_composite.Uniform("uBackdropTop"), 1, glm::value_ptr(lighting.backdropTop));
    glUniform3fv(m_composite.Uniform("uBackdropBottom"), 1, glm::value_ptr(lighting.backdropBottom));
    glUniform1f(m_composite.Uniform("uExposure"), exposure > 0.0f ? exposure : 1.0f);
    glBindVertexArray(m_emptyVao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace vorton::render
