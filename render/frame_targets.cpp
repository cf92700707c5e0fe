#include "render/frame_targets.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>

namespace vorton::render {
namespace {

Status Complete(const char* what) {
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status == GL_FRAMEBUFFER_COMPLETE) return Ok{};
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04X", status);
    return Error{std::string("Renderer: the ") + what + " framebuffer is incomplete (status " + hex + ")"};
}

GLuint Texture2D(GLenum internalFormat, GLenum format, GLenum type, glm::ivec2 size, GLenum filter) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(internalFormat), size.x, size.y, 0, format, type, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GLint(filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GLint(filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return texture;
}

/// A framebuffer of 2D textures: colours at attachments 0, 1, … (all drawn
/// to), and depth if not 0. Left bound.
GLuint TextureFramebuffer(std::initializer_list<GLuint> colours, GLuint depth) {
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    GLenum buffers[4];
    GLsizei n = 0;
    for (GLuint colour : colours) {
        buffers[n] = GLenum(GL_COLOR_ATTACHMENT0 + n);
        glFramebufferTexture2D(GL_FRAMEBUFFER, buffers[n], GL_TEXTURE_2D, colour, 0);
        ++n;
    }
    if (depth != 0) glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
    glDrawBuffers(n, buffers);
    return fbo;
}

}  // namespace

FrameTargets::~FrameTargets() { Release(); }

void FrameTargets::Release() {
    const GLuint fbos[] = {m_sceneFbo, m_resolveFbo, m_marchFbo, m_particleFbo};
    glDeleteFramebuffers(4, fbos);
    const GLuint renderbuffers[] = {m_sceneColor, m_sceneDepth};
    glDeleteRenderbuffers(2, renderbuffers);
    const GLuint textures[] = {m_colorTexture, m_depthTexture, m_marchRadiance, m_marchTransmittance,
                               m_particleAccumulation, m_particleWeight};
    glDeleteTextures(6, textures);
    m_sceneFbo = m_resolveFbo = m_marchFbo = m_particleFbo = m_sceneColor = m_sceneDepth = 0;
    m_colorTexture = m_depthTexture = m_marchRadiance = m_marchTransmittance = 0;
    m_particleAccumulation = m_particleWeight = 0;
    m_size = m_marchSize = glm::ivec2(0);
}

Status FrameTargets::Prepare(glm::ivec2 size, int samples, int marchDivisor) {
    size = glm::max(size, glm::ivec2(1));
    marchDivisor = std::clamp(marchDivisor, 1, 2);
    const glm::ivec2 marchSize = (size + marchDivisor - 1) / marchDivisor;
    if (size == m_size && samples == m_requestedSamples && marchSize == m_marchSize) return Ok{};
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    Release();
    m_size = size;
    m_marchSize = marchSize;
    m_requestedSamples = samples;
    GLint maxSamples = 1;
    glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
    m_samples = std::clamp(samples, 1, std::max(1, int(maxSamples)));

    glGenRenderbuffers(1, &m_sceneColor);
    glGenRenderbuffers(1, &m_sceneDepth);
    for (auto [buffer, format] : {std::pair{m_sceneColor, GLenum(GL_RGBA16F)}, {m_sceneDepth, GL_DEPTH_COMPONENT24}}) {
        glBindRenderbuffer(GL_RENDERBUFFER, buffer);
        if (m_samples > 1) {
            glRenderbufferStorageMultisample(GL_RENDERBUFFER, m_samples, format, size.x, size.y);
        } else {
            glRenderbufferStorage(GL_RENDERBUFFER, format, size.x, size.y);
        }
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &m_sceneFbo);
    glBindFramebuffer(GL_FRAMEBUFFER, m_sceneFbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_sceneColor);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_sceneDepth);
    Status status = Complete("scene");

    m_colorTexture = Texture2D(GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, size, GL_LINEAR);
    m_depthTexture = Texture2D(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, size, GL_NEAREST);
    m_resolveFbo = TextureFramebuffer({m_colorTexture}, m_depthTexture);
    if (status) status = Complete("resolve");

    m_marchRadiance = Texture2D(GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, marchSize, GL_NEAREST);
    m_marchTransmittance = Texture2D(GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, marchSize, GL_NEAREST);
    m_marchFbo = TextureFramebuffer({m_marchRadiance, m_marchTransmittance}, 0);
    if (status) status = Complete("march");

    m_particleAccumulation = Texture2D(GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, size, GL_NEAREST);
    m_particleWeight = Texture2D(GL_R16F, GL_RED, GL_HALF_FLOAT, size, GL_NEAREST);
    m_particleFbo = TextureFramebuffer({m_particleAccumulation, m_particleWeight}, m_depthTexture);
    if (status) status = Complete("particle");
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    if (!status) Release();
    return status;
}

void FrameTargets::BindScene() const {
    glBindFramebuffer(GL_FRAMEBUFFER, m_sceneFbo);
    glViewport(0, 0, m_size.x, m_size.y);
}

void FrameTargets::ResolveDepth() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_sceneFbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_resolveFbo);
    glBlitFramebuffer(0, 0, m_size.x, m_size.y, 0, 0, m_size.x, m_size.y, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
}

void FrameTargets::ResolveColor() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_sceneFbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_resolveFbo);
    glBlitFramebuffer(0, 0, m_size.x, m_size.y, 0, 0, m_size.x, m_size.y, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void FrameTargets::BindMarch() const {
    glBindFramebuffer(GL_FRAMEBUFFER, m_marchFbo);
    glViewport(0, 0, m_marchSize.x, m_marchSize.y);
}

void FrameTargets::BindParticles() const {
    glBindFramebuffer(GL_FRAMEBUFFER, m_particleFbo);
    glViewport(0, 0, m_size.x, m_size.y);
    const GLfloat nothing[] = {0.0f, 0.0f, 0.0f, 1.0f};  // revealage 1: the scene shows fully
    const GLfloat zero[] = {0.0f, 0.0f, 0.0f, 0.0f};
    glClearBufferfv(GL_COLOR, 0, nothing);
    glClearBufferfv(GL_COLOR, 1, zero);
}

}  // namespace vorton::render
