// GlContext: the headless half. An EGL context with no window system (Mesa's surfaceless
// platform, so no X server is needed) renders into a framebuffer object we own.
#include "app/platform/gl_context.h"

#include <glad/gl.h>
// Keep X11 headers out: they #define names such as Status that clash with ours.
#define EGL_NO_X11
#define MESA_EGL_NO_X11_HEADERS
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "render/gl_loader.h"

namespace vorton::platform {
namespace {

std::string EglErrorName(EGLint code) {
    switch (code) {
        case EGL_SUCCESS:
            return "EGL_SUCCESS";
        case EGL_NOT_INITIALIZED:
            return "EGL_NOT_INITIALIZED";
        case EGL_BAD_ACCESS:
            return "EGL_BAD_ACCESS";
        case EGL_BAD_ALLOC:
            return "EGL_BAD_ALLOC";
        case EGL_BAD_ATTRIBUTE:
            return "EGL_BAD_ATTRIBUTE";
        case EGL_BAD_CONFIG:
            return "EGL_BAD_CONFIG";
        case EGL_BAD_CONTEXT:
            return "EGL_BAD_CONTEXT";
        case EGL_BAD_DISPLAY:
            return "EGL_BAD_DISPLAY";
        case EGL_BAD_MATCH:
            return "EGL_BAD_MATCH";
        case EGL_BAD_PARAMETER:
            return "EGL_BAD_PARAMETER";
        case EGL_BAD_SURFACE:
            return "EGL_BAD_SURFACE";
        default: {
            char hex[16];
            std::snprintf(hex, sizeof(hex), "0x%04X", static_cast<unsigned>(code));
            return hex;
        }
    }
}

Error EglFailure(const std::string& what) {
    return Error{"Headless OpenGL (EGL): " + what + " failed (" + EglErrorName(eglGetError()) +
                 ")"};
}

// Extension strings are space-separated names; match whole names only.
bool HasExtension(const char* list, std::string_view name) {
    if (list == nullptr) return false;
    std::string_view rest(list);
    while (!rest.empty()) {
        const std::size_t end = rest.find(' ');
        if (rest.substr(0, end) == name) return true;
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
    }
    return false;
}

EGLDisplay OpenDisplay() {
    // Client extensions are queried without a display (EGL_EXT_client_extensions).
    const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (HasExtension(clientExtensions, "EGL_MESA_platform_surfaceless") &&
        HasExtension(clientExtensions, "EGL_EXT_platform_base")) {
        auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
            eglGetProcAddress("eglGetPlatformDisplayEXT"));
        if (getPlatformDisplay != nullptr) {
            EGLDisplay display =
                getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
            if (display != EGL_NO_DISPLAY) return display;
        }
    }
    return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

void* EglProc(const char* name) {
    return reinterpret_cast<void*>(eglGetProcAddress(name));
}

}  // namespace

Result<std::unique_ptr<GlContext>> GlContext::CreateHeadless(int width, int height) {
    if (width <= 0 || height <= 0) {
        return Error{"Headless framebuffer size must be positive, got " + std::to_string(width) +
                     "x" + std::to_string(height)};
    }
    std::unique_ptr<GlContext> context(new GlContext());
    EGLDisplay display = OpenDisplay();
    if (display == EGL_NO_DISPLAY) return EglFailure("opening a display (eglGetDisplay)");
    EGLint major = 0;
    EGLint minor = 0;
    if (eglInitialize(display, &major, &minor) != EGL_TRUE) {
        return EglFailure("eglInitialize (is Mesa's libEGL_mesa / libgl1-mesa-dri installed?)");
    }
    context->m_eglDisplay = display;  // from here the destructor cleans up
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) return EglFailure("selecting desktop OpenGL");

    const bool surfaceless =
        HasExtension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
    // clang-format off
    const EGLint configAttributes[] = {
        EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
        EGL_NONE};
    // clang-format on
    EGLConfig config = nullptr;
    EGLint configCount = 0;
    if (eglChooseConfig(display, configAttributes, &config, 1, &configCount) != EGL_TRUE ||
        configCount < 1) {
        return EglFailure("finding an RGB8 desktop-OpenGL config");
    }
    // clang-format off
    const EGLint contextAttributes[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3,
        EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_NONE};
    // clang-format on
    EGLContext eglContext = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
    if (eglContext == EGL_NO_CONTEXT) return EglFailure("creating an OpenGL 3.3 core context");
    context->m_eglContext = eglContext;

    EGLSurface surface = EGL_NO_SURFACE;
    if (!surfaceless) {
        // Without surfaceless contexts something must be current; we still draw to our FBO.
        const EGLint pbufferAttributes[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        surface = eglCreatePbufferSurface(display, config, pbufferAttributes);
        if (surface == EGL_NO_SURFACE) return EglFailure("creating a pbuffer surface");
        context->m_eglSurface = surface;
    }
    if (eglMakeCurrent(display, surface, surface, eglContext) != EGL_TRUE) {
        return EglFailure("making the context current");
    }
    if (auto loaded = render::LoadGl(&EglProc); !loaded) return Error{loaded.error()};
    if (auto fbo = context->InitFramebuffer(width, height); !fbo) return Error{fbo.error()};
    return context;
}

Status GlContext::InitFramebuffer(int width, int height) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    if (width > maxSize || height > maxSize) {
        return Error{"Headless framebuffer " + std::to_string(width) + "x" +
                     std::to_string(height) + " exceeds this GL's limit of " +
                     std::to_string(maxSize) + " pixels per side"};
    }
    // Drawn multisampled like the window (which asks GLFW for 4 samples), then
    // resolved into a plain buffer for ReadPixels, so recordings match the window.
    GLint maxSamples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
    const GLsizei samples = std::min<GLint>(kHeadlessSamples, maxSamples);
    auto storage = [&](GLenum format) {
        if (samples > 1) {
            glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, width, height);
        } else {
            glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
        }
    };
    glGenRenderbuffers(1, &m_colorBuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, m_colorBuffer);
    storage(GL_RGBA8);
    glGenRenderbuffers(1, &m_depthBuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, m_depthBuffer);
    storage(GL_DEPTH_COMPONENT24);

    auto complete = [](const char* what) -> Status {
        const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        if (status == GL_FRAMEBUFFER_COMPLETE) return Ok{};
        char hex[16];
        std::snprintf(hex, sizeof(hex), "0x%04X", status);
        return Error{std::string("Headless ") + what + " is incomplete (status " + hex + ")"};
    };
    glGenFramebuffers(1, &m_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_colorBuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_depthBuffer);
    if (Status s = complete("framebuffer"); !s) return s;
    if (samples > 1) {
        glGenRenderbuffers(1, &m_resolveColor);
        glBindRenderbuffer(GL_RENDERBUFFER, m_resolveColor);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glGenFramebuffers(1, &m_resolveFbo);
        glBindFramebuffer(GL_FRAMEBUFFER, m_resolveFbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_resolveColor);
        if (Status s = complete("resolve framebuffer"); !s) return s;
        glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    m_samples = std::max<int>(1, samples);
    m_headlessSize = {width, height};
    glViewport(0, 0, width, height);
    return Ok{};
}

void GlContext::ReleaseHeadless() {
    if (m_eglDisplay == nullptr) return;
    auto display = static_cast<EGLDisplay>(m_eglDisplay);
    if (m_eglContext != nullptr) {
        // GL objects can only be deleted while their context is current.
        if (m_fbo != 0) glDeleteFramebuffers(1, &m_fbo);
        if (m_resolveFbo != 0) glDeleteFramebuffers(1, &m_resolveFbo);
        if (m_resolveColor != 0) glDeleteRenderbuffers(1, &m_resolveColor);
        if (m_colorBuffer != 0) glDeleteRenderbuffers(1, &m_colorBuffer);
        if (m_depthBuffer != 0) glDeleteRenderbuffers(1, &m_depthBuffer);
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(display, static_cast<EGLContext>(m_eglContext));
    }
    if (m_eglSurface != nullptr) eglDestroySurface(display, static_cast<EGLSurface>(m_eglSurface));
    eglTerminate(display);
    eglReleaseThread();
}

}  // namespace vorton::platform
