// The panel's "Add a ball" (app/ui/add_ball.h): what it adds and where.

#include <span>
#include <vector>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "app/ui/add_ball.h"
#include "scene/scene.h"
#include "scene/scene_writer.h"

namespace vorton {
namespace {

BodySpec Body(const char* name, glm::vec3 position, float radius, float density) {
    BodySpec b;
    b.name = name;
    b.position = position;
    b.radius = radius;
    b.density = density;
    b.fixed = true;
    b.velocity = glm::vec3(1.0f, 0.0f, 0.0f);
    b.oscillationPeriod = 2.0f;
    b.color = glm::vec3(0.1f, 0.2f, 0.3f);
    return b;
}

TEST(AddBall, TakesTheSelectedBodysSizeButIsFreeAtRestAndNamedApart) {
    SceneSetup setup;
    setup.bodies.push_back(Body("ball", glm::vec3(5.0f, 0.0f, 0.0f), 0.12f, 4000.0f));
    setup.bodies.push_back(Body("ball_2", glm::vec3(-5.0f, 0.0f, 0.0f), 0.3f, 500.0f));
    DensityGroup smoke;
    smoke.name = "ball_3";
    setup.groups.push_back(smoke);
    const BodySpec ball = NewBall(setup, 0, glm::vec3(0.0f), {});
    EXPECT_EQ(ball.name, "ball_4") << "bodies and groups share names";
    EXPECT_EQ(ball.radius, 0.12f);
    EXPECT_EQ(ball.density, 4000.0f);
    EXPECT_EQ(ball.color, glm::vec3(0.1f, 0.2f, 0.3f));
    EXPECT_FALSE(ball.fixed);
    EXPECT_EQ(ball.velocity, glm::vec3(0.0f));
    EXPECT_EQ(ball.oscillationPeriod, 0.0f);
    EXPECT_EQ(ball.position, glm::vec3(0.0f)) << "nothing in the way: at the view's centre";
    // No bodies: 0.1 m and 1.2 times the ambient density, named "ball".
    SceneSetup empty;
    empty.params.ambientDensity = 1000.0f;
    const BodySpec first = NewBall(empty, 0, glm::vec3(1.0f, 2.0f, 3.0f), {});
    EXPECT_EQ(first.name, "ball");
    EXPECT_EQ(first.radius, 0.1f);
    EXPECT_FLOAT_EQ(first.density, 1200.0f);
}

TEST(AddBall, ASceneWithAddedBallsIsSavedAndReadBack) {
    // Saving the scene (the panel's Save, a snapshot) writes the added balls' names into a
    // scene file, which must read back: "ball 2" did not ('may not contain spaces').
    Scene scene;
    scene.name = "added";
    scene.setup.params.ambientDensity = 1000.0f;
    scene.setup.params.bodySheet = true;  // clear water: bodies make their own vorticity
    for (int i = 0; i < 3; ++i) {
        scene.setup.bodies.push_back(NewBall(scene.setup, i - 1, glm::vec3(0.0f, 0.0f, float(i)), {}));
    }
    const Result<Scene> back = ParseScene(SceneToJson(scene).dump(2), "added.json");
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back.value().setup.bodies.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(back.value().setup.bodies[i].name, scene.setup.bodies[i].name);
    EXPECT_EQ(back.value().setup.bodies[2].name, "ball_3");
}

TEST(AddBall, IsRaisedClearOfEveryBodyEvenWhenALiftBringsItIntoAnother) {
    // The view's centre is inside the lower sphere; lifted above it, the ball would be in
    // the upper one, which overlaps the lower's top: it ends above both, clear of each.
    SceneSetup setup;
    setup.bodies.push_back(Body("low", glm::vec3(0.0f), 0.2f, 1000.0f));
    const std::vector<glm::vec4> occupied{{0.0f, 0.0f, 0.0f, 0.2f}, {0.05f, 0.0f, 0.35f, 0.1f}};
    const glm::vec3 at(0.02f, 0.01f, 0.05f);
    const BodySpec ball = NewBall(setup, 0, at, occupied);
    for (const glm::vec4& o : occupied) {
        EXPECT_GE(glm::length(ball.position - glm::vec3(o)), 1.05f * (o.w + ball.radius)) << o.z;
    }
    EXPECT_EQ(ball.position.x, at.x);
    EXPECT_EQ(ball.position.y, at.y);
    EXPECT_LT(ball.position.z, 0.35f + 1.05f * 0.4f + 0.01f) << "raised just clear, not far above";
}

}  // namespace
}  // namespace vorton
