// Scene files: every shipped scene loads; errors name file:line and the problem.

#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "scene/scene.h"
#include "test_util.h"

namespace vorton {
namespace {

using test::SceneDir;

/// A valid scene; `groupExtra` is spliced into the group on its own line 9.
std::string SceneText(const std::string& groupExtra = "", const std::string& paramsExtra = "") {
    return "// a test scene\n"    // 1
           "{\n"                  // 2
           "  \"version\": 1,\n"  // 3
           "  \"params\": { \"dt\": 0.01" +
           paramsExtra +
           " },\n"                        // 4
           "  \"groups\": [\n"            // 5
           "    {\n"                      // 6
           "      \"name\": \"drop\",\n"  // 7
           "      \"radius\": 0.2,\n"     // 8
           "      " +
           groupExtra +
           "\n"                                 // 9
           "      \"density_deviation\": 50\n"  // 10
           "    }\n"                            // 11
           "  ]\n"                              // 12
           "}\n";                               // 13
}

TEST(Scene, EveryShippedSceneLoads) {
    const auto names = ListSceneNames(SceneDir());
    for (const char* required : {"dye_drop", "two_drops", "vortex_ring", "rayleigh_taylor"}) {
        EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
    }
    for (const std::string& name : names) {
        auto scene = LoadSceneFile(SceneDir() / (name + ".json"));
        ASSERT_TRUE(scene.ok()) << scene.error();
        EXPECT_EQ(scene.value().name, name);
        EXPECT_FALSE(scene.value().description.empty()) << name;
        EXPECT_FALSE(scene.value().setup.groups.empty()) << name;
    }
}

TEST(Scene, ValidTextParses) {
    auto scene = ParseScene(SceneText("\"halo\": 0.05,"), "t.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    const SceneSetup& s = scene.value().setup;
    EXPECT_FLOAT_EQ(s.params.dt, 0.01f);
    ASSERT_EQ(s.groups.size(), 1u);
    EXPECT_EQ(s.groups[0].name, "drop");
    EXPECT_FLOAT_EQ(s.groups[0].radius, 0.2f);
    EXPECT_FLOAT_EQ(s.groups[0].halo, 0.05f);
    EXPECT_FLOAT_EQ(s.groups[0].densityDeviation, 50.0f);
    EXPECT_EQ(s.groups[0].shape, DensityGroup::Shape::Sphere);
}

TEST(Scene, CommentsAreAllowed) {
    auto scene =
        ParseScene(SceneText("/* block\n comment */ \"halo\": 0.05, // trailing"), "t.json");
    EXPECT_TRUE(scene.ok()) << scene.error();
}

TEST(Scene, SyntaxErrorNamesLineAndColumn) {
    // Line 9 holds a key with no value.
    auto scene = ParseScene(SceneText("\"halo\": ,"), "bad.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_TRUE(std::regex_search(scene.error(), std::regex("^bad\\.json:9:[0-9]+: ")))
        << scene.error();
    // A missing comma is seen at the next token, on line 10.
    auto missingComma = ParseScene(SceneText("\"halo\": 0.05"), "bad.json");
    ASSERT_FALSE(missingComma.ok());
    EXPECT_TRUE(std::regex_search(missingComma.error(), std::regex("^bad\\.json:10:[0-9]+: ")))
        << missingComma.error();
}

TEST(Scene, UnknownGroupKeyNamesLineAndListsValidKeys) {
    auto scene = ParseScene(SceneText("\"raduis\": 0.3,"), "bad.json");
    ASSERT_FALSE(scene.ok());
    const std::string& e = scene.error();
    EXPECT_EQ(e.rfind("bad.json:9:", 0), 0u) << e;
    EXPECT_NE(e.find("raduis"), std::string::npos) << e;
    for (const char* key :
         {"name", "shape", "center", "radius", "halo", "density_deviation", "dye", "circulation"}) {
        EXPECT_NE(e.find(key), std::string::npos) << key << " missing from: " << e;
    }
}

TEST(Scene, UnknownParamListsValidKeys) {
    auto scene = ParseScene(SceneText("", ", \"gravty\": [0, 0, -9.81]"), "bad.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.error().rfind("bad.json:4:", 0), 0u) << scene.error();
    EXPECT_NE(scene.error().find("gravty"), std::string::npos);
    EXPECT_NE(scene.error().find("gravity"), std::string::npos);
    EXPECT_NE(scene.error().find("drop.density_deviation"), std::string::npos);
}

TEST(Scene, WrongTypeNamesLineAndKey) {
    auto scene = ParseScene(SceneText("\"halo\": \"thick\","), "bad.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.error().rfind("bad.json:9:", 0), 0u) << scene.error();
    EXPECT_NE(scene.error().find("halo"), std::string::npos) << scene.error();
    auto vec = ParseScene(SceneText("\"center\": [0, 1],"), "bad.json");
    ASSERT_FALSE(vec.ok());
    EXPECT_EQ(vec.error().rfind("bad.json:9:", 0), 0u) << vec.error();
    EXPECT_NE(vec.error().find("center"), std::string::npos) << vec.error();
}

TEST(Scene, OutOfRangeNamesLineAndKey) {
    auto scene = ParseScene(SceneText("\"halo\": -1,"), "bad.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.error().rfind("bad.json:9:", 0), 0u) << scene.error();
    EXPECT_NE(scene.error().find("halo"), std::string::npos) << scene.error();
    EXPECT_NE(scene.error().find("range"), std::string::npos) << scene.error();
    // A live key checked through the parameter table, on the last line of its object (no comma
    // after it).
    std::string text = SceneText();
    text.replace(text.find("50\n"), 2, "5000");
    auto live = ParseScene(text, "bad.json");
    ASSERT_FALSE(live.ok());
    EXPECT_EQ(live.error().rfind("bad.json:10:", 0), 0u) << live.error();
    EXPECT_NE(live.error().find("density_deviation"), std::string::npos) << live.error();
    // A parameter out of range.
    auto param = ParseScene(SceneText("", ", \"vorton_count\": 0"), "bad.json");
    ASSERT_FALSE(param.ok());
    EXPECT_EQ(param.error().rfind("bad.json:4:", 0), 0u) << param.error();
    EXPECT_NE(param.error().find("vorton_count"), std::string::npos) << param.error();
}

TEST(Scene, VersionIsRequired) {
    std::string text = SceneText();
    text.replace(text.find("\"version\": 1,"), 13, "");
    auto missing = ParseScene(text, "bad.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().rfind("bad.json:", 0), 0u) << missing.error();
    EXPECT_NE(missing.error().find("version"), std::string::npos) << missing.error();
    std::string v2 = SceneText();
    v2.replace(v2.find("\"version\": 1"), 12, "\"version\": 2");
    auto unsupported = ParseScene(v2, "bad.json");
    ASSERT_FALSE(unsupported.ok());
    EXPECT_EQ(unsupported.error().rfind("bad.json:3:", 0), 0u) << unsupported.error();
}

TEST(Scene, DuplicateGroupNamesAreRejected) {
    const std::string text =
        "{\n"
        "  \"version\": 1,\n"
        "  \"groups\": [\n"
        "    { \"name\": \"a\" },\n"
        "    { \"name\": \"a\" }\n"
        "  ]\n"
        "}\n";
    auto scene = ParseScene(text, "dup.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.error().rfind("dup.json:5:", 0), 0u) << scene.error();
    EXPECT_NE(scene.error().find("duplicate"), std::string::npos) << scene.error();
}

TEST(Scene, BadShapesAndGroupsAreRejected) {
    auto shape = ParseScene(SceneText("\"shape\": \"cube\","), "bad.json");
    ASSERT_FALSE(shape.ok());
    EXPECT_NE(shape.error().find("sphere, box, torus"), std::string::npos) << shape.error();
    auto torus = ParseScene(SceneText("\"shape\": \"torus\", \"minor_radius\": 0.3,"), "bad.json");
    ASSERT_FALSE(torus.ok());
    EXPECT_NE(torus.error().find("minor_radius"), std::string::npos) << torus.error();
    auto noGroups = ParseScene("{ \"version\": 1, \"groups\": [] }", "bad.json");
    EXPECT_FALSE(noGroups.ok());
    auto unknownTop = ParseScene("{ \"version\": 1, \"grups\": [] }", "bad.json");
    ASSERT_FALSE(unknownTop.ok());
    EXPECT_NE(unknownTop.error().find("groups"), std::string::npos) << unknownTop.error();
}

/// A valid scene with a fixed body "post" (density 0 is fine for it) and a
/// free body "ball" whose "name" is on line 7; `ballExtra` is spliced in on
/// line 9, and `groupExtra` into the box group on line 3.
std::string BodySceneText(const std::string& ballExtra = "", const std::string& groupExtra = "") {
    return "{\n"                                                                           // 1
           "  \"version\": 1,\n"                                                           // 2
           "  \"groups\": [ { \"name\": \"drop\", \"shape\": \"box\", " + groupExtra +
           " \"density_deviation\": 50 } ],\n"                                             // 3
           "  \"bodies\": [\n"                                                             // 4
           "    { \"name\": \"post\", \"fixed\": true, \"density\": 0, \"radius\": 0.05, \"position\": [1, 1, 0] },\n"  // 5
           "    {\n"                                                                       // 6
           "      \"name\": \"ball\",\n"                                                   // 7
           "      \"radius\": 0.1,\n"                                                      // 8
           "      " + ballExtra + "\n"                                                     // 9
           "      \"density\": 1200\n"                                                     // 10
           "    }\n"                                                                       // 11
           "  ]\n"                                                                         // 12
           "}\n";                                                                          // 13
}

TEST(Scene, BodiesParse) {
    auto scene = ParseScene(BodySceneText("\"position\": [0.5, -1, 2], \"velocity\": [1, 2, 3], "
                                          "\"angular_velocity\": [0, 0, 4], \"color\": [0.1, 0.2, 0.3], "
                                          "\"fixed\": false,"),
                            "b.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    const SceneSetup& s = scene.value().setup;
    ASSERT_EQ(s.bodies.size(), 2u);
    EXPECT_EQ(s.bodies[0].name, "post");
    EXPECT_TRUE(s.bodies[0].fixed);
    EXPECT_EQ(s.bodies[0].density, 0.0f);
    EXPECT_FLOAT_EQ(s.bodies[0].radius, 0.05f);
    const BodySpec& ball = s.bodies[1];
    EXPECT_EQ(ball.name, "ball");
    EXPECT_FALSE(ball.fixed);
    EXPECT_FLOAT_EQ(ball.radius, 0.1f);
    EXPECT_FLOAT_EQ(ball.density, 1200.0f);
    EXPECT_EQ(ball.position, glm::vec3(0.5f, -1.0f, 2.0f));
    EXPECT_EQ(ball.velocity, glm::vec3(1.0f, 2.0f, 3.0f));
    EXPECT_EQ(ball.angularVelocity, glm::vec3(0.0f, 0.0f, 4.0f));
    EXPECT_EQ(ball.color, glm::vec3(0.1f, 0.2f, 0.3f));
    // Defaults where keys are left out, and no bodies without a "bodies" array.
    auto plain = ParseScene(BodySceneText(), "b.json");
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_EQ(plain.value().setup.bodies[1].position, BodySpec{}.position);
    EXPECT_EQ(plain.value().setup.bodies[1].color, BodySpec{}.color);
    auto none = ParseScene(SceneText(), "t.json");
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_TRUE(none.value().setup.bodies.empty());
}

TEST(Scene, UnknownBodyKeyNamesLineAndListsValidKeys) {
    auto scene = ParseScene(BodySceneText("\"mass\": 3,"), "bad.json");
    ASSERT_FALSE(scene.ok());
    const std::string& e = scene.error();
    EXPECT_EQ(e.rfind("bad.json:9:", 0), 0u) << e;
    EXPECT_NE(e.find("mass"), std::string::npos) << e;
    for (const char* key :
         {"name", "position", "velocity", "angular_velocity", "radius", "density", "fixed", "oscillation_velocity",
          "oscillation_period", "color"}) {
        EXPECT_NE(e.find(key), std::string::npos) << key << " missing from: " << e;
    }
}

TEST(Scene, BadBodyValuesNameLineAndKey) {
    struct Case {
        const char* extra;
        const char* expect;
    };
    for (const Case& c : {Case{"\"radius\": -1,", "radius"}, Case{"\"fixed\": 1,", "fixed"},
                          Case{"\"fixed\": \"yes\",", "fixed"}, Case{"\"color\": [1, 2, 0],", "color"},
                          Case{"\"position\": [0, 1],", "position"},
                          Case{"\"oscillation_period\": -1,", "oscillation_period"},
                          Case{"\"oscillation_velocity\": 0.5,", "oscillation_velocity"}}) {
        // A key may appear once per object: drop line 8's radius when line 9 sets it.
        std::string text = BodySceneText(c.extra);
        if (std::string(c.extra).find("radius") != std::string::npos) {
            text.replace(text.find("\"radius\": 0.1,"), 14, "");
        }
        auto scene = ParseScene(text, "bad.json");
        ASSERT_FALSE(scene.ok()) << c.extra;
        EXPECT_EQ(scene.error().rfind("bad.json:9:", 0), 0u) << scene.error();
        EXPECT_NE(scene.error().find(c.expect), std::string::npos) << scene.error();
    }
}

TEST(Scene, FreeBodyWithoutDensityIsAnErrorAtItsLine) {
    std::string text = BodySceneText();
    text.replace(text.find("\"density\": 1200"), 15, "\"density\": 0");
    auto scene = ParseScene(text, "bad.json");
    ASSERT_FALSE(scene.ok());
    // At the free body's line (found by name), not the fixed body's with the same density.
    EXPECT_EQ(scene.error().rfind("bad.json:7: ", 0), 0u) << scene.error();
    EXPECT_NE(scene.error().find("body 'ball': a free body needs density > 0"), std::string::npos)
        << scene.error();
    // Fixed, it needs no mass.
    text.replace(text.find("\"density\": 0\n"), 12, "\"fixed\": true, \"density\": 0");
    auto fixed = ParseScene(text, "ok.json");
    EXPECT_TRUE(fixed.ok()) << fixed.error();
}

TEST(Scene, OnlyAFixedBodyCanOscillate) {
    const std::string oscillation = "\"oscillation_velocity\": [0.05, 0, 0], \"oscillation_period\": 0.4,";
    auto free = ParseScene(BodySceneText(oscillation), "bad.json");
    ASSERT_FALSE(free.ok());
    EXPECT_EQ(free.error().rfind("bad.json:7: ", 0), 0u) << free.error();
    EXPECT_NE(free.error().find("body 'ball': only a fixed body can oscillate"), std::string::npos) << free.error();
    auto fixed = ParseScene(BodySceneText(oscillation + " \"fixed\": true,"), "ok.json");
    ASSERT_TRUE(fixed.ok()) << fixed.error();
    const BodySpec& ball = fixed.value().setup.bodies[1];
    EXPECT_EQ(ball.oscillationVelocity, glm::vec3(0.05f, 0.0f, 0.0f));
    EXPECT_FLOAT_EQ(ball.oscillationPeriod, 0.4f);
}

TEST(Scene, BodyNamesAreCheckedAndSharedWithGroups) {
    for (const char* name : {"b.all", "b=1", "the ball"}) {
        std::string text = BodySceneText();
        text.replace(text.find("\"ball\""), 6, std::string("\"") + name + "\"");
        auto scene = ParseScene(text, "bad.json");
        ASSERT_FALSE(scene.ok()) << name;
        EXPECT_EQ(scene.error().rfind("bad.json:7:", 0), 0u) << scene.error();
        EXPECT_NE(scene.error().find(name), std::string::npos) << scene.error();
    }
    for (const char* name : {"drop", "post"}) {
        std::string text = BodySceneText();
        text.replace(text.find("\"ball\""), 6, std::string("\"") + name + "\"");
        auto scene = ParseScene(text, "dup.json");
        ASSERT_FALSE(scene.ok()) << name;
        EXPECT_EQ(scene.error().rfind("dup.json:7:", 0), 0u) << scene.error();
        EXPECT_NE(scene.error().find("duplicate"), std::string::npos) << scene.error();
    }
    std::string unnamed = BodySceneText();
    unnamed.replace(unnamed.find("\"name\": \"ball\","), 15, "");
    auto noName = ParseScene(unnamed, "bad.json");
    ASSERT_FALSE(noName.ok());
    EXPECT_EQ(noName.error().rfind("bad.json:6:", 0), 0u) << noName.error();
    EXPECT_NE(noName.error().find("name"), std::string::npos) << noName.error();
    auto notArray = ParseScene(
        "{ \"version\": 1, \"groups\": [ { \"name\": \"a\" } ],\n \"bodies\": { } }", "bad.json");
    ASSERT_FALSE(notArray.ok());
    EXPECT_EQ(notArray.error().rfind("bad.json:2:", 0), 0u) << notArray.error();
    EXPECT_NE(notArray.error().find("bodies"), std::string::npos) << notArray.error();
}

TEST(Scene, LayerAndEmitAreBooleans) {
    auto scene = ParseScene(BodySceneText("", "\"layer\": true, \"emit\": false,"), "t.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    EXPECT_TRUE(scene.value().setup.groups[0].layer);
    EXPECT_FALSE(scene.value().setup.groups[0].emit);
    auto emit = ParseScene(BodySceneText("", "\"emit\": true,"), "t.json");
    ASSERT_TRUE(emit.ok()) << emit.error();
    EXPECT_FALSE(emit.value().setup.groups[0].layer);
    EXPECT_TRUE(emit.value().setup.groups[0].emit);
    auto absent = ParseScene(SceneText(), "t.json");
    ASSERT_TRUE(absent.ok());
    EXPECT_FALSE(absent.value().setup.groups[0].layer);
    EXPECT_FALSE(absent.value().setup.groups[0].emit);

    for (const char* bad : {"\"layer\": 1,", "\"emit\": \"true\","}) {
        auto s = ParseScene(SceneText(bad), "bad.json");
        ASSERT_FALSE(s.ok()) << bad;
        EXPECT_EQ(s.error().rfind("bad.json:9:", 0), 0u) << s.error();
        EXPECT_NE(s.error().find(std::string(bad).substr(1, 4)), std::string::npos) << s.error();
        EXPECT_NE(s.error().find("true or false"), std::string::npos) << s.error();
    }
    // A layer must be a box (SetupProblem), reported at the group's name: line 7 of SceneText.
    auto sphereLayer = ParseScene(SceneText("\"layer\": true,"), "bad.json");
    ASSERT_FALSE(sphereLayer.ok());
    EXPECT_EQ(sphereLayer.error().rfind("bad.json:7: ", 0), 0u) << sphereLayer.error();
    EXPECT_NE(sphereLayer.error().find("group 'drop'"), std::string::npos) << sphereLayer.error();
    EXPECT_NE(sphereLayer.error().find("box"), std::string::npos) << sphereLayer.error();
}

TEST(Scene, ShapesFarLargerThanTheirVolumeAreRefusedNotSeeded) {
    // A box 0.4 m high with a 5 km wave (found by the scene fuzzer: seeding
    // it tested ~7·10⁸ lattice points and timed out) is refused at once.
    auto huge = ParseScene(SceneText("\"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
                                     "\"wave_amplitude\": 5025,"),
                           "wave.json");
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().rfind("wave.json:", 0), 0u) << huge.error();
    EXPECT_NE(huge.error().find("seeding lattice points"), std::string::npos) << huge.error();
    EXPECT_NE(huge.error().find("wave_amplitude"), std::string::npos) << huge.error();
    // The same box with a wave of its own size loads.
    auto fine = ParseScene(SceneText("\"shape\": \"box\", \"half_extents\": [0.2, 0.2, 0.2], "
                                     "\"wave_amplitude\": 0.05,"),
                           "wave.json");
    EXPECT_TRUE(fine.ok()) << fine.error();
}

TEST(Scene, FilesAndNames) {
    auto byName = ResolveScenePath("dye_drop", SceneDir());
    ASSERT_TRUE(byName.ok()) << byName.error();
    EXPECT_EQ(byName.value(), SceneDir() / "dye_drop.json");
    const std::string file = (SceneDir() / "two_drops.json").string();
    auto byPath = ResolveScenePath(file, SceneDir());
    ASSERT_TRUE(byPath.ok()) << byPath.error();
    auto unknown = ResolveScenePath("dye_dorp", SceneDir());
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("dye_dorp"), std::string::npos);
    EXPECT_NE(unknown.error().find("dye_drop"), std::string::npos);  // lists the valid names
    auto missing = LoadSceneFile(SceneDir() / "no_such_scene.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("no_such_scene.json"), std::string::npos);
}

}  // namespace
}  // namespace vorton

namespace vorton {
namespace {

// Issue 14: camera and display settable from the command line.
TEST(Scene, SetCameraKeysAndAnUnknownOneListsTheValidKeys) {
    const std::string sets[] = {"camera.distance=3", "camera.yaw=-40", "camera.target=0,0.5,1", "camera.fit=false"};
    auto scene = PrepareScene("dye_drop", sets);
    ASSERT_TRUE(scene.ok()) << scene.error();
    EXPECT_EQ(scene.value().camera.distance, 3.0f);
    EXPECT_EQ(scene.value().camera.yaw, -40.0f);
    EXPECT_EQ(scene.value().camera.target, glm::vec3(0.0f, 0.5f, 1.0f));
    EXPECT_FALSE(scene.value().camera.fit);
    const std::string bad[] = {"camera.zoom=2"};
    auto unknown = PrepareScene("dye_drop", bad);
    ASSERT_FALSE(unknown.ok());
    for (const char* key : {"camera.zoom", "camera.distance", "camera.yaw", "camera.pitch", "camera.fov",
                            "camera.target", "camera.follow", "camera.fit", "camera.frame_bodies"}) {
        EXPECT_NE(unknown.error().find(key), std::string::npos) << key << " missing from: " << unknown.error();
    }
}

}  // namespace
}  // namespace vorton

namespace vorton {
namespace {

// A body that makes its own wake needs the projection after each remesh (or
// the wake's net vorticity drifts from Kelvin's sum and falling_ball's path
// turns oblique at 0.58 of the drag curve): a scene file that does not give
// solenoidal_remesh gets it where body_sheet is on, also when --set turns
// body_sheet on; a value given in the file or by --set is kept.
TEST(Scene, BodySheetWithoutRemeshingIsAnErrorAtTheKey) {
    // Bodies that make their own vorticity release a sheet of vortons every
    // step; only remeshing bounds them (falling_ball with remesh_every 0 had
    // 33,936 vortons at 2 s and blew up at 4 s). The file and --set say so.
    const std::string params = "{\n  \"version\": 1,\n  \"params\": {\n    \"body_sheet\": true,\n"
                               "    \"remesh_every\": 0\n  },\n";
    const std::string bodies = "  \"bodies\": [ { \"name\": \"ball\", \"radius\": 0.1, \"density\": 1200 } ]\n}\n";
    auto scene = ParseScene(params + bodies, "bad.json");
    ASSERT_FALSE(scene.ok());
    EXPECT_EQ(scene.error().rfind("bad.json:5: remesh_every 0 with body_sheet", 0), 0u) << scene.error();
    EXPECT_NE(scene.error().find("give remesh_every >= 1"), std::string::npos) << scene.error();
    // Without bodies, or with the skin model, remeshing stays optional.
    auto noBodies = ParseScene(params + "  \"groups\": [ { \"name\": \"drop\", \"radius\": 0.2 } ]\n}\n", "ok.json");
    EXPECT_TRUE(noBodies.ok()) << noBodies.error();
    auto set = PrepareScene("falling_ball", std::vector<std::string>{"remesh_every=0"});
    ASSERT_FALSE(set.ok());
    EXPECT_EQ(set.error().rfind("--set remesh_every=0: remesh_every 0 with body_sheet", 0), 0u) << set.error();
    auto skin = PrepareScene("stratified_ball", std::vector<std::string>{"remesh_every=0"});
    EXPECT_TRUE(skin.ok()) << skin.error();
}

TEST(Scene, SolenoidalRemeshFollowsBodySheetUnlessGiven) {
    auto sheet = ParseScene(SceneText("", ", \"body_sheet\": true"), "t.json");
    ASSERT_TRUE(sheet.ok()) << sheet.error();
    EXPECT_TRUE(sheet.value().setup.params.solenoidalRemesh);
    auto plain = ParseScene(SceneText(), "t.json");
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_FALSE(plain.value().setup.params.solenoidalRemesh);
    auto off = ParseScene(SceneText("", ", \"body_sheet\": true, \"solenoidal_remesh\": false"), "t.json");
    ASSERT_TRUE(off.ok()) << off.error();
    EXPECT_FALSE(off.value().setup.params.solenoidalRemesh);
    auto on = ParseScene(SceneText("", ", \"solenoidal_remesh\": true"), "t.json");
    ASSERT_TRUE(on.ok()) << on.error();
    EXPECT_TRUE(on.value().setup.params.solenoidalRemesh);

    // stratified_ball's ball uses the skin model and its file gives no solenoidal_remesh.
    auto stratified = PrepareScene("stratified_ball", std::vector<std::string>{});
    ASSERT_TRUE(stratified.ok()) << stratified.error();
    EXPECT_FALSE(stratified.value().setup.params.solenoidalRemesh);
    auto turned = PrepareScene("stratified_ball", std::vector<std::string>{"body_sheet=true"});
    ASSERT_TRUE(turned.ok()) << turned.error();
    EXPECT_TRUE(turned.value().setup.params.solenoidalRemesh);
    auto kept = PrepareScene("stratified_ball", std::vector<std::string>{"solenoidal_remesh=false", "body_sheet=true"});
    ASSERT_TRUE(kept.ok()) << kept.error();
    EXPECT_FALSE(kept.value().setup.params.solenoidalRemesh);
    auto given = PrepareScene("falling_ball", std::vector<std::string>{"solenoidal_remesh=false"});
    ASSERT_TRUE(given.ok()) << given.error();
    EXPECT_FALSE(given.value().setup.params.solenoidalRemesh);
}

}  // namespace
}  // namespace vorton
