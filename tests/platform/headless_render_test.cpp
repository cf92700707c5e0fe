// Renders real frames through EGL + llvmpipe and checks the pixels: tracers, vortons, bounds, shaders.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>

#include <glm/gtc/matrix_transform.hpp>

#include "headless_fixture.h"

namespace vorton {
namespace {

// The fixture, its frame size and colours, the camera and frame types (headless_fixture.h).
using namespace test;

bool IsBlue(const glm::vec3& c) {
    return c.b > c.r + 40.0f && c.b > 80.0f;
}

TEST_F(HeadlessRender, ContextHasRequestedSize) {
    EXPECT_TRUE(m_context->IsHeadless());
    EXPECT_EQ(m_context->Window(), nullptr);
    EXPECT_FALSE(m_context->ShouldClose());
    EXPECT_EQ(m_context->FramebufferSize(), glm::ivec2(kWidth, kHeight));
}

TEST_F(HeadlessRender, BlueClusterAtCentreOnDarkGradient) {
    // The default look: the dye as a volume.
    std::mt19937 random(7);
    std::normal_distribution<float> offset(0.0f, 0.02f);
    std::vector<glm::vec3> positions(400);
    for (auto& p : positions) p = {offset(random), offset(random), offset(random)};
    const std::vector<std::uint16_t> groups(positions.size(), 0);
    const std::vector<glm::vec4> palette = {kBlue};

    FrameInput input = Input();
    input.tracerPositions = positions;
    input.tracerGroups = groups;
    input.groupColors = palette;
    const auto rgb = Render(input);
    ASSERT_EQ(rgb.size(), static_cast<std::size_t>(kWidth * kHeight * 3));

    const render::BackdropColors backdrop = render::DisplayBackdrop(render::Backdrop::Gradient);
    const glm::vec3 centre = MeanAround(rgb, kWidth, kWidth / 2, kHeight / 2, 2);
    const glm::vec3 background = backdrop.top * 255.0f;
    EXPECT_GT(centre.b, centre.r + 60.0f) << "centre " << centre.r << "," << centre.b;
    EXPECT_GT(centre.b, background.b + 60.0f);

    // Corners sit far from the cluster and show the gradient's ends: the backdrop's radiance is
    // chosen so that the tone map shows its display colours (8-bit rounding and the dither's
    // half a level aside).
    const glm::vec3 topLeft = PixelAt(rgb, kWidth, 0, 0);
    const glm::vec3 bottomRight = PixelAt(rgb, kWidth, kWidth - 1, kHeight - 1);
    for (int channel = 0; channel < 3; ++channel) {
        EXPECT_NEAR(topLeft[channel], backdrop.top[channel] * 255.0f, 2.0f);
        EXPECT_NEAR(bottomRight[channel], backdrop.bottom[channel] * 255.0f, 2.0f);
    }
    EXPECT_GT(topLeft.b, bottomRight.b + 15.0f) << "the background should be a visible gradient";
}

TEST_F(HeadlessRender, EmptyFrameHasNoBlue) {
    const auto rgb = Render(Input());
    int blue = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) blue += IsBlue(PixelAt(rgb, kWidth, x, y)) ? 1 : 0;
    }
    EXPECT_EQ(blue, 0);
}

TEST_F(HeadlessRender, SpriteIsRoundWithWorldSize) {
    // Particle mode: a Gaussian blob, opaque and white at its centre.
    const std::vector<glm::vec3> positions = {glm::vec3(0.0f)};
    const std::vector<glm::vec4> palette = {glm::vec4(1.0f)};
    FrameInput input = Input();
    input.look.dye = DyeStyle::Particles;
    input.tracerPositions = positions;  // no groups: everything uses group 0
    input.groupColors = palette;
    input.look.tracerOpacity = 1.0f;
    input.look.tracerSize = 0.2f;
    const auto rgb = Render(input);

    // Expected pixel radius from the perspective: size * H * P[1][1] / (2 * w) / 2, w = distance.
    const float radius = 0.2f * kHeight * input.view.projection[1][1] / 2.0f / 2.0f;
    ASSERT_GT(radius, 10.0f);
    const int cx = kWidth / 2;
    const int cy = kHeight / 2;
    const glm::vec3 background = PixelAt(rgb, kWidth, cx, 2);  // same height band as the rim
    const auto brightness = [](const glm::vec3& c) { return c.r + c.g + c.b; };
    const int halfway = static_cast<int>(radius * 0.5f);
    const int diagonal = static_cast<int>(radius * 0.8f);  // |(0.8r, 0.8r)| = 1.13 r: outside
    const int beyond = static_cast<int>(radius * 1.15f);

    EXPECT_GT(brightness(PixelAt(rgb, kWidth, cx, cy)), 600.0f) << "opaque white core";
    // Half way out the Gaussian (sigma 0.4 radii) still passes exp(-0.78) = 0.46 of it.
    for (const auto& [dx, dy] :
         {std::pair{halfway, 0}, {-halfway, 0}, {0, halfway}, {0, -halfway}}) {
        EXPECT_GT(brightness(PixelAt(rgb, kWidth, cx + dx, cy + dy)),
                  brightness(background) + 150.0f)
            << "inside at " << dx << "," << dy;
    }
    for (const auto& [dx, dy] :
         {std::pair{diagonal, diagonal}, {-diagonal, -diagonal}, {beyond, 0}, {0, -beyond}}) {
        const glm::vec3 c = PixelAt(rgb, kWidth, cx + dx, cy + dy);
        EXPECT_LT(brightness(c), 100.0f) << "outside the disc at " << dx << "," << dy;
    }
}

TEST_F(HeadlessRender, VortonsAndBoundsDraw) {
    const std::vector<glm::vec3> vortons = {{-0.1f, 0.0f, 0.0f}, {0.1f, 0.0f, 0.0f}};
    const std::vector<float> strength = {1.0f, 4.0f};
    FrameInput input = Input();
    input.showVortons = true;
    input.vortonPositions = vortons;
    input.vortonStrength = strength;
    input.vortonSize = 0.08f;
    input.showBounds = true;
    input.boundsMin = glm::vec3(-0.3f);
    input.boundsMax = glm::vec3(0.3f);
    const auto rgb = Render(input);

    int warm = 0;
    int light = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const glm::vec3 c = PixelAt(rgb, kWidth, x, y);
            warm += (c.r > 150.0f && c.r > c.b + 60.0f) ? 1 : 0;
            light += (c.r > 70.0f && std::abs(c.r - c.b) < 30.0f) ? 1 : 0;
        }
    }
    EXPECT_GT(warm, 20) << "vortons should show in warm colours";
    EXPECT_GT(light, 100) << "the bounding box edges should show as light lines";
}

// A cluster of 300 tracers within 3 cm of `centre`.
std::vector<glm::vec3> Cluster(glm::vec3 centre) {
    std::mt19937 random(3);
    std::normal_distribution<float> offset(0.0f, 0.03f);
    std::vector<glm::vec3> positions(300);
    for (auto& p : positions) p = centre + glm::vec3(offset(random), offset(random), offset(random));
    return positions;
}

TEST_F(HeadlessRender, SameTracerVersionDrawsTheUploadedTracersAgain) {
    // Tracers uploaded (particles) or splatted (volume) as version 5; a second Draw with version
    // 5 but the tracers moved must not read the new span; version 6 must, and version 0 reads
    // them every time.
    const std::vector<glm::vec3> here = Cluster({0.0f, 0.15f, 0.0f});
    const std::vector<glm::vec3> there = Cluster({0.0f, -0.15f, 0.0f});
    const std::vector<std::uint16_t> groups(here.size(), 0);
    const std::vector<glm::vec4> palette = {kBlue};
    for (const DyeStyle style : {DyeStyle::Particles, DyeStyle::Volume}) {
        SCOPED_TRACE(style == DyeStyle::Volume ? "volume" : "particles");
        FrameInput input = Input();
        input.look.dye = style;
        input.groupColors = palette;
        input.tracerGroups = groups;
        input.tracerGroupsVersion = 1;
        input.look.tracerOpacity = 1.0f;
        input.look.tracerSize = 0.05f;
        input.tracerPositions = here;
        input.tracerPositionsVersion = 5;
        const auto first = Render(input);
        int blue = 0;
        for (int y = 0; y < kHeight; ++y) {
            for (int x = 0; x < kWidth; ++x) blue += IsBlue(PixelAt(first, kWidth, x, y)) ? 1 : 0;
        }
        ASSERT_GT(blue, 20) << "the tracers should show";

        input.tracerPositions = there;
        EXPECT_EQ(Render(input), first) << "same version: the buffer is drawn as it was";
        input.tracerPositionsVersion = 6;
        EXPECT_NE(Render(input), first) << "a new version is uploaded";
        input.tracerPositionsVersion = 0;
        input.tracerPositions = here;
        EXPECT_EQ(Render(input), first) << "version 0 uploads every time";
    }
}

TEST_F(HeadlessRender, BadShaderDirectoryNamesTheFile) {
    auto missing = Renderer::Create("/nonexistent/shaders");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("/nonexistent/shaders/fullscreen.vert"), std::string::npos)
        << missing.error();
}

TEST_F(HeadlessRender, ShaderCompileErrorNamesFileAndLog) {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() /
        ("vorton_bad_shaders_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(dir);
    fs::copy(VORTON_TEST_SHADER_DIR, dir,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    std::ofstream(dir / "tracer.vert") << "#version 330 core\nvoid main() { undeclared = 1; }\n";
    auto broken = Renderer::Create(dir);
    fs::remove_all(dir);
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().find("tracer.vert"), std::string::npos) << broken.error();
    EXPECT_NE(broken.error().find("undeclared"), std::string::npos) << broken.error();
}


}  // namespace
}  // namespace vorton
