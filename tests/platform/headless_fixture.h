#pragma once
// The headless rendering fixture: an EGL + llvmpipe context of kWidth × kHeight,
// a Renderer on it, an orbit camera, and a frame read back as RGB bytes.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "app/platform/gl_context.h"
#include "app/platform/orbit_camera.h"
#include "render/renderer.h"
#include "render/tone_map.h"
#include "test_image.h"

namespace vorton::test {

using platform::CameraPose;
using platform::GlContext;
using platform::OrbitCamera;
using render::DyeStyle;
using render::FrameInput;
using render::Renderer;

constexpr int kWidth = 160;
constexpr int kHeight = 120;
const glm::vec4 kBlue{0.2f, 0.45f, 1.0f, 1.0f};

class HeadlessRender : public ::testing::Test {
protected:
    void SetUp() override {
        auto context = GlContext::CreateHeadless(kWidth, kHeight);
        ASSERT_TRUE(context.ok()) << context.error();
        m_context = std::move(context.value());
        auto renderer = Renderer::Create(VORTON_TEST_SHADER_DIR);
        ASSERT_TRUE(renderer.ok()) << renderer.error();
        m_renderer = std::move(renderer.value());
        m_camera.Reset(CameraPose{.target = glm::vec3(0.0f), .distance = 1.0f});
    }

    void TearDown() override {
        m_renderer.reset();  // needs the context alive
        m_context.reset();
    }

    /// The frame for the camera, with the floor off: each test looks at one thing (the floor
    /// has tests of its own).
    FrameInput Input() const {
        FrameInput input;
        input.view = m_camera.MakeView(m_context->FramebufferSize());
        input.look.floor = false;
        return input;
    }

    /// Points the key light (fixed in the world) along `viewDirection`, given in the camera's
    /// view space (x right, y up, z towards the eye), for tests written about what the camera sees.
    void LightFromView(FrameInput& input, glm::vec3 viewDirection) const {
        const glm::vec3 world = glm::transpose(glm::mat3(input.view.view)) * glm::normalize(viewDirection);
        input.look.lightElevation = glm::degrees(std::asin(world.z));
        input.look.lightAzimuth = glm::degrees(std::atan2(world.y, world.x));
    }

    std::vector<std::uint8_t> Render(const FrameInput& input) {
        m_context->BeginFrame();
        m_renderer->Draw(input);
        EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
        std::vector<std::uint8_t> rgb;
        m_context->ReadPixels(rgb);
        m_context->EndFrame();
        return rgb;
    }

    std::unique_ptr<GlContext> m_context;
    std::unique_ptr<Renderer> m_renderer;
    OrbitCamera m_camera;
};

}  // namespace vorton::test
