// Save scene (issue 14, item 3): a written scene file reads back to the same setup, bit for bit.

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "scene/scene.h"
#include "scene/scene_writer.h"
#include "test_util.h"

namespace vorton {
namespace {

using test::SceneDir;

/// The float bits of every field of every table, as SceneToJson writes them: equal dumps
/// mean equal floats, since each float has one shortest decimal form.
std::string Dump(const Scene& scene) { return SceneToJson(scene).dump(); }

TEST(SceneWriter, EveryShippedSceneReadsBackToTheSameJson) {
    for (const std::string& name : ListSceneNames(SceneDir())) {
        SCOPED_TRACE(name);
        auto scene = LoadSceneFile(SceneDir() / (name + ".json"));
        ASSERT_TRUE(scene.ok()) << scene.error();
        const std::string first = Dump(scene.value());
        auto again = ParseScene(first, name + " (written)");
        ASSERT_TRUE(again.ok()) << again.error();
        EXPECT_EQ(Dump(again.value()), first);
        EXPECT_EQ(again.value().setup.groups.size(), scene.value().setup.groups.size());
        EXPECT_EQ(again.value().setup.bodies.size(), scene.value().setup.bodies.size());
    }
}

TEST(SceneWriter, AwkwardFloatsKeepTheirBits) {
    auto scene = LoadSceneFile(SceneDir() / "stratified_ball.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    Scene s = scene.value();
    // Values with no short decimal form: a third, and the float next to 0.1.
    s.setup.params.viscosity = 1.0f / 3.0f * 1.0e-3f;
    s.setup.params.dt = std::nextafter(0.01f, 1.0f);
    ASSERT_FALSE(s.setup.bodies.empty());
    s.setup.bodies[0].density = 1234.5678f;
    s.camera.distance = 2.0f / 3.0f;
    s.display.exposure = 1.1f;
    auto again = ParseScene(Dump(s), "awkward");
    ASSERT_TRUE(again.ok()) << again.error();
    const Scene& r = again.value();
    EXPECT_EQ(std::memcmp(&r.setup.params.viscosity, &s.setup.params.viscosity, sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(&r.setup.params.dt, &s.setup.params.dt, sizeof(float)), 0);
    EXPECT_EQ(r.setup.bodies[0].density, s.setup.bodies[0].density);
    EXPECT_EQ(r.camera.distance, s.camera.distance);
    EXPECT_EQ(r.display.exposure, s.display.exposure);
    EXPECT_EQ(Dump(r), Dump(s));
}

TEST(SceneWriter, CurrentBodyStateReplacesTheSceneState) {
    auto scene = LoadSceneFile(SceneDir() / "stratified_ball.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    BodyState state;
    state.position = {0.1f, -0.2f, 0.3f};
    state.velocity = {0.0f, 0.0f, -0.25f};
    state.angularVelocity = {1.0f, 2.0f, 3.0f};
    const Scene moved = WithBodyStates(scene.value(), std::span<const BodyState>(&state, 1));
    auto again = ParseScene(Dump(moved), "moved");
    ASSERT_TRUE(again.ok()) << again.error();
    const BodySpec& b = again.value().setup.bodies.at(0);
    EXPECT_EQ(b.position, state.position);
    EXPECT_EQ(b.velocity, state.velocity);
    EXPECT_EQ(b.angularVelocity, state.angularVelocity);
    EXPECT_EQ(b.density, scene.value().setup.bodies[0].density);
}

TEST(SceneWriter, AnUnwritableFileIsAnErrorNamingIt) {
    auto scene = LoadSceneFile(SceneDir() / "dye_drop.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    const std::filesystem::path file = "/nonexistent_vorton_dir/saved.json";
    const Status s = SaveSceneFile(scene.value(), file);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find(file.string()), std::string::npos) << s.error();
}

}  // namespace
}  // namespace vorton
