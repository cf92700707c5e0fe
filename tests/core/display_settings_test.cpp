// Display settings: a scene file's "display" object, --set display.KEY, and their errors.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scene/display_settings.h"
#include "scene/scene.h"

namespace vorton {
namespace {

/// A valid scene with `display` as its "display" object on line 5.
std::string SceneWithDisplay(const std::string& display) {
    return "{\n"                                                        // 1
           "  \"version\": 1,\n"                                        // 2
           "  \"groups\": [ { \"name\": \"drop\", \"radius\": 0.2 } ],\n"  // 3
           "  \"display\":\n"                                           // 4
           "    " + display + "\n"                                      // 5
           "}\n";
}

TEST(DisplaySettings, SceneFileSetsChoicesNumbersAndBooleans) {
    auto scene = ParseScene(SceneWithDisplay(R"({ "dye": "particles", "backdrop": "light", "quality": "low",
                                                  "exposure": 1.5, "floor": false, "floor_depth": 4 })"),
                            "t.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    const DisplaySettings& d = scene.value().display;
    EXPECT_EQ(d.dye, 1);
    EXPECT_EQ(d.backdrop, 2);
    EXPECT_EQ(d.quality, 0);
    EXPECT_FLOAT_EQ(d.exposure, 1.5f);
    EXPECT_FALSE(d.floor);
    EXPECT_FLOAT_EQ(d.floorDepth, 4.0f);
    // Keys not given keep their defaults.
    EXPECT_FLOAT_EQ(d.dyeExtinction, DisplaySettings{}.dyeExtinction);
}

TEST(DisplaySettings, UnknownKeyNamesLineAndListsValidKeys) {
    auto scene = ParseScene(SceneWithDisplay(R"({ "exposur": 2 })"), "bad.json");
    ASSERT_FALSE(scene.ok());
    const std::string& e = scene.error();
    EXPECT_EQ(e.rfind("bad.json:5:", 0), 0u) << e;
    for (const char* key : {"exposur", "display.dye", "display.exposure", "display.floor_depth"}) {
        EXPECT_NE(e.find(key), std::string::npos) << key << " missing from: " << e;
    }
}

TEST(DisplaySettings, BadChoiceListsItsNames) {
    DisplaySettings d;
    const Status s = SetDisplayParam(d, "display.dye", "smoke");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find("volume, particles"), std::string::npos) << s.error();
    EXPECT_EQ(d.dye, 0) << "a rejected value changes nothing";
    // A choice by index works too; an index past the names does not.
    EXPECT_TRUE(SetDisplayParam(d, "backdrop", 1).ok());
    EXPECT_EQ(d.backdrop, 1);
    EXPECT_FALSE(SetDisplayParam(d, "backdrop", 3).ok());
}

TEST(DisplaySettings, OutOfRangeAndWrongTypeAreErrors) {
    DisplaySettings d;
    EXPECT_FALSE(SetDisplayParam(d, "display.exposure", -1).ok());
    EXPECT_FALSE(SetDisplayParam(d, "display.light_elevation", 95).ok());
    EXPECT_FALSE(SetDisplayParam(d, "display.floor", "maybe").ok());
    EXPECT_FALSE(SetDisplayParam(d, "display.fog", "thick").ok());
    EXPECT_FLOAT_EQ(d.exposure, DisplaySettings{}.exposure);
}

TEST(DisplaySettings, SetOnTheCommandLineAfterTheSceneFile) {
    const std::vector<std::string> sets = {"display.quality=ultra", "display.half_resolution=true",
                                           "display.light_azimuth=-30"};
    auto scene = PrepareScene("dye_drop", sets);
    ASSERT_TRUE(scene.ok()) << scene.error();
    EXPECT_EQ(scene.value().display.quality, 3);
    EXPECT_TRUE(scene.value().display.halfResolution);
    EXPECT_FLOAT_EQ(scene.value().display.lightAzimuth, -30.0f);
    auto bad = PrepareScene("dye_drop", std::vector<std::string>{"display.nonsense=1"});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("--set display.nonsense=1"), std::string::npos) << bad.error();
}

TEST(DisplaySettings, QualityLevelsGrowTheGridAndShortenTheStep) {
    for (int q = 1; q < int(DisplayChoices()[2].names.size()); ++q) {
        EXPECT_GT(QualityLevel(q).gridSide, QualityLevel(q - 1).gridSide) << q;
        EXPECT_LT(QualityLevel(q).marchStep, QualityLevel(q - 1).marchStep) << q;
    }
}

TEST(DisplaySettings, DescribeListsEveryKeyWithItsValue) {
    DisplaySettings d;
    d.dye = 1;
    const std::string table = DescribeDisplay(d);
    for (const auto& c : DisplayChoices()) EXPECT_NE(table.find("display." + std::string(c.key)), std::string::npos);
    for (const auto& i : DisplayParamInfos()) EXPECT_NE(table.find("display." + std::string(i.key)), std::string::npos);
    EXPECT_NE(table.find("\"particles\""), std::string::npos) << table;
}

}  // namespace
}  // namespace vorton
