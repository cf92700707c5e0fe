#include "app/platform/imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <filesystem>

namespace vorton::platform {
namespace {

constexpr float kHeadlessDeltaTime = 1.0f / 60.0f;
constexpr float kFontPixels = 16.0f;
constexpr const char* kSystemFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

void ApplyStyle() {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 6.0f;
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.WindowPadding = ImVec2(10.0f, 10.0f);
    style.FramePadding = ImVec2(6.0f, 4.0f);
    style.ItemSpacing = ImVec2(8.0f, 6.0f);
    // Let the scene show through the panel a little.
    style.Colors[ImGuiCol_WindowBg].w = 0.88f;
}

void LoadFont() {
    ImGuiIO& io = ImGui::GetIO();
    std::error_code error;
    // ProggyClean (the built-in font) only looks sharp at 13 px; scale it up only as a fallback.
    if (std::filesystem::exists(kSystemFont, error) &&
        io.Fonts->AddFontFromFileTTF(kSystemFont, kFontPixels) != nullptr) {
        return;
    }
    io.Fonts->AddFontDefault();
    io.FontGlobalScale = 1.15f;
}

}  // namespace

Result<std::unique_ptr<ImGuiLayer>> ImGuiLayer::Create(GlContext& context, std::string iniFile) {
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
    ApplyStyle();
    LoadFont();

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
