// The renderer's passes: backdrop, floor, spheres, the dye volume, sprites, lines, and the
// lighting they share (lighting.glsl's uniforms).
#include "render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <glm/gtc/type_ptr.hpp>

#include "render/tone_map.h"

namespace vorton::render {
namespace {

constexpr glm::vec4 kDefaultDye{0.85f, 0.87f, 0.9f, 1.0f};
constexpr glm::vec4 kBoundsColor{0.75f, 0.8f, 0.88f, 0.45f};
constexpr float kVortonEdge = 0.6f;       // crisper discs so vortons stand out from the dye
// A vorton with no strength data still gets a mid-warm colour.
constexpr float kDefaultStrength = 0.6f;
// Floor: a mid grey with lighter lines; fades out beyond a few dye boxes.
constexpr glm::vec3 kFloorAlbedo{0.04f, 0.042f, 0.045f};
constexpr glm::vec3 kFloorLineAlbedo{0.075f, 0.078f, 0.082f};
constexpr float kMinFadeRadius = 4.0f;  // m
constexpr float kFadeBoxes = 3.0f;      // fade radius in dye-box sizes, when larger

// Units the shared textures go to.
constexpr int kLightUnit = 0, kDyeUnit = 1, kDepthUnit = 2, kRadianceUnit = 3, kTransmittanceUnit = 4;

GLsizei Count(std::size_t n) { return static_cast<GLsizei>(n); }

// The 12 edges of the box as 24 line endpoints.
std::array<glm::vec3, 24> BoxEdges(const glm::vec3& lo, const glm::vec3& hi) {
    const auto corner = [&](int i) {
        return glm::vec3((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    };
    std::array<glm::vec3, 24> lines{};
    std::size_t n = 0;
    for (int i = 0; i < 8; ++i) {
        for (int axisBit : {1, 2, 4}) {
            if ((i & axisBit) == 0) {
                lines[n++] = corner(i);
                lines[n++] = corner(i | axisBit);
            }
        }
    }
    return lines;
}

}  // namespace

Renderer::Lighting Renderer::MakeLighting(const FrameInput& input) const {
    const Look& look = input.look;
    Lighting lighting;
    lighting.toLight = ToLight(look);
    lighting.key = KeyRadiance(look);
    lighting.sky = SkyRadiance(look);
    const BackdropColors backdrop = DisplayBackdrop(look.backdrop);
    const float exposure = look.exposure > 0.0f ? look.exposure : 1.0f;
    lighting.backdropTop = RadianceForDisplay(backdrop.top, exposure);
    lighting.backdropBottom = RadianceForDisplay(backdrop.bottom, exposure);
    for (std::size_t i = 0; i < input.spheres.size() && i < kMaxShadowSpheres; ++i) {
        lighting.shadowSpheres.emplace_back(input.spheres[i].center, input.spheres[i].radius);
    }
    lighting.viewProjection = input.view.projection * input.view.view;
    lighting.inverseViewProjection = glm::inverse(lighting.viewProjection);
    // Fog starts at the dye's near side (or 2 m without dye) so the subject stays clear.
    const VolumeGrid& grid = m_volumeTextures.Grid();
    if (m_volumeTextures.HasVolume()) {
        const glm::vec3 centre = 0.5f * (grid.Min() + grid.Max());
        lighting.fogStart = std::max(0.0f, glm::length(centre - input.view.eye) -
                                               0.5f * glm::length(grid.Max() - grid.Min()));
    } else {
        lighting.fogStart = 2.0f;
    }
    return lighting;
}

void Renderer::SetLighting(const ShaderProgram& p, const Lighting& lighting) const {
    glUniform3fv(p.Uniform("uToLight"), 1, glm::value_ptr(lighting.toLight));
    glUniform3fv(p.Uniform("uKeyRadiance"), 1, glm::value_ptr(lighting.key));
    glUniform3fv(p.Uniform("uSkyRadiance"), 1, glm::value_ptr(lighting.sky));
    glUniform1i(p.Uniform("uLightVolume"), kLightUnit);
    glUniform1i(p.Uniform("uHasVolume"), m_volumeTextures.HasVolume() ? 1 : 0);
    const VolumeGrid& grid = m_volumeTextures.Grid();
    glUniform3fv(p.Uniform("uGridMin"), 1, glm::value_ptr(grid.Min()));
    glUniform3fv(p.Uniform("uGridMax"), 1, glm::value_ptr(grid.Max()));
    glUniform1i(p.Uniform("uShadowSphereCount"), GLint(lighting.shadowSpheres.size()));
    if (!lighting.shadowSpheres.empty()) {
        glUniform4fv(p.Uniform("uShadowSpheres"), Count(lighting.shadowSpheres.size()),
                     glm::value_ptr(lighting.shadowSpheres.front()));
    }
    glUniform3fv(p.Uniform("uBackdropTop"), 1, glm::value_ptr(lighting.backdropTop));
    glUniform3fv(p.Uniform("uBackdropBottom"), 1, glm::value_ptr(lighting.backdropBottom));
    glUniform1f(p.Uniform("uViewportHeight"), float(m_targets.Size().y));
    glUniform1f(p.Uniform("uFog"), 0.0f);
    glUniform1f(p.Uniform("uFogStart"), lighting.fogStart);
}

void Renderer::DrawFloor(const FrameInput& input, const Lighting& lighting) {
    glUseProgram(m_floor.Id());
    SetLighting(m_floor, lighting);
    glUniform1f(m_floor.Uniform("uFog"), std::max(input.look.fog, 0.0f));
    m_volumeTextures.Bind(kDyeUnit, kLightUnit);
    glUniformMatrix4fv(m_floor.Uniform("uInverseViewProjection"), 1, GL_FALSE,
                       glm::value_ptr(lighting.inverseViewProjection));
    glUniformMatrix4fv(m_floor.Uniform("uViewProjection"), 1, GL_FALSE, glm::value_ptr(lighting.viewProjection));
    glUniform3fv(m_floor.Uniform("uEye"), 1, glm::value_ptr(input.view.eye));
    glUniform1f(m_floor.Uniform("uHeight"), input.look.floorHeight);
    // Centred under the dye (else under the eye), opaque out to a few times its size.
    glm::vec2 centre(input.view.eye);
    float radius = kMinFadeRadius;
    if (m_volumeTextures.HasVolume()) {
        const VolumeGrid& grid = m_volumeTextures.Grid();
        centre = glm::vec2(0.5f * (grid.Min() + grid.Max()));
        radius = std::max(radius, kFadeBoxes * glm::length(grid.Max() - grid.Min()));
    }
    glUniform2fv(m_floor.Uniform("uFadeCenter"), 1, glm::value_ptr(centre));
    glUniform1f(m_floor.Uniform("uFadeRadius"), radius);
    glUniform3fv(m_floor.Uniform("uAlbedo"), 1, glm::value_ptr(kFloorAlbedo));
    glUniform3fv(m_floor.Uniform("uLineAlbedo"), 1, glm::value_ptr(kFloorLineAlbedo));
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(m_emptyVao);
    // Only where the faded disc of the floor can be.
    const glm::vec3 reach(radius, radius, 0.0f), base(centre, input.look.floorHeight);
    if (ScissorToBox(lighting, base - reach, base + reach, m_targets.Size(), 1)) glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
}

void Renderer::DrawSpheres(const FrameInput& input, const Lighting& lighting) {
    glUseProgram(m_spheres.Id());
    SetLighting(m_spheres, lighting);
    glUniform1f(m_spheres.Uniform("uFog"), std::max(input.look.fog, 0.0f));
    m_volumeTextures.Bind(kDyeUnit, kLightUnit);
    glUniformMatrix4fv(m_spheres.Uniform("uViewProjection"), 1, GL_FALSE, glm::value_ptr(lighting.viewProjection));
    glUniform3fv(m_spheres.Uniform("uEye"), 1, glm::value_ptr(input.view.eye));
    // Closed convex meshes: the back half is always hidden, so skip shading it.
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glBindVertexArray(m_sphereVao);
    for (const SphereInstance& sphere : input.spheres) {
        glUniform3fv(m_spheres.Uniform("uCenter"), 1, glm::value_ptr(sphere.center));
        glUniform1f(m_spheres.Uniform("uRadius"), sphere.radius);
        glUniformMatrix3fv(m_spheres.Uniform("uRotation"), 1, GL_FALSE, glm::value_ptr(sphere.rotation));
        glUniform3fv(m_spheres.Uniform("uColor"), 1, glm::value_ptr(sphere.color));
        glUniform1f(m_spheres.Uniform("uHighlight"), sphere.highlight ? 1.0f : 0.0f);
        glDrawElements(GL_TRIANGLES, m_sphereIndexCount, GL_UNSIGNED_SHORT, nullptr);
    }
    glDisable(GL_CULL_FACE);
}

void Renderer::DrawVolume(const FrameInput& input, const Lighting& lighting) {
    if (m_profiling) glFinish();  // the scene's passes are not the volume's
    const auto start = std::chrono::steady_clock::now();
    const Look& look = input.look;
    glDisable(GL_DEPTH_TEST);
    m_targets.ResolveDepth();
    m_targets.BindMarch();
    glUseProgram(m_march.Id());
    SetLighting(m_march, lighting);
    glUniform1f(m_march.Uniform("uFog"), std::max(look.fog, 0.0f));
    m_volumeTextures.Bind(kDyeUnit, kLightUnit);
    glActiveTexture(GL_TEXTURE0 + kDepthUnit);
    glBindTexture(GL_TEXTURE_2D, m_targets.DepthTexture());
    glUniform1i(m_march.Uniform("uMedium"), kDyeUnit);
    glUniform1i(m_march.Uniform("uDepth"), kDepthUnit);
    glUniformMatrix4fv(m_march.Uniform("uInverseViewProjection"), 1, GL_FALSE,
                       glm::value_ptr(lighting.inverseViewProjection));
    glUniform3fv(m_march.Uniform("uEye"), 1, glm::value_ptr(input.view.eye));
    const float step = std::clamp(look.marchStep, 0.25f, 4.0f) * m_volumeTextures.Grid().spacing;
    glUniform1f(m_march.Uniform("uStep"), step);
    glBindVertexArray(m_emptyVao);
    // Only the pixels the grid covers: the march and the blend over the scene cost per pixel.
    // The march covers a wider margin than the blend reads (the upsampling reads neighbours,
    // and llvmpipe's multisampled scissor lets a sample of the column left of the rectangle in).
    const VolumeGrid& grid = m_volumeTextures.Grid();
    const bool onScreen = ScissorToBox(lighting, grid.Min(), grid.Max(), m_targets.MarchSize(), 3);
    if (onScreen) glDrawArrays(GL_TRIANGLES, 0, 3);

    // Over the scene: colour = radiance + transmittance · colour (dual-source blending).
    m_targets.BindScene();
    glUseProgram(m_apply.Id());
    glActiveTexture(GL_TEXTURE0 + kRadianceUnit);
    glBindTexture(GL_TEXTURE_2D, m_targets.MarchRadiance());
    glActiveTexture(GL_TEXTURE0 + kTransmittanceUnit);
    glBindTexture(GL_TEXTURE_2D, m_targets.MarchTransmittance());
    glUniform1i(m_apply.Uniform("uRadiance"), kRadianceUnit);
    glUniform1i(m_apply.Uniform("uTransmittance"), kTransmittanceUnit);
    glUniform1i(m_apply.Uniform("uDepth"), kDepthUnit);
    glUniformMatrix4fv(m_apply.Uniform("uInverseViewProjection"), 1, GL_FALSE,
                       glm::value_ptr(lighting.inverseViewProjection));
    glUniform3fv(m_apply.Uniform("uEye"), 1, glm::value_ptr(input.view.eye));
    glUniform2f(m_apply.Uniform("uMarchSize"), float(m_targets.MarchSize().x), float(m_targets.MarchSize().y));
    glUniform1i(m_apply.Uniform("uHalfResolution"), m_targets.MarchSize() != m_targets.Size() ? 1 : 0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_SRC1_COLOR);
    if (onScreen) {
        ScissorToBox(lighting, grid.Min(), grid.Max(), m_targets.Size(), 1);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glActiveTexture(GL_TEXTURE0);
    if (m_profiling) {
        glFinish();
        m_timings.marchMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
}

void Renderer::DrawBounds(const FrameInput& input) {
    const auto lines = BoxEdges(input.boundsMin, input.boundsMax);
    glUseProgram(m_lines.Id());
    const glm::mat4 viewProjection = input.view.projection * input.view.view;
    glUniformMatrix4fv(m_lines.Uniform("uViewProjection"), 1, GL_FALSE, glm::value_ptr(viewProjection));
    const glm::vec4 color(SrgbDecode(glm::vec3(kBoundsColor)), kBoundsColor.a);
    glUniform4fv(m_lines.Uniform("uColor"), 1, glm::value_ptr(color));
    glBindVertexArray(m_lineVao);
    m_lineVertices.Upload(lines.data(), sizeof(lines));
    glDrawArrays(GL_LINES, 0, Count(lines.size()));
}

void Renderer::DrawTracers(const FrameInput& input, const Lighting& lighting) {
    // Into the particle targets, tested against the floor's and the spheres' depth.
    m_targets.ResolveDepth();
    m_targets.BindParticles();
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glEnable(GL_BLEND);
    // One blend function for both targets (GL 3.3): rgb adds, alpha multiplies by 1 - alpha.
    glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(m_tracers.Id());
    SetLighting(m_tracers, lighting);
    glUniform1f(m_tracers.Uniform("uFog"), std::max(input.look.fog, 0.0f));
    m_volumeTextures.Bind(kDyeUnit, kLightUnit);
    glUniformMatrix4fv(m_tracers.Uniform("uViewProjection"), 1, GL_FALSE, glm::value_ptr(lighting.viewProjection));
    glUniform3fv(m_tracers.Uniform("uEye"), 1, glm::value_ptr(input.view.eye));
    const std::size_t count = input.tracerPositions.size();
    if (!m_linearPalette.empty()) {
        glUniform4fv(m_tracers.Uniform("uPalette"), Count(m_linearPalette.size()),
                     glm::value_ptr(m_linearPalette.front()));
    } else {
        const glm::vec4 dye(SrgbDecode(glm::vec3(kDefaultDye)), kDefaultDye.a);
        glUniform4fv(m_tracers.Uniform("uPalette"), 1, glm::value_ptr(dye));
    }
    glUniform1i(m_tracers.Uniform("uPaletteCount"), std::max<GLint>(Count(m_linearPalette.size()), 1));
    const float pointScale = 0.5f * float(m_targets.Size().y) * input.view.projection[1][1];
    glUniform1f(m_tracers.Uniform("uPointScale"), pointScale);
    glUniform1f(m_tracers.Uniform("uSize"), input.look.tracerSize);
    glUniform1f(m_tracers.Uniform("uOpacity"), std::clamp(input.look.tracerOpacity, 0.0f, 1.0f));
    glUniform1i(m_tracers.Uniform("uMedium"), kDyeUnit);
    glUniform1f(m_tracers.Uniform("uExtinction"), m_volumeTextures.HasMedium() ? std::max(input.look.dyeExtinction, 0.0f) : 0.0f);
    glUniform1f(m_tracers.Uniform("uTracerVolume"), m_dye.TracerVolume());
    // The weight's depth runs across the dye's box as seen (tracers beyond it clamp).
    glm::vec2 depthRange(0.0f, 1.0f);
    if (m_volumeTextures.HasVolume()) {
        const VolumeGrid& grid = m_volumeTextures.Grid();
        depthRange = glm::vec2(std::numeric_limits<float>::max(), -std::numeric_limits<float>::max());
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 corner((c & 1) ? grid.Max().x : grid.Min().x, (c & 2) ? grid.Max().y : grid.Min().y,
                                   (c & 4) ? grid.Max().z : grid.Min().z);
            const float depth = -(input.view.view * glm::vec4(corner, 1.0f)).z;
            depthRange = glm::vec2(std::min(depthRange.x, depth), std::max(depthRange.y, depth));
        }
        depthRange.x = std::max(depthRange.x, 0.0f);
        depthRange.y = std::max(depthRange.y, depthRange.x + 1e-3f);
    }
    glUniform2fv(m_tracers.Uniform("uDepthRange"), 1, glm::value_ptr(depthRange));

    glBindVertexArray(m_tracerVao);
    // A million tracers are 12 MB a frame: skip the upload when the caller says they are the
    // ones already in the buffer (a window drawing faster than the simulation steps).
    const auto stale = [count](std::uint64_t version, std::uint64_t uploaded, std::size_t uploadedCount) {
        return version == 0 || version != uploaded || count != uploadedCount;
    };
    if (input.tracerPositionBuffer != 0) {
        glBindBuffer(GL_ARRAY_BUFFER, input.tracerPositionBuffer);
    } else {
        if (stale(input.tracerPositionsVersion, m_tracerPositionsVersion, m_tracerPositionsCount)) {
            m_tracerPositions.Upload(input.tracerPositions.data(), count * sizeof(glm::vec3));
            m_tracerPositionsVersion = input.tracerPositionsVersion;
            m_tracerPositionsCount = count;
        }
        glBindBuffer(GL_ARRAY_BUFFER, m_tracerPositions.Id());
    }
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    if (input.tracerGroups.size() >= count) {
        if (stale(input.tracerGroupsVersion, m_tracerGroupsVersion, m_tracerGroupsCount)) {
            m_tracerGroups.Upload(input.tracerGroups.data(), count * sizeof(std::uint16_t));
            m_tracerGroupsVersion = input.tracerGroupsVersion;
            m_tracerGroupsCount = count;
        }
        glEnableVertexAttribArray(1);
    } else {
        // A disabled array reads the current generic value instead: group 0 for everyone.
        glDisableVertexAttribArray(1);
        glVertexAttribI4ui(1, 0, 0, 0, 1);
    }
    glDrawArrays(GL_POINTS, 0, Count(count));

    // Over the scene: the weighted mean colour covers 1 - revealage.
    m_targets.BindScene();
    glDisable(GL_DEPTH_TEST);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(m_particleResolve.Id());
    glActiveTexture(GL_TEXTURE0 + kRadianceUnit);
    glBindTexture(GL_TEXTURE_2D, m_targets.ParticleAccumulation());
    glActiveTexture(GL_TEXTURE0 + kTransmittanceUnit);
    glBindTexture(GL_TEXTURE_2D, m_targets.ParticleWeight());
    glUniform1i(m_particleResolve.Uniform("uAccumulation"), kRadianceUnit);
    glUniform1i(m_particleResolve.Uniform("uWeight"), kTransmittanceUnit);
    glBindVertexArray(m_emptyVao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glActiveTexture(GL_TEXTURE0);
    glEnable(GL_DEPTH_TEST);
}

void Renderer::DrawVortons(const FrameInput& input) {
    const std::size_t count = input.vortonPositions.size();
    glUseProgram(m_vortons.Id());
    const glm::mat4 viewProjection = input.view.projection * input.view.view;
    glUniformMatrix4fv(m_vortons.Uniform("uViewProjection"), 1, GL_FALSE, glm::value_ptr(viewProjection));
    glUniform1f(m_vortons.Uniform("uPointScale"), 0.5f * float(m_targets.Size().y) * input.view.projection[1][1]);
    glUniform1f(m_vortons.Uniform("uSize"), input.vortonSize);
    glUniform1f(m_vortons.Uniform("uEdge"), kVortonEdge);

    glBindVertexArray(m_vortonVao);
    m_vortonPositions.Upload(input.vortonPositions.data(), count * sizeof(glm::vec3));
    if (input.vortonStrength.size() >= count) {
        // Colour relative to the strongest vorton so the map spans the whole range every frame.
        float largest = 0.0f;
        for (std::size_t i = 0; i < count; ++i) largest = std::max(largest, input.vortonStrength[i]);
        glUniform1f(m_vortons.Uniform("uStrengthScale"), largest > 0.0f ? 1.0f / largest : 0.0f);
        m_vortonStrengths.Upload(input.vortonStrength.data(), count * sizeof(float));
        glEnableVertexAttribArray(1);
    } else {
        glDisableVertexAttribArray(1);
        glUniform1f(m_vortons.Uniform("uStrengthScale"), 1.0f);
        glVertexAttrib1f(1, kDefaultStrength);
    }
    glDrawArrays(GL_POINTS, 0, Count(count));
}

}  // namespace vorton::render
