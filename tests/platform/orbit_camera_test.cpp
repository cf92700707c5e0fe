#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/platform/orbit_camera.h"

namespace vorton {
namespace {

using platform::CameraPose;
using platform::OrbitCamera;
using platform::Ray;

constexpr float kEps = 1e-4f;

void ExpectNear(const glm::vec3& actual, const glm::vec3& expected, float eps = kEps) {
    EXPECT_NEAR(actual.x, expected.x, eps);
    EXPECT_NEAR(actual.y, expected.y, eps);
    EXPECT_NEAR(actual.z, expected.z, eps);
}

TEST(OrbitCamera, YawZeroPitchZeroLooksAlongMinusX) {
    OrbitCamera camera;
    camera.Reset(
        CameraPose{.target = {1.0f, 2.0f, 3.0f}, .distance = 2.0f, .yaw = 0.0f, .pitch = 0.0f});
    ExpectNear(camera.Eye(), {3.0f, 2.0f, 3.0f});
    camera.Reset(
        CameraPose{.target = {1.0f, 2.0f, 3.0f}, .distance = 2.0f, .yaw = 90.0f, .pitch = 0.0f});
    ExpectNear(camera.Eye(), {1.0f, 4.0f, 3.0f});
    camera.Reset(CameraPose{.distance = 2.0f, .yaw = 0.0f, .pitch = 30.0f});
    ExpectNear(camera.Eye(), {2.0f * std::cos(0.5235988f), 0.0f, 1.0f});
}

TEST(OrbitCamera, ZoomIsMultiplicative) {
    OrbitCamera camera;
    camera.Reset(CameraPose{.distance = 2.0f});
    camera.Zoom(1.0f);
    const float once = camera.Pose().distance;
    EXPECT_LT(once, 2.0f);
    camera.Zoom(1.0f);
    EXPECT_NEAR(camera.Pose().distance / once, once / 2.0f, kEps);
    camera.Zoom(-2.0f);
    EXPECT_NEAR(camera.Pose().distance, 2.0f, kEps);
    EXPECT_NEAR(glm::length(camera.Eye() - camera.Pose().target), 2.0f, kEps);
}

TEST(OrbitCamera, ViewMapsTargetOntoMinusZAxis) {
    OrbitCamera camera;
    camera.Reset(CameraPose{
        .target = {0.5f, -1.0f, 0.25f}, .distance = 4.0f, .yaw = 123.0f, .pitch = -40.0f});
    const glm::vec4 target = camera.View() * glm::vec4(camera.Pose().target, 1.0f);
    ExpectNear(glm::vec3(target), {0.0f, 0.0f, -4.0f});
    // z is up: world +z must point up on screen (positive view-space y).
    const glm::vec4 above = camera.View() * glm::vec4(camera.Pose().target + glm::vec3(0, 0, 1), 1);
    EXPECT_GT(above.y, target.y);
}

TEST(OrbitCamera, PitchStaysBelowTheVertical) {
    OrbitCamera camera;
    camera.Orbit(0.0f, 1e5f);
    EXPECT_LE(camera.Pose().pitch, 89.0f);
    EXPECT_TRUE(std::isfinite(camera.View()[0][0]));
    camera.Orbit(0.0f, -1e5f);
    EXPECT_GE(camera.Pose().pitch, -89.0f);
}

TEST(OrbitCamera, PanKeepsThePointUnderTheCursor) {
    OrbitCamera camera;
    camera.Reset(
        CameraPose{.target = {0.0f, 0.0f, 0.0f}, .distance = 3.0f, .yaw = 30.0f, .pitch = 20.0f});
    const glm::ivec2 viewport{800, 600};
    const glm::vec3 grabbed = camera.Pose().target;  // at the screen centre before the drag
    camera.Pan(40.0f, 25.0f, viewport.y);            // 40 px right, 25 px down
    const auto view = camera.MakeView(viewport);
    const glm::vec4 clip = view.projection * view.view * glm::vec4(grabbed, 1.0f);
    const float px = (clip.x / clip.w * 0.5f + 0.5f) * viewport.x;
    const float pyDown = (0.5f - clip.y / clip.w * 0.5f) * viewport.y;
    EXPECT_NEAR(px, viewport.x / 2.0f + 40.0f, 0.5f);
    EXPECT_NEAR(pyDown, viewport.y / 2.0f + 25.0f, 0.5f);
}

TEST(OrbitCamera, RayThroughViewportCentreHitsTheTarget) {
    OrbitCamera camera;
    camera.Reset(
        CameraPose{.target = {0.5f, -1.0f, 0.25f}, .distance = 4.0f, .yaw = 123.0f, .pitch = -40.0f});
    const platform::Ray ray = camera.RayThroughPixel({400.0f, 300.0f}, {800, 600});
    ExpectNear(ray.origin, camera.Eye());
    ExpectNear(ray.direction, glm::normalize(camera.Pose().target - camera.Eye()));
    ExpectNear(ray.origin + 4.0f * ray.direction, camera.Pose().target);
}

TEST(OrbitCamera, RayThroughPixelProjectsBackOntoThatPixel) {
    OrbitCamera camera;
    camera.Reset(CameraPose{
        .target = {0.0f, 0.0f, 1.0f}, .distance = 2.5f, .yaw = -60.0f, .pitch = 25.0f, .fovY = 50.0f});
    const glm::ivec2 viewport{1280, 720};
    const auto view = camera.MakeView(viewport);
    for (const glm::vec2 pixel : {glm::vec2(0.0f, 0.0f), glm::vec2(1000.0f, 100.0f), glm::vec2(37.0f, 700.0f)}) {
        const platform::Ray ray = camera.RayThroughPixel(pixel, viewport);
        EXPECT_NEAR(glm::length(ray.direction), 1.0f, kEps);
        for (const float t : {1.0f, 7.0f}) {  // every point of the ray lands on the same pixel
            const glm::vec4 clip = view.projection * view.view * glm::vec4(ray.origin + t * ray.direction, 1.0f);
            EXPECT_NEAR((clip.x / clip.w * 0.5f + 0.5f) * viewport.x, pixel.x, 0.01f);
            EXPECT_NEAR((0.5f - clip.y / clip.w * 0.5f) * viewport.y, pixel.y, 0.01f);
        }
    }
}

TEST(OrbitCamera, MakeViewFillsEverything) {
    OrbitCamera camera;
    const auto view = camera.MakeView({640, 480});
    EXPECT_EQ(view.viewport, glm::ivec2(640, 480));
    ExpectNear(view.eye, camera.Eye());
    EXPECT_NEAR(view.projection[1][1] / view.projection[0][0], 640.0f / 480.0f, kEps);
}

TEST(OrbitCamera, CentreShiftMovesTheTargetAndPickingAgrees) {
    // With the panel covering the left 30 % of the window the target is drawn at NDC x = 0.3,
    // the middle of the free part, and the ray through that pixel still hits the target.
    OrbitCamera camera;
    camera.Reset(CameraPose{.target = {0.2f, -0.1f, 0.4f}, .distance = 2.0f, .yaw = 35.0f, .pitch = 20.0f});
    camera.SetCentreShift(0.3f);
    const render::SceneView view = camera.MakeView({1000, 500});
    const glm::vec4 clip = view.projection * view.view * glm::vec4(0.2f, -0.1f, 0.4f, 1.0f);
    EXPECT_NEAR(clip.x / clip.w, 0.3f, kEps);
    EXPECT_NEAR(clip.y / clip.w, 0.0f, kEps);
    const Ray ray = camera.RayThroughPixel({0.5f * (1.0f + 0.3f) * 1000.0f, 250.0f}, {1000, 500});
    const glm::vec3 toTarget = glm::normalize(glm::vec3(0.2f, -0.1f, 0.4f) - ray.origin);
    EXPECT_GT(glm::dot(ray.direction, toTarget), 1.0f - 1e-5f);
}

TEST(OrbitCamera, FitDistanceFramesTheBoxToTheAskedFill) {
    // A tall box and a wide one, from several angles: every corner projects inside ±fill
    // vertically and ±fillWidth horizontally in normalised device coordinates, and one lies on
    // its edge (to 1 %), so the box spans the asked share of the frame on its tighter axis.
    const float aspect = 16.0f / 9.0f, fill = 0.6f, fillWidth = 0.8f;
    const glm::vec3 boxes[2][2] = {{{-0.2f, -0.2f, -0.8f}, {0.2f, 0.2f, 0.3f}},
                                   {{-1.5f, -0.3f, -0.2f}, {1.2f, 0.3f, 0.2f}}};
    for (const auto& box : boxes) {
        for (const float yaw : {-90.0f, 0.0f, 25.0f, 130.0f}) {
            for (const float pitch : {0.0f, 15.0f, 60.0f}) {
                CameraPose pose{.target = 0.5f * (box[0] + box[1]), .distance = 1.0f, .yaw = yaw, .pitch = pitch};
                pose.distance = OrbitCamera::FitDistance(pose, box[0], box[1], aspect, fill, fillWidth);
                OrbitCamera camera;
                camera.Reset(pose);
                const render::SceneView view = camera.MakeView({1600, 900});
                float largest = 0.0f;
                for (int c = 0; c < 8; ++c) {
                    const glm::vec3 corner((c & 1) ? box[1].x : box[0].x, (c & 2) ? box[1].y : box[0].y,
                                           (c & 4) ? box[1].z : box[0].z);
                    const glm::vec4 clip = view.projection * view.view * glm::vec4(corner, 1.0f);
                    ASSERT_GT(clip.w, 0.0f);
                    largest = std::max({largest, std::abs(clip.x / clip.w) * fill / fillWidth,
                                        std::abs(clip.y / clip.w)});
                }
                EXPECT_NEAR(largest, fill, 0.01f * fill) << "yaw " << yaw << " pitch " << pitch;
            }
        }
    }
}

}  // namespace
}  // namespace vorton
