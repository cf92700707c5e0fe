#pragma once
/// \file
/// The offscreen buffers of one frame: a multisampled HDR colour + depth target the scene is
/// drawn into, its single-sample resolve (textures the later passes read), the two targets
/// the volume is ray-marched into (full or half resolution) and the two the particles'
/// weighted blended transparency accumulates in.

#include <glm/glm.hpp>

#include "sim/result.h"

namespace vorton::render {

/// Owns the framebuffers and their storage; reallocates when the size or settings change.
/// Needs the creating GL context current; not thread-safe.
class FrameTargets {
public:
    FrameTargets() = default;
    FrameTargets(const FrameTargets&) = delete;
    FrameTargets& operator=(const FrameTargets&) = delete;
    ~FrameTargets();

    /// Makes the targets `size` pixels with `samples` per pixel for the scene (clamped to the
    /// GL's limit; 1: none) and the march targets size / marchDivisor (1 or 2, rounded up).
    /// Error when the GL rejects a framebuffer (the message gives its status).
    Status Prepare(glm::ivec2 size, int samples, int marchDivisor);

    /// Binds the multisampled scene target (RGBA16F linear radiance + 24-bit depth) for drawing.
    void BindScene() const;
    /// Copies the scene target's depth (one sample per pixel) into DepthTexture().
    void ResolveDepth() const;
    /// Averages the scene target's colour samples into ColorTexture().
    void ResolveColor() const;
    /// Binds the march targets (0: radiance, 1: transmittance) and sets the viewport to them.
    void BindMarch() const;
    /// Binds the particle targets (0: RGBA16F accumulation, 1: R16F weight; see
    /// particle_accumulate.frag) with DepthTexture() as their depth (test against it, write
    /// none: ResolveDepth first), sets the viewport and clears them to "nothing drawn":
    /// accumulation (0, 0, 0, 1) (its alpha is the revealage), weight 0.
    void BindParticles() const;

    unsigned ColorTexture() const { return m_colorTexture; }
    unsigned DepthTexture() const { return m_depthTexture; }
    unsigned MarchRadiance() const { return m_marchRadiance; }
    unsigned MarchTransmittance() const { return m_marchTransmittance; }
    unsigned ParticleAccumulation() const { return m_particleAccumulation; }
    unsigned ParticleWeight() const { return m_particleWeight; }
    glm::ivec2 Size() const { return m_size; }
    glm::ivec2 MarchSize() const { return m_marchSize; }
    int Samples() const { return m_samples; }

private:
    void Release();

    glm::ivec2 m_size{0};
    glm::ivec2 m_marchSize{0};
    int m_samples = 0;
    int m_requestedSamples = 0;
    unsigned m_sceneFbo = 0, m_sceneColor = 0, m_sceneDepth = 0;      // renderbuffers
    unsigned m_resolveFbo = 0, m_colorTexture = 0, m_depthTexture = 0;
    unsigned m_marchFbo = 0, m_marchRadiance = 0, m_marchTransmittance = 0;
    unsigned m_particleFbo = 0, m_particleAccumulation = 0, m_particleWeight = 0;
};

}  // namespace vorton::render
