#include "app/platform/imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <cmath>
#include <filesystem>

namespace vorton::platform {
namespace {

constexpr float kHeadlessDeltaTime = 1.0f / 60.0f;
constexpr float kFontPixels = 16.0f;
constexpr const char* kSystemFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

void ApplyStyle() {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();  // the sizes at scale 1, whatever scale was applied before
    ImGui::StyleColorsDark();
    style.WindowRounding = 6.0f;
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.WindowPadding = ImVec2(10.0f, 10.0f);
    style.FramePadding = ImVec2(6.0f, 4.0f);
    style.ItemSpacing = ImVec2(8.0f, 6.0f);
    // Let the scene show through the panel a little.
    style.Colors[ImGuiCol_WindowBg].w = 0.88f;
}

void LoadFont(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    io.FontGlobalScale = 1.0f;
    std::error_code error;
    // ProggyClean (the built-in font) only looks sharp at 13 px; scale it up only as a fallback.
    if (std::filesystem::exists(kSystemFont, error) &&
        io.Fonts->AddFontFromFileTTF(kSystemFont, std::round(kFontPixels * scale)) != nullptr) {
        return;
    }
    io.Fonts->AddFontDefault();
    io.FontGlobalScale = 1.15f * scale;
}

}  // namespace

float UiScale() {
    if (ImGui::GetCurrentContext() == nullptr) return 1.0f;
    const auto* scale = static_cast<const float*>(ImGui::GetIO().UserData);
    return scale != nullptr ? *scale : 1.0f;
}

void ImGuiLayer::ApplyScale(float scale) {
    m_scale = scale;
    ImGui::GetIO().UserData = &m_scale;
    ApplyStyle();
    ImGui::GetStyle().ScaleAllSizes(scale);
    LoadFont(scale);
    if (m_openGlBackend) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
}

Result<std::unique_ptr<ImGuiLayer>> ImGuiLayer::Create(GlContext& context, std::string iniFile, float uiScale) {
    IMGUI_CHECKVERSION();
    std::unique_ptr<ImGuiLayer> layer(new ImGuiLayer(context));
    layer->m_imgui = ImGui::CreateContext();
    ImGui::SetCurrentContext(layer->m_imgui);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    if (!iniFile.empty()) {
        std::error_code error;
        std::filesystem::create_directories(std::filesystem::path(iniFile).parent_path(), error);
        if (!error) {
            layer->m_iniFile = std::move(iniFile);
            io.IniFilename = layer->m_iniFile.c_str();
        }
    }
    io.LogFilename = nullptr;
    layer->m_fixedScale = uiScale;
    layer->ApplyScale(uiScale > 0.0f ? uiScale : context.ContentScale());

    if (!context.IsHeadless()) {
        if (!ImGui_ImplGlfw_InitForOpenGL(context.Window(), true)) {
            return Error{"Dear ImGui: the GLFW platform backend failed to initialise"};
        }
        layer->m_glfwBackend = true;
    } else {
        const glm::ivec2 size = context.FramebufferSize();
        io.DisplaySize = ImVec2(static_cast<float>(size.x), static_cast<float>(size.y));
    }
    if (!ImGui_ImplOpenGL3_Init("#version 330")) {
        return Error{"Dear ImGui: the OpenGL3 renderer backend failed to initialise"};
    }
    layer->m_openGlBackend = true;
    return layer;
}

ImGuiLayer::~ImGuiLayer() {
    if (m_imgui == nullptr) return;
    ImGui::SetCurrentContext(m_imgui);
    if (m_openGlBackend) ImGui_ImplOpenGL3_Shutdown();
    if (m_glfwBackend) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(m_imgui);
}

void ImGuiLayer::NewFrame() {
    ImGui::SetCurrentContext(m_imgui);
    if (m_fixedScale <= 0.0f) {
        // The window moved to a monitor of another DPI, or the desktop's setting changed.
        const float scale = m_context.ContentScale();
        if (std::abs(scale - m_scale) > 0.01f) ApplyScale(scale);
    }
    ImGui_ImplOpenGL3_NewFrame();
    if (m_glfwBackend) {
        ImGui_ImplGlfw_NewFrame();
    } else {
        ImGuiIO& io = ImGui::GetIO();
        const glm::ivec2 size = m_context.FramebufferSize();
        io.DisplaySize = ImVec2(static_cast<float>(size.x), static_cast<float>(size.y));
        io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
        io.DeltaTime = kHeadlessDeltaTime;
    }
    ImGui::NewFrame();
}

void ImGuiLayer::Render() {
    ImGui::SetCurrentContext(m_imgui);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void ImGuiLayer::EndFrameUndrawn() {
    ImGui::SetCurrentContext(m_imgui);
    ImGui::EndFrame();
}

bool ImGuiLayer::WantsMouse() const {
    ImGui::SetCurrentContext(m_imgui);
    return ImGui::GetIO().WantCaptureMouse;
}

bool ImGuiLayer::WantsKeyboard() const {
    ImGui::SetCurrentContext(m_imgui);
    return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace vorton::platform
