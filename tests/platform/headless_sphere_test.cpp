// Renders spheres through EGL + llvmpipe and checks the pixels: colour, lighting, depth, rotation.
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

// --- Rigid spheres ------------------------------------------------------------------------------
//
// The camera looks at the origin from +x (yaw 0), 30 degrees above the xy plane, from 1 m. A
// sphere of radius 0.2 m at the origin then spans about 30 pixels of radius. With the identity
// rotation the centre pixel sees the body point at latitude 30 degrees, longitude 0: the middle
// of a base-colour stripe, well clear of the equator band and of stripe edges (22.5 degrees away).
// The key light is fixed in the world; these tests put it where the camera sees it from the
// upper left, in front of the sphere (kViewLight, in view space).

constexpr float kSphereRadius = 0.2f;
const glm::vec3 kOrange{0.95f, 0.45f, 0.12f};
const glm::vec3 kViewLight{-0.45f, 0.6f, 0.66f};

float Brightness(const glm::vec3& c) {
    return c.r + c.g + c.b;
}

// Cosine between two colours seen as RGB vectors: 1 when one is a positive multiple of the
// other, i.e. same hue and saturation whatever the brightness.
float ColourCosine(const glm::vec3& a, const glm::vec3& b) {
    return glm::dot(glm::normalize(a), glm::normalize(b));
}

class HeadlessSphere : public HeadlessRender {
protected:
    void SetUp() override {
        HeadlessRender::SetUp();
        m_camera.Reset(
            CameraPose{.target = glm::vec3(0.0f), .distance = 1.0f, .yaw = 0.0f, .pitch = 30.0f});
    }

    // Pixel radius of the sphere's silhouette (apparent angular radius asin(r / d)).
    float PixelRadius(const FrameInput& input) const {
        const float halfAngle = std::asin(kSphereRadius / 1.0f);
        return std::tan(halfAngle) * input.view.projection[1][1] * kHeight / 2.0f;
    }

    FrameInput SphereInput() const {
        FrameInput input = Input();
        LightFromView(input, kViewLight);
        return input;
    }

    render::SphereInstance Sphere(const glm::mat3& rotation = glm::mat3(1.0f)) const {
        return {.center = glm::vec3(0.0f),
                .radius = kSphereRadius,
                .rotation = rotation,
                .color = kOrange};
    }

    static constexpr int kCx = kWidth / 2;
    static constexpr int kCy = kHeight / 2;
};

TEST_F(HeadlessSphere, CentreShowsTheLitColour) {
    const std::vector<render::SphereInstance> spheres = {Sphere()};
    FrameInput input = SphereInput();
    input.spheres = spheres;
    const auto rgb = Render(input);
    const glm::vec3 centre = MeanAround(rgb, kWidth, kCx, kCy, 1);
    // The surface faces the eye here and the key light makes 49 degrees with it: key 2.4 cos 49
    // = 1.57 plus the sky's ~0.2 on a base stripe of linear albedo 0.89 in red, a radiance of
    // ~1.6, which the tone curve shows as the colour as given in red and blue, with green
    // lifted a little: the curve's path to white (measured 241, 150, 31 against 242, 115, 31),
    // against ~100 for the top of the backdrop. Demand 0.7 of the colour's brightness, and no
    // more than 50 above it (white is 765).
    const float fullColour = Brightness(kOrange * 255.0f);
    EXPECT_GT(Brightness(centre), 0.7f * fullColour)
        << centre.r << "," << centre.g << "," << centre.b;
    EXPECT_LT(Brightness(centre), fullColour + 50.0f) << "the lit face should not wash out";
    // Lighting scales the three channels alike; the tone curve's path to white, the sky's tint,
    // the small white specular tail and 8-bit rounding tilt the colour (measured cosine 0.9936;
    // yellow 242, 242, 31 would be 0.94). 0.99 is an 8 degree cone.
    EXPECT_GT(ColourCosine(centre, kOrange), 0.99f)
        << centre.r << "," << centre.g << "," << centre.b;
    // Outside the silhouette the background is untouched.
    const int radius = static_cast<int>(PixelRadius(input));
    ASSERT_GT(radius, 20);
    const glm::vec3 outside = PixelAt(rgb, kWidth, kCx + radius + 4, kCy);
    EXPECT_LT(Brightness(outside), 60.0f);
}

TEST_F(HeadlessSphere, LitSideIsBrighterThanShadowSide) {
    const std::vector<render::SphereInstance> spheres = {Sphere()};
    FrameInput input = SphereInput();
    input.spheres = spheres;
    const auto rgb = Render(input);
    // The screen's vertical centre line is the meridian of longitude 0, the middle of a
    // base-colour stripe, so both points below have the same surface colour. The key light
    // comes from the upper left: 0.6 r above the centre N.L ~ 0.9; 0.85 r below it the normal
    // ((0, -0.75, 0.66) in view space, perspective included) turns just away from the light, so
    // only the ambient and the faint rim remain. That point is at latitude -19 degrees, clear of
    // the equator band.
    const float r = PixelRadius(input);
    const glm::vec3 lit = MeanAround(rgb, kWidth, kCx, kCy - static_cast<int>(0.6f * r), 1);
    const glm::vec3 shadow = MeanAround(rgb, kWidth, kCx, kCy + static_cast<int>(0.85f * r), 1);
    // Measured brightness 418 against 170 (the tone curve's toe lifts the shadow); demand 2.
    EXPECT_GT(Brightness(lit), 2.0f * Brightness(shadow))
        << "lit " << Brightness(lit) << " shadow " << Brightness(shadow);
    EXPECT_GT(Brightness(shadow), 60.0f) << "the shadow side should keep some ambient light";
    // The sky's light is a little blue and the faint rim adds a little white, which shows
    // mostly in the small blue channel (measured cosine 0.999).
    EXPECT_GT(ColourCosine(shadow, kOrange), 0.98f);
}

// Pixels within 0.4 radii of the sphere's centre that differ between two frames.
int InnerPixelsChanged(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int inner) {
    int changed = 0;
    for (int y = kHeight / 2 - inner; y <= kHeight / 2 + inner; ++y) {
        for (int x = kWidth / 2 - inner; x <= kWidth / 2 + inner; ++x) {
            changed += PixelAt(a, kWidth, x, y) != PixelAt(b, kWidth, x, y) ? 1 : 0;
        }
    }
    return changed;
}

TEST_F(HeadlessSphere, HidesTracersBehindButNotInFront) {
    // Particle mode: sprites are depth-tested against the sphere.
    const std::vector<render::SphereInstance> spheres = {Sphere()};
    const glm::vec3 towardsEye = glm::normalize(m_camera.Eye());
    // A cluster 0.5 m behind the centre, within 0.1 m of the line of sight: every sprite
    // projects inside the silhouette's inner half, where the sphere must hide it entirely.
    std::mt19937 random(11);
    std::uniform_real_distribution<float> offset(-0.05f, 0.05f);
    std::vector<glm::vec3> behind(200);
    for (auto& p : behind) p = -0.5f * towardsEye + glm::vec3(offset(random), offset(random), 0);
    const std::vector<glm::vec3> inFront = {0.5f * towardsEye};
    const std::vector<glm::vec4> white = {glm::vec4(1.0f)};

    FrameInput input = SphereInput();
    input.look.dye = DyeStyle::Particles;
    input.spheres = spheres;
    input.groupColors = white;
    input.look.tracerOpacity = 1.0f;
    input.look.tracerSize = 0.03f;
    const auto alone = Render(input);
    input.tracerPositions = behind;
    const auto hidden = Render(input);
    input.tracerPositions = inFront;
    const auto shown = Render(input);

    // Depth-rejected fragments leave no trace and the sphere's fragments are the same (the
    // tracers are behind and below it, so they shade it from neither the key light nor the
    // sky), so the inner pixels must match exactly.
    EXPECT_EQ(InnerPixelsChanged(alone, hidden, int(0.4f * PixelRadius(input))), 0)
        << "tracers behind the sphere showed through";
    // The tracer in front (half way to the eye, ~9 px across) is opaque white at its centre.
    const glm::vec3 before = PixelAt(alone, kWidth, kCx, kCy);
    const glm::vec3 after = PixelAt(shown, kWidth, kCx, kCy);
    EXPECT_GT(after.b, before.b + 100.0f) << "a tracer in front of the sphere should show";
}

TEST_F(HeadlessSphere, HidesDyeVolumeBehindButNotInFront) {
    // Volume mode: the march stops at the sphere's depth. A ball of dye (300 tracers of 1 cm^3
    // each, Gaussian with sigma 3 cm: concentration about 1.5 at its centre, optical depth
    // about 1.3 through it) 0.5 m behind the sphere, then 0.5 m in front of it.
    const std::vector<render::SphereInstance> spheres = {Sphere()};
    const glm::vec3 towardsEye = glm::normalize(m_camera.Eye());
    std::mt19937 random(11);
    std::normal_distribution<float> offset(0.0f, 0.03f);
    std::vector<glm::vec3> behind(300), inFront(300);
    for (std::size_t i = 0; i < behind.size(); ++i) {
        const glm::vec3 o(offset(random), offset(random), offset(random));
        behind[i] = -0.5f * towardsEye + o;
        inFront[i] = 0.5f * towardsEye + o;
    }
    const std::vector<glm::vec4> white = {glm::vec4(1.0f)};
    FrameInput input = SphereInput();
    input.spheres = spheres;
    input.groupColors = white;
    input.tracerVolume = 1e-6f;
    const auto alone = Render(input);
    input.tracerPositions = behind;
    const auto hidden = Render(input);
    input.tracerPositions = inFront;
    const auto shown = Render(input);
    EXPECT_EQ(InnerPixelsChanged(alone, hidden, int(0.4f * PixelRadius(input))), 0)
        << "dye behind the sphere showed through";
    const glm::vec3 before = PixelAt(alone, kWidth, kCx, kCy);
    const glm::vec3 after = PixelAt(shown, kWidth, kCx, kCy);
    EXPECT_GT(after.b, before.b + 100.0f) << "dye in front of the sphere should show";
}

TEST_F(HeadlessSphere, PatternTurnsWithTheBody) {
    const std::vector<render::SphereInstance> upright = {Sphere()};
    FrameInput input = SphereInput();
    input.spheres = upright;
    const auto base = Render(input);

    // 45 degrees about the vertical axis puts a darker stripe (0.55 of the colour as given,
    // 0.27 of its radiance) where a base-colour stripe was; the light, fixed in the world, is
    // unchanged. The filmic tone curve compresses that step: here, with the lit stripe near
    // the curve's shoulder, to 0.85 of the brightness (measured). Unturned it stays 1.
    const glm::mat3 yawed(glm::rotate(glm::mat4(1.0f), glm::radians(45.0f), glm::vec3(0, 0, 1)));
    const std::vector<render::SphereInstance> turned = {Sphere(yawed)};
    input.spheres = turned;
    const auto turnedRgb = Render(input);
    const glm::vec3 before = MeanAround(base, kWidth, kCx, kCy, 1);
    const glm::vec3 after = MeanAround(turnedRgb, kWidth, kCx, kCy, 1);
    EXPECT_LT(Brightness(after), 0.92f * Brightness(before))
        << "before " << Brightness(before) << " after " << Brightness(after);
    EXPECT_GT(Brightness(after), 0.4f * Brightness(before));
    EXPECT_GT(ColourCosine(after, kOrange), 0.99f) << "the darker stripe is a shade, same hue";

    // A quarter turn about the line of sight keeps the body point at the centre (so the centre
    // keeps its colour) but swings the equator band and stripes across the rest of the disc.
    const glm::vec3 axis = glm::normalize(m_camera.Eye());
    const glm::mat3 rolled(glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), axis));
    const std::vector<render::SphereInstance> rolledSpheres = {Sphere(rolled)};
    input.spheres = rolledSpheres;
    const auto rolledRgb = Render(input);
    const glm::vec3 rolledCentre = MeanAround(rolledRgb, kWidth, kCx, kCy, 1);
    // Normals are interpolated over a turned mesh now, which could move a level or two.
    EXPECT_LT(glm::length(rolledCentre - before), 6.0f);
    int changed = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const float d = Brightness(PixelAt(rolledRgb, kWidth, x, y)) -
                            Brightness(PixelAt(base, kWidth, x, y));
            changed += std::abs(d) > 60.0f ? 1 : 0;
        }
    }
    // Of the ~2750 pixels of the disc, ~1300 change: the band alone (~5 px wide, ~55 px long)
    // leaves and enters ~2 x 250; 300 leaves a wide margin yet is far above edge noise.
    EXPECT_GT(changed, 300) << "the body-fixed pattern should move with the rotation";
}

TEST_F(HeadlessSphere, HighlightBrightensAndAddsRim) {
    render::SphereInstance sphere = Sphere();
    const std::vector<render::SphereInstance> plain = {sphere};
    sphere.highlight = true;
    const std::vector<render::SphereInstance> highlighted = {sphere};
    FrameInput input = SphereInput();
    input.spheres = plain;
    const auto plainRgb = Render(input);
    input.spheres = highlighted;
    const auto highlightedRgb = Render(input);

    // Centre: a glow of the colour mixed with white adds to every channel (measured brightness
    // 469 against 386).
    const glm::vec3 centre = MeanAround(highlightedRgb, kWidth, kCx, kCy, 1);
    const glm::vec3 plainCentre = MeanAround(plainRgb, kWidth, kCx, kCy, 1);
    EXPECT_GT(Brightness(centre), Brightness(plainCentre) + 30.0f);
    // Near the shadowed right edge (0.9 r) the fresnel rim dominates the faint ambient
    // (measured 536 against 120).
    const int x = kCx + static_cast<int>(0.9f * PixelRadius(input));
    const float rim = Brightness(MeanAround(highlightedRgb, kWidth, x, kCy, 1));
    const float plainRim = Brightness(MeanAround(plainRgb, kWidth, x, kCy, 1));
    EXPECT_GT(rim, plainRim + 100.0f) << "rim " << rim << " plain " << plainRim;
}


TEST_F(HeadlessSphere, SilhouetteIsAntialiasedLikeTheWindow) {
    // The headless frames are drawn multisampled, as the window is (issue 13: jagged sphere
    // edges in videos). Along rays from the centre, a pixel on the silhouette that the edge
    // cuts is a blend of the surface just inside and the backdrop just outside; without
    // multisampling every pixel is one or the other. Count the rays whose crossing pixel
    // lies between the two by more than 15 % of their difference on both sides: measured
    // 71 of 164 (0.43) with the renderer's 4 samples, 31 of 164 (0.19, shading steps) with
    // one. (Samples are averaged in linear radiance before the tone curve, so a half-covered
    // pixel shows brighter than half way: fewer rays than with blending in display values.)
    EXPECT_GT(m_context->HeadlessSamples(), 1) << "llvmpipe offers 4 samples";
    const std::vector<render::SphereInstance> spheres = {Sphere()};
    FrameInput input = SphereInput();
    input.spheres = spheres;
    const auto rgb = Render(input);
    const float radius = PixelRadius(input);
    int rays = 0, blended = 0;
    for (int a = 0; a < 180; ++a) {
        const float angle = 2.0f * 3.14159265f * float(a) / 180.0f;
        const glm::vec2 dir(std::cos(angle), std::sin(angle));
        auto at = [&](float r) {
            const glm::vec2 p = glm::vec2(kCx + 0.5f, kCy + 0.5f) + r * dir;
            return Brightness(PixelAt(rgb, kWidth, int(std::floor(p.x)), int(std::floor(p.y))));
        };
        const float inside = at(radius - 3.0f), outside = at(radius + 3.0f);
        if (inside - outside < 60.0f) continue;  // the unlit limb: too dark to tell
        ++rays;
        for (float r = radius - 1.5f; r <= radius + 1.5f; r += 0.25f) {
            const float f = (at(r) - outside) / (inside - outside);
            if (f > 0.15f && f < 0.85f) {
                ++blended;
                break;
            }
        }
    }
    ASSERT_GT(rays, 60);
    EXPECT_GT(float(blended) / float(rays), 0.3f) << blended << " of " << rays << " rays";
}

}  // namespace
}  // namespace vorton
