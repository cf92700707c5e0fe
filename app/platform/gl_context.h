#pragma once
/// \file
/// The OpenGL context the demo draws into: a desktop window or an offscreen framebuffer.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/result.h"

struct GLFWwindow;

namespace vorton::platform {

/// An OpenGL 3.3+ core context: a GLFW window (interactive) or an EGL surfaceless context
/// rendering into a framebuffer object (headless, no X server needed; uses
/// EGL_MESA_platform_surfaceless when the EGL library offers it, else EGL_DEFAULT_DISPLAY with a
/// tiny pbuffer). Creating one makes it current on the calling thread and loads GL (glad).
/// Only one GlContext may exist at a time (GLFW and glad are process-wide).
/// Samples per pixel the headless framebuffer asks for: the window's request (GLFW_SAMPLES).
inline constexpr int kHeadlessSamples = 4;

class GlContext {
public:
    /// Opens a window of the given size in screen coordinates. Error if there is no display
    /// (message says so and suggests --headless) or the context can't be made.
    static Result<std::unique_ptr<GlContext>> CreateWindow(int width, int height,
                                                           const std::string& title);
    /// Headless: EGL + FBO (RGBA8 colour + depth24) of exactly width x height pixels,
    /// multisampled (kHeadlessSamples, or the GL's maximum if lower) like the window and
    /// resolved by ReadPixels.
    /// Error if EGL has no usable display/config, GL 3.3 core is unavailable, or the size is bad.
    static Result<std::unique_ptr<GlContext>> CreateHeadless(int width, int height);

    GlContext(const GlContext&) = delete;
    GlContext& operator=(const GlContext&) = delete;
    ~GlContext();

    bool IsHeadless() const { return m_window == nullptr; }
    /// The GLFW window; nullptr when headless.
    GLFWwindow* Window() const { return m_window; }
    /// True once the user asked to close the window; always false when headless.
    bool ShouldClose() const;
    /// Processes window events (input callbacks run here); no-op headless.
    void PollEvents();
    /// Size of the drawable area in pixels (differs from window size on HiDPI screens).
    glm::ivec2 FramebufferSize() const;
    /// How much larger than at 96 DPI the desktop asks text and controls to be drawn, in this
    /// context's own coordinates: GLFW's window content scale over the framebuffer's pixels per
    /// window unit (X11: the DPI setting / 96; where the window system already scales the
    /// window, as Wayland and macOS do, 1). 1 headless.
    float ContentScale() const;
    /// Samples per pixel of the headless framebuffer (1: none); the window's are GLFW's.
    int HeadlessSamples() const { return m_samples; }
    /// Binds the FBO (headless) or the default framebuffer and sets glViewport to the full size.
    void BeginFrame();
    /// Presents the frame (swaps buffers) in a window; nothing to do headless.
    void EndFrame();
    /// Reads the current frame as tightly packed RGB8 rows, top row first, resizing `rgb` to
    /// w*h*3 bytes (w, h = FramebufferSize()). In a window call it before EndFrame(): the back
    /// buffer is undefined after a swap.
    void ReadPixels(std::vector<std::uint8_t>& rgb) const;
    /// Waits for the display refresh between swaps when on; no-op headless.
    void SetVsync(bool on);

private:
    GlContext() = default;
    Status InitFramebuffer(int width, int height);
    void ReleaseHeadless();

    GLFWwindow* m_window = nullptr;
    // EGL handles are opaque pointers; kept as void* so this header needs no EGL include.
    void* m_eglDisplay = nullptr;
    void* m_eglContext = nullptr;
    void* m_eglSurface = nullptr;
    unsigned m_fbo = 0;          // headless: drawn into, multisampled when the GL allows
    unsigned m_colorBuffer = 0;
    unsigned m_depthBuffer = 0;
    unsigned m_resolveFbo = 0;   // headless with samples: the plain buffer ReadPixels reads
    unsigned m_resolveColor = 0;
    int m_samples = 1;
    glm::ivec2 m_headlessSize{0, 0};
};

}  // namespace vorton::platform
