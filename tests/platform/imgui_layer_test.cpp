// Dear ImGui through our glad-based OpenGL3 backend on a headless context.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/platform/gl_context.h"
#include "app/platform/imgui_layer.h"
#include "test_image.h"

namespace vorton {
namespace {

using platform::GlContext;
using platform::ImGuiLayer;

TEST(ImGuiLayerHeadless, DrawsAWindowIntoTheFramebuffer) {
    constexpr int kWidth = 200;
    constexpr int kHeight = 150;
    auto context = GlContext::CreateHeadless(kWidth, kHeight);
    ASSERT_TRUE(context.ok()) << context.error();
    auto layer = ImGuiLayer::Create(*context.value());
    ASSERT_TRUE(layer.ok()) << layer.error();

    std::vector<std::uint8_t> rgb;
    for (int frame = 0; frame < 2; ++frame) {  // ImGui lays windows out on their first frame
        context.value()->BeginFrame();
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        layer.value()->NewFrame();
        ImGui::SetNextWindowPos(ImVec2(20.0f, 20.0f));
        ImGui::SetNextWindowSize(ImVec2(120.0f, 80.0f));
        ImGui::Begin("Panel");
        ImGui::Text("Hello");
        ImGui::End();
        layer.value()->Render();
        EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
        context.value()->ReadPixels(rgb);
        context.value()->EndFrame();
    }
    EXPECT_FALSE(layer.value()->WantsKeyboard());
    const glm::vec3 inside = test::PixelAt(rgb, kWidth, 80, 70);
    const glm::vec3 outside = test::PixelAt(rgb, kWidth, 180, 130);
    EXPECT_GT(inside.r + inside.g + inside.b, 20.0f) << "the window background should be drawn";
    EXPECT_EQ(outside, glm::vec3(0.0f));
    layer.value().reset();  // before the context it draws with
}

}  // namespace
}  // namespace vorton
