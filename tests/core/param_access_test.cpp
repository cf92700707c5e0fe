// Parameters by key (`--set`, scene files and the panel share SetParam).

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>
#include <variant>

#include <gtest/gtest.h>

#include "scene/param_access.h"
#include "test_util.h"

namespace vorton {
namespace {

using nlohmann::json;

/// Parses "KEY=VALUE" and applies it; the error of either step.
Status Apply(SceneSetup& setup, const std::string& assignment) {
    auto kv = ParseAssignment(assignment);
    if (!kv) return Error{kv.error()};
    return SetParam(setup, kv.value().first, kv.value().second);
}

TEST(ParamAccess, ParseAssignmentKinds) {
    auto vec = ParseAssignment("gravity=0,0,-9.81");
    ASSERT_TRUE(vec.ok()) << vec.error();
    EXPECT_EQ(vec.value().first, "gravity");
    ASSERT_TRUE(vec.value().second.is_array());
    ASSERT_EQ(vec.value().second.size(), 3u);
    EXPECT_DOUBLE_EQ(vec.value().second[2].get<double>(), -9.81);

    auto name = ParseAssignment("solver=direct");
    ASSERT_TRUE(name.ok());
    EXPECT_EQ(name.value().second, json("direct"));

    auto integer = ParseAssignment("vorton_count=5000");
    ASSERT_TRUE(integer.ok());
    EXPECT_TRUE(integer.value().second.is_number_integer());

    auto real = ParseAssignment("drop.density_deviation=0.5");
    ASSERT_TRUE(real.ok());
    EXPECT_EQ(real.value().first, "drop.density_deviation");
    EXPECT_TRUE(real.value().second.is_number_float());

    EXPECT_FALSE(ParseAssignment("gravity").ok());
    EXPECT_FALSE(ParseAssignment("=3").ok());
    auto bad = ParseAssignment("gravity=0,x,1");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("'x'"), std::string::npos) << bad.error();
}

TEST(ParamAccess, SetAppliesGlobalAndGroupKeys) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    ASSERT_TRUE(Apply(setup, "gravity=0,0,-9.81").ok());
    EXPECT_EQ(setup.params.gravity, glm::vec3(0.0f, 0.0f, -9.81f));
    ASSERT_TRUE(Apply(setup, "gravity=1,2,3").ok());
    EXPECT_EQ(setup.params.gravity, glm::vec3(1.0f, 2.0f, 3.0f));
    ASSERT_TRUE(Apply(setup, "solver=direct").ok());
    EXPECT_EQ(setup.params.solver, Solver::Direct);
    ASSERT_TRUE(Apply(setup, "solver=tree").ok());
    EXPECT_EQ(setup.params.solver, Solver::Tree);
    ASSERT_TRUE(Apply(setup, "drop.density_deviation=0.5").ok());
    EXPECT_FLOAT_EQ(setup.groups[0].densityDeviation, 0.5f);
    ASSERT_TRUE(Apply(setup, "drop.dye=0.1,0.2,0.3").ok());
    EXPECT_EQ(setup.groups[0].dye, glm::vec3(0.1f, 0.2f, 0.3f));
    ASSERT_TRUE(Apply(setup, "vorton_count=5000").ok());
    EXPECT_EQ(setup.params.vortonCount, 5000);
    ASSERT_TRUE(Apply(setup, "ambient_density=2").ok());  // integer text for a float key
    EXPECT_FLOAT_EQ(setup.params.ambientDensity, 2.0f);
}

TEST(ParamAccess, UnknownKeyListsValidKeys) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    for (const char* key : {"gravty=0,0,1", "drop.densty=1", "nodrop.density_deviation=1"}) {
        const Status s = Apply(setup, key);
        ASSERT_FALSE(s.ok()) << key;
        EXPECT_NE(s.error().find("unknown parameter"), std::string::npos) << s.error();
        for (const std::string& valid : ParamKeys(setup)) {
            EXPECT_NE(s.error().find(valid), std::string::npos)
                << valid << " missing from: " << s.error();
        }
    }
}

TEST(ParamAccess, OutOfRangeAndWrongTypeAreRejected) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    const SceneSetup before = setup;
    const char* bad[] = {"ambient_density=0",
                         "ambient_density=1e9",
                         "gravity=0,0,-100",
                         "gravity=0,0",
                         "drop.density_deviation=5000",
                         "solver=fast",
                         "vorton_count=1.5",
                         "vorton_count=-3",
                         "viscosity=fast",
                         "dt=nan"};
    for (const char* assignment : bad) {
        const Status s = Apply(setup, assignment);
        ASSERT_FALSE(s.ok()) << assignment;
        const std::string key =
            std::string(assignment).substr(0, std::string(assignment).find('='));
        EXPECT_NE(s.error().find(key), std::string::npos) << s.error();
    }
    EXPECT_NE(Apply(setup, "ambient_density=0").error().find("range"), std::string::npos);
    EXPECT_NE(Apply(setup, "solver=fast").error().find("direct, tree"), std::string::npos);
    // Nothing was changed by the rejected values.
    EXPECT_EQ(setup.params.ambientDensity, before.params.ambientDensity);
    EXPECT_EQ(setup.params.gravity, before.params.gravity);
    EXPECT_EQ(setup.params.vortonCount, before.params.vortonCount);
    EXPECT_EQ(setup.groups[0].densityDeviation, before.groups[0].densityDeviation);
}

TEST(ParamAccess, EveryDeclaredParameterAcceptsItsRangeEnds) {
    // The table is the single declaration: every key must be settable by name
    // at its min and max, and rejected just outside (keys added later are covered too).
    SceneSetup setup = test::LoadSetup("dye_drop");
    for (const auto& info : SimParamInfos()) {
        const std::string key(info.key);
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(setup.params.*member)>;
                auto value = [](float v) {
                    if constexpr (std::is_same_v<T, int>)
                        return json(std::int64_t(v));
                    else if constexpr (std::is_same_v<T, glm::vec3>)
                        return json::array({v, v, v});
                    else
                        return json(v);
                };
                if constexpr (std::is_same_v<T, Solver>) {
                    EXPECT_TRUE(SetParam(setup, key, json("direct")).ok());
                } else {
                    EXPECT_TRUE(SetParam(setup, key, value(info.min)).ok()) << key;
                    EXPECT_TRUE(SetParam(setup, key, value(info.max)).ok()) << key;
                    const float above = info.max + std::max(1.0f, std::abs(info.max));
                    EXPECT_FALSE(SetParam(setup, key, value(above)).ok()) << key;
                }
            },
            info.member);
    }
    const std::string table = DescribeParams(setup);
    for (const std::string& key : ParamKeys(setup))
        EXPECT_NE(table.find(key), std::string::npos) << key;
}

/// The dye drop with two bodies: a free "ball" and a fixed "post".
SceneSetup WithBodies() {
    SceneSetup setup = test::LoadSetup("dye_drop");
    BodySpec ball;
    ball.name = "ball";
    setup.bodies.push_back(ball);
    BodySpec post;
    post.name = "post";
    post.fixed = true;
    setup.bodies.push_back(post);
    return setup;
}

TEST(ParamAccess, BodyKeysAreSetByName) {
    SceneSetup setup = WithBodies();
    ASSERT_TRUE(Apply(setup, "ball.radius=0.3").ok());
    EXPECT_FLOAT_EQ(setup.bodies[0].radius, 0.3f);
    EXPECT_FLOAT_EQ(setup.bodies[1].radius, BodySpec{}.radius) << "only the named body changes";
    ASSERT_TRUE(Apply(setup, "post.density=2500").ok());
    EXPECT_FLOAT_EQ(setup.bodies[1].density, 2500.0f);
    ASSERT_TRUE(Apply(setup, "ball.position=1,2,3").ok());
    EXPECT_EQ(setup.bodies[0].position, glm::vec3(1.0f, 2.0f, 3.0f));
    ASSERT_TRUE(Apply(setup, "ball.velocity=0.5,0,-1").ok());
    EXPECT_EQ(setup.bodies[0].velocity, glm::vec3(0.5f, 0.0f, -1.0f));
    ASSERT_TRUE(Apply(setup, "ball.angular_velocity=0,0,7").ok());
    EXPECT_EQ(setup.bodies[0].angularVelocity, glm::vec3(0.0f, 0.0f, 7.0f));
    ASSERT_TRUE(Apply(setup, "ball.color=0.1,0.2,0.3").ok());
    EXPECT_EQ(setup.bodies[0].color, glm::vec3(0.1f, 0.2f, 0.3f));
}

TEST(ParamAccess, BoolKeysAcceptTrueFalseAndOneZero) {
    SceneSetup setup = WithBodies();
    ASSERT_FALSE(setup.bodies[0].fixed);
    // From --set: ParseAssignment gives the string "true" or the number 1.
    ASSERT_TRUE(Apply(setup, "ball.fixed=true").ok());
    EXPECT_TRUE(setup.bodies[0].fixed);
    ASSERT_TRUE(Apply(setup, "ball.fixed=false").ok());
    EXPECT_FALSE(setup.bodies[0].fixed);
    ASSERT_TRUE(Apply(setup, "ball.fixed=1").ok());
    EXPECT_TRUE(setup.bodies[0].fixed);
    ASSERT_TRUE(Apply(setup, "ball.fixed=0").ok());
    EXPECT_FALSE(setup.bodies[0].fixed);
    // From scene files: JSON booleans.
    ASSERT_TRUE(SetParam(setup, "ball.fixed", json(true)).ok());
    EXPECT_TRUE(setup.bodies[0].fixed);
    ASSERT_TRUE(SetParam(setup, "ball.fixed", json(false)).ok());
    EXPECT_FALSE(setup.bodies[0].fixed);

    for (const char* bad :
         {"ball.fixed=yes", "ball.fixed=2", "ball.fixed=0.5", "ball.fixed=1,0,1", "ball.fixed=TRUE"}) {
        const Status s = Apply(setup, bad);
        ASSERT_FALSE(s.ok()) << bad;
        EXPECT_NE(s.error().find("ball.fixed"), std::string::npos) << s.error();
        EXPECT_NE(s.error().find("true or false"), std::string::npos) << s.error();
        EXPECT_FALSE(setup.bodies[0].fixed) << "a rejected value changes nothing: " << bad;
    }
    EXPECT_FALSE(SetParam(setup, "ball.fixed", json("")).ok());
    EXPECT_FALSE(SetParam(setup, "ball.fixed", json(nullptr)).ok());
}

TEST(ParamAccess, BodyKeysAreCheckedLikeTheOthers) {
    SceneSetup setup = WithBodies();
    const BodySpec before = setup.bodies[0];
    for (const char* bad : {"ball.radius=-1", "ball.radius=0", "ball.density=-5", "ball.color=2,0,0",
                            "ball.position=0,0", "ball.velocity=fast"}) {
        const Status s = Apply(setup, bad);
        ASSERT_FALSE(s.ok()) << bad;
        const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
        EXPECT_NE(s.error().find(key), std::string::npos) << s.error();
    }
    EXPECT_NE(Apply(setup, "ball.radius=-1").error().find("range"), std::string::npos);
    EXPECT_EQ(setup.bodies[0].radius, before.radius);
    EXPECT_EQ(setup.bodies[0].density, before.density);
    EXPECT_EQ(setup.bodies[0].color, before.color);
    // Unknown body fields and unknown bodies list every valid key, the body keys included.
    for (const char* key : {"ball.mass=1", "bal.radius=1", "ball=1"}) {
        const Status s = Apply(setup, key);
        ASSERT_FALSE(s.ok()) << key;
        EXPECT_NE(s.error().find("unknown parameter"), std::string::npos) << s.error();
        for (const std::string& valid : ParamKeys(setup)) {
            EXPECT_NE(s.error().find(valid), std::string::npos) << valid << " missing from: " << s.error();
        }
        EXPECT_NE(s.error().find("post.angular_velocity"), std::string::npos) << s.error();
    }
}

TEST(ParamAccess, KeysListGlobalThenGroupThenBodyKeys) {
    const SceneSetup setup = WithBodies();
    const std::vector<std::string> keys = ParamKeys(setup);
    const std::size_t globals = SimParamInfos().size(), perGroup = GroupParamInfos().size(),
                      perBody = BodyParamInfos().size();
    ASSERT_EQ(keys.size(), globals + setup.groups.size() * perGroup + setup.bodies.size() * perBody);
    for (std::size_t i = 0; i < globals; ++i) EXPECT_EQ(keys[i], SimParamInfos()[i].key);
    EXPECT_EQ(keys[globals], "drop." + std::string(GroupParamInfos()[0].key));
    const std::size_t firstBody = globals + perGroup;
    for (std::size_t i = 0; i < perBody; ++i) {
        EXPECT_EQ(keys[firstBody + i], "ball." + std::string(BodyParamInfos()[i].key));
        EXPECT_EQ(keys[firstBody + perBody + i], "post." + std::string(BodyParamInfos()[i].key));
    }
    for (const char* key : {"ball.position", "ball.velocity", "ball.angular_velocity", "ball.radius",
                            "ball.density", "ball.fixed", "ball.color"}) {
        EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
    }
}

TEST(ParamAccess, DescribeParamsShowsBodiesAndBooleans) {
    SceneSetup setup = WithBodies();
    ASSERT_TRUE(Apply(setup, "ball.radius=0.05").ok());
    const std::string table = DescribeParams(setup);
    for (const std::string& key : ParamKeys(setup)) EXPECT_NE(table.find(key), std::string::npos) << key;
    auto lineOf = [&](const std::string& key) {
        const std::size_t at = table.find(key + " ");
        if (at == std::string::npos) return std::string();
        return table.substr(at, table.find('\n', at) - at);
    };
    // The second column is the current value (as JSON).
    auto valueOf = [&](const std::string& key) {
        std::istringstream in(lineOf(key));
        std::string k, v;
        in >> k >> v;
        return v;
    };
    // Floats show as typed, not as the nearest double of the float (0.05000000074505806).
    EXPECT_EQ(valueOf("ball.radius"), "0.05") << lineOf("ball.radius");
    EXPECT_EQ(valueOf("ball.fixed"), "false") << lineOf("ball.fixed");
    EXPECT_EQ(valueOf("post.fixed"), "true") << lineOf("post.fixed");
    EXPECT_NE(lineOf("ball.radius").find("live"), std::string::npos) << lineOf("ball.radius");
    EXPECT_NE(lineOf("ball.position").find("on reset"), std::string::npos) << lineOf("ball.position");
}

TEST(ParamAccess, EveryBodyParameterAcceptsItsRangeEnds) {
    SceneSetup setup = WithBodies();
    for (const auto& info : BodyParamInfos()) {
        const std::string key = "ball." + std::string(info.key);
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(setup.bodies[0].*member)>;
                if constexpr (std::is_same_v<T, bool>) {
                    EXPECT_TRUE(SetParam(setup, key, json(true)).ok()) << key;
                    EXPECT_TRUE(setup.bodies[0].*member) << key;
                    EXPECT_TRUE(SetParam(setup, key, json(false)).ok()) << key;
                    EXPECT_FALSE(setup.bodies[0].*member) << key;
                } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, glm::vec3>) {
                    auto value = [](float v) {
                        if constexpr (std::is_same_v<T, glm::vec3>)
                            return json::array({v, v, v});
                        else
                            return json(v);
                    };
                    EXPECT_TRUE(SetParam(setup, key, value(info.min)).ok()) << key;
                    EXPECT_TRUE(SetParam(setup, key, value(info.max)).ok()) << key;
                    const float above = info.max + std::max(1.0f, std::abs(info.max));
                    EXPECT_FALSE(SetParam(setup, key, value(above)).ok()) << key;
                } else {
                    ADD_FAILURE() << key << ": a body parameter of a type this test does not know";
                }
            },
            info.member);
    }
}

}  // namespace
}  // namespace vorton
