#pragma once
/// \file
/// Dear ImGui wired to a GlContext.

#include <memory>
#include <string>

#include "app/platform/gl_context.h"
#include "sim/result.h"

struct ImGuiContext;

namespace vorton::platform {

/// Dear ImGui set-up on a GlContext: GLFW platform backend when windowed (installs GLFW input
/// callbacks; callbacks the app set *before* Create() keep being called, ones set after replace
/// ImGui's), no platform backend when headless (DisplaySize set from the FBO each frame, fixed
/// 1/60 s DeltaTime), OpenGL3 renderer backend ("#version 330") in both cases. Dark style;
/// DejaVu Sans if the system has it, else ImGui's built-in font. The windows' places and sizes
/// are kept in `iniFile` (read at start, written as they change and at exit) when it is given;
/// its folder is created if missing; none: nothing is written (headless).
/// The text and the style's sizes are scaled by the UI scale: `uiScale` if given, else the
/// context's content scale (GlContext::ContentScale), followed as the window moves between
/// monitors. Only one may exist at a time; destroy it before its GlContext.
class ImGuiLayer {
public:
    /// Error if a backend fails to initialise (the message names which). `uiScale` 0: follow
    /// the context's content scale; else that scale, fixed (0.5-4).
    static Result<std::unique_ptr<ImGuiLayer>> Create(GlContext& context, std::string iniFile = {},
                                                      float uiScale = 0.0f);
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;
    ~ImGuiLayer();

    /// Starts a UI frame; then the caller issues ImGui:: calls.
    void NewFrame();
    /// ImGui::Render() and draws the result into the currently bound framebuffer.
    void Render();
    /// Ends the frame without drawing it (ImGui::EndFrame): a frame that only lets windows
    /// size themselves.
    void EndFrameUndrawn();
    /// True when ImGui uses the mouse / keyboard this frame (don't move the camera then).
    bool WantsMouse() const;
    bool WantsKeyboard() const;

private:
    explicit ImGuiLayer(GlContext& context) : m_context(context) {}

    /// Loads the font at 16 px x `scale` and scales a fresh style by it; rebuilds the font
    /// texture once the renderer backend runs.
    void ApplyScale(float scale);

    GlContext& m_context;
    ImGuiContext* m_imgui = nullptr;
    float m_fixedScale = 0.0f;  // the option; 0: follow the content scale
    float m_scale = 1.0f;       // in use; ImGuiIO::UserData points at it (UiScale)
    bool m_glfwBackend = false;
    bool m_openGlBackend = false;
    std::string m_iniFile;  // ImGui keeps a pointer to it
};

/// The UI scale of the current ImGui context (ImGuiLayer): pixel sizes the panels give
/// (window widths, plot heights) are multiplied by it. 1 without a layer.
float UiScale();

}  // namespace vorton::platform
