// GlContext: the windowed (GLFW) half and what both kinds share. EGL lives in egl_context.cpp.
#include "app/platform/gl_context.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "render/gl_loader.h"

namespace vorton::platform {
namespace {

std::string LastGlfwError() {
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR) return "no details from GLFW";
    return description != nullptr ? description : "GLFW error " + std::to_string(code);
}

bool HasDisplayVariable() {
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 != nullptr && *x11 != '\0') || (wayland != nullptr && *wayland != '\0');
}

void* GlfwProc(const char* name) {
    return reinterpret_cast<void*>(glfwGetProcAddress(name));
}

}  // namespace

Result<std::unique_ptr<GlContext>> GlContext::CreateWindow(int width, int height,
                                                           const std::string& title) {
    if (width <= 0 || height <= 0) {
        return Error{"Window size must be positive, got " + std::to_string(width) + "x" +
                     std::to_string(height)};
    }
    if (glfwInit() != GLFW_TRUE) {
        std::string why = LastGlfwError();
        if (!HasDisplayVariable()) why += " (neither DISPLAY nor WAYLAND_DISPLAY is set)";
        return Error{"No display available to open a window: " + why +
                     ". Use --headless to render offscreen without a display."};
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, kHeadlessSamples);  // a soft request: GLFW settles for fewer
    GLFWwindow* window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (window == nullptr) {
        std::string why = LastGlfwError();
        glfwTerminate();
        return Error{"Cannot create a " + std::to_string(width) + "x" + std::to_string(height) +
                     " window with an OpenGL 3.3 core context: " + why +
                     ". Try --headless to render offscreen."};
    }
    std::unique_ptr<GlContext> context(new GlContext());
    context->m_window = window;  // from here the destructor cleans up
    glfwMakeContextCurrent(window);
    if (auto loaded = render::LoadGl(&GlfwProc); !loaded) return Error{loaded.error()};
    glfwSwapInterval(1);
    return context;
}

GlContext::~GlContext() {
    if (m_window != nullptr) {
        glfwDestroyWindow(m_window);
        glfwTerminate();
    } else {
        ReleaseHeadless();
    }
}

bool GlContext::ShouldClose() const {
    return m_window != nullptr && glfwWindowShouldClose(m_window) == GLFW_TRUE;
}

void GlContext::PollEvents() {
    if (m_window != nullptr) glfwPollEvents();
}

glm::ivec2 GlContext::FramebufferSize() const {
    if (m_window == nullptr) return m_headlessSize;
    glm::ivec2 size{0, 0};
    glfwGetFramebufferSize(m_window, &size.x, &size.y);
    return size;
}

float GlContext::ContentScale() const {
    if (m_window == nullptr) return 1.0f;
    float scale = 1.0f, unused = 1.0f;
    glfwGetWindowContentScale(m_window, &scale, &unused);
    int windowWidth = 0, windowHeight = 0;
    glfwGetWindowSize(m_window, &windowWidth, &windowHeight);
    const glm::ivec2 pixels = FramebufferSize();
    if (windowWidth > 0 && pixels.x > 0) scale *= float(windowWidth) / float(pixels.x);
    return std::isfinite(scale) && scale > 0.0f ? scale : 1.0f;
}

void GlContext::BeginFrame() {
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);  // 0 (the window) when not headless
    const glm::ivec2 size = FramebufferSize();
    glViewport(0, 0, size.x, size.y);
}

void GlContext::EndFrame() {
    if (m_window != nullptr) glfwSwapBuffers(m_window);
}

void GlContext::ReadPixels(std::vector<std::uint8_t>& rgb) const {
    const glm::ivec2 size = FramebufferSize();
    const std::size_t rowBytes = static_cast<std::size_t>(size.x) * 3;
    const std::size_t rows = static_cast<std::size_t>(size.y);
    rgb.resize(rowBytes * rows);
    if (rgb.empty()) return;

    GLint previousRead = 0;
    GLint previousAlignment = 4;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previousRead);
    glGetIntegerv(GL_PACK_ALIGNMENT, &previousAlignment);
    GLuint source = m_fbo;
    if (m_resolveFbo != 0) {
        // Headless with multisampling: resolve the samples into the plain buffer first.
        GLint previousDraw = 0;
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previousDraw);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_resolveFbo);
        glBlitFramebuffer(0, 0, size.x, size.y, 0, 0, size.x, size.y, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previousDraw));
        source = m_resolveFbo;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
    glReadBuffer(m_window != nullptr ? GL_BACK : GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size.x, size.y, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
    glPixelStorei(GL_PACK_ALIGNMENT, previousAlignment);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previousRead));

    // GL returns the bottom row first; images and video want the top row first.
    std::vector<std::uint8_t> swap(rowBytes);
    for (std::size_t top = 0, bottom = rows - 1; top < bottom; ++top, --bottom) {
        std::uint8_t* a = rgb.data() + top * rowBytes;
        std::uint8_t* b = rgb.data() + bottom * rowBytes;
        std::memcpy(swap.data(), a, rowBytes);
        std::memcpy(a, b, rowBytes);
        std::memcpy(b, swap.data(), rowBytes);
    }
}

void GlContext::SetVsync(bool on) {
    if (m_window != nullptr) glfwSwapInterval(on ? 1 : 0);
}

}  // namespace vorton::platform
