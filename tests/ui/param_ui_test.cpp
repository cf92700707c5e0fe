// The panel's model (issue 14, item 2): slider ranges from the parameter tables fitted to the
// physics, tooltips with unit and range, reset to the scene's value, undo/redo, file names.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>
#include <tbb/task_arena.h>

#include "app/ui/edit_history.h"
#include "app/ui/flow_diagnostics.h"
#include "app/ui/files.h"
#include "app/ui/param_ui.h"
#include "scene/param_access.h"
#include "scene/scene.h"
#include "sim/simulation.h"
#include "test_util.h"

namespace vorton {
namespace {

template <typename Struct>
const ParamInfo<Struct>& Info(std::span<const ParamInfo<Struct>> infos, std::string_view key) {
    const auto it = std::find_if(infos.begin(), infos.end(), [&](const auto& i) { return i.key == key; });
    EXPECT_NE(it, infos.end()) << key;
    return *it;
}

TEST(ParamUi, BodyDensitySliderBracketsTheAmbientDensityLinearly) {
    const auto& info = Info(BodyParamInfos(), "density");
    for (const float rho0 : {1000.0f, 1.2f, 13500.0f}) {
        BodySpec scene;
        scene.density = 1.05f * rho0;
        const SliderRange r = BodySlider(info, scene, rho0);
        EXPECT_FLOAT_EQ(r.min, 0.5f * rho0) << rho0;
        EXPECT_FLOAT_EQ(r.max, 3.0f * rho0) << rho0;
        EXPECT_FALSE(r.logarithmic);
        // Neutral buoyancy +-2 % spans at least 1.5 % of the slider (the issue: 1 px of a log slider).
        EXPECT_GT(0.04f * rho0 / (r.max - r.min), 0.015f);
        // Typing goes beyond, to the table's range.
        EXPECT_LT(info.min, r.min);
        EXPECT_GT(info.max, r.max);
    }
    // A scene's value outside [0.5, 3] rho0 stays on the slider.
    BodySpec lead;
    lead.density = 11340.0f;
    EXPECT_FLOAT_EQ(BodySlider(info, lead, 1000.0f).max, 11340.0f);
}

/// vortex_ring's ring speed (m/s) from 0.5 to 1 s (the centre's rate along its axis, MeasureRing),
/// with `key` set to `value` from the start.
double RingSpeed(const std::string& key, float value) {
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.tracerCount = 0;
    if (!key.empty()) {
        EXPECT_TRUE(SetParam(setup, key, nlohmann::json(value)).ok()) << key;
    }
    Simulation sim(setup);
    tbb::task_arena arena(2);
    RingMeasure start;
    for (int s = 1; s <= 50; ++s) {
        StepReport r;
        arena.execute([&] { r = sim.Step(); });
        EXPECT_TRUE(r.ok) << r.message;
        if (s == 25) start = MeasureRing(sim.GetVortons());
    }
    const RingMeasure end = MeasureRing(sim.GetVortons());
    EXPECT_TRUE(start.valid && end.valid);
    return glm::dot(end.centre - start.centre, end.axis) / (0.5 * 0.02 * 50);
}

TEST(ParamUi, VelocityGridSlidersStayWhereTheRingKeepsItsSpeed) {
    // The velocity grid's two sliders went to 8 h cells and 1,000 points (stop 107): there
    // vortex_ring's ring moved 24 % slower (cells coarser than the cores, 1.5 h) and not at
    // all (the lattice coarsened to 1.6 m to fit the grid), and every scene's flow changed as
    // much, with nothing stopped. At each end of their sliders the ring's speed over 0.5-1 s
    // is within 3 % of the scene's own: the speed's known answer (Saffman) is met to 10-13 %
    // (the dock's check), so a knob of the solver's cost must not move it by a quarter of
    // that. Controls past the old ends show the check can fail.
    const double own = RingSpeed("", 0.0f);
    test::Measured("ring_speed_own", own);
    ASSERT_GT(own, 0.25);
    for (const char* key : {"velocity_grid_spacing", "velocity_grid_cells"}) {
        const SliderRange r = TableSlider(Info(SimParamInfos(), key));
        for (const float end : {r.min, r.max}) {
            const double ratio = RingSpeed(key, end) / own;
            test::Measured(std::string(key) + (end == r.min ? "_slider_min" : "_slider_max") + "_over_own", ratio);
            EXPECT_NEAR(ratio, 1.0, 0.03) << key << " " << end;
        }
    }
    EXPECT_LT(RingSpeed("velocity_grid_spacing", 4.0f) / own, 0.97);
    EXPECT_LT(RingSpeed("velocity_grid_cells", 8000.0f) / own, 0.97);
}

TEST(ParamUi, AmbientDensitySliderKeepsEachFreeBodyWithinItsOwnSlidersRange) {
    // The ambient density's table slider, [10, 10^4] log, took falling_ball's 1,200 kg/m³ ball
    // past what its wall model follows within a second at its low end (stop 106). Fitted to
    // the free bodies as their density slider is fitted to the fluid, [0.5, 3] rho0.
    const auto& info = Info(SimParamInfos(), "ambient_density");
    const SceneSetup falling = test::LoadSetup("falling_ball");
    ASSERT_EQ(falling.bodies.size(), 1u);
    const float rhoB = falling.bodies[0].density;
    SliderRange r = AmbientDensitySlider(info, falling, falling.params.ambientDensity);
    EXPECT_FLOAT_EQ(r.min, rhoB / 3.0f);
    EXPECT_FLOAT_EQ(r.max, 2.0f * rhoB);
    EXPECT_FALSE(r.logarithmic);
    // At either end the ball is at the end of its own slider's range about the fluid.
    const auto& density = Info(BodyParamInfos(), "density");
    EXPECT_FLOAT_EQ(BodySlider(density, falling.bodies[0], r.min).max, rhoB);
    EXPECT_FLOAT_EQ(BodySlider(density, falling.bodies[0], r.max).min, rhoB);
    // Two free balls too far apart for both: the range between, each at an end of its own.
    SceneSetup two = falling;
    two.bodies.push_back(falling.bodies[0]);
    two.bodies[0].density = 300.0f;
    two.bodies[1].density = 5000.0f;
    r = AmbientDensitySlider(info, two, 1000.0f);
    EXPECT_FLOAT_EQ(r.min, 600.0f);
    EXPECT_FLOAT_EQ(r.max, 5000.0f / 3.0f);
    // The fluid's density stays above a group's negative deviation over 0.9, as GroupSlider keeps it.
    SceneSetup light = falling;
    light.groups.push_back(light.groups.empty() ? DensityGroup{} : light.groups[0]);
    light.groups.back().densityDeviation = -900.0f;
    EXPECT_FLOAT_EQ(AmbientDensitySlider(info, light, 1000.0f).min, 1000.0f);
    // The scene's own value stays on the slider.
    EXPECT_FLOAT_EQ(AmbientDensitySlider(info, falling, 100.0f).min, 100.0f);
    // Without a free body, the table's slider: a fixed ball's density does not matter.
    for (const char* scene : {"dye_drop", "flow_past_ball"}) {
        const SceneSetup setup = test::LoadSetup(scene);
        r = AmbientDensitySlider(info, setup, setup.params.ambientDensity);
        EXPECT_FLOAT_EQ(r.min, info.sliderMin) << scene;
        EXPECT_FLOAT_EQ(r.max, info.sliderMax) << scene;
        EXPECT_TRUE(r.logarithmic) << scene;
    }
}

TEST(ParamUi, GroupDeviationSliderKeepsTheFluidDensityPositive) {
    const auto& info = Info(GroupParamInfos(), "density_deviation");
    DensityGroup g;
    g.densityDeviation = 400.0f;
    const SliderRange r = GroupSlider(info, g, 1000.0f);
    EXPECT_FLOAT_EQ(r.min, -900.0f);  // rho0 + deviation > 0 at the slider's end
    EXPECT_FLOAT_EQ(r.max, 1000.0f);  // 4x the scene's, within the table's [-1000, 1000]
    g.densityDeviation = 5.0f;
    const SliderRange small = GroupSlider(info, g, 1000.0f);
    EXPECT_FLOAT_EQ(small.max, 20.0f);
    EXPECT_FLOAT_EQ(small.min, -20.0f);
}

TEST(ParamUi, TableSliderUsesTheNarrowedRangeAndLogScale) {
    const auto& dt = Info(SimParamInfos(), "dt");
    const SliderRange r = TableSlider(dt);
    EXPECT_EQ(r.min, dt.sliderMin);
    EXPECT_EQ(r.max, dt.sliderMax);
    EXPECT_EQ(r.logarithmic, dt.logScale);
    const auto& smag = Info(SimParamInfos(), "smagorinsky");  // not narrowed
    EXPECT_EQ(TableSlider(smag).min, smag.min);
    EXPECT_EQ(TableSlider(smag).max, smag.max);
}

TEST(ParamUi, TooltipGivesUnitSliderAndTypingRange) {
    const auto& info = Info(BodyParamInfos(), "density");
    BodySpec scene;
    const std::string tip = ParamTooltip(info, BodySlider(info, scene, 1000.0f));
    EXPECT_NE(tip.find("kg/m^3"), std::string::npos) << tip;
    EXPECT_NE(tip.find("slider 500 to 3000"), std::string::npos) << tip;
    EXPECT_NE(tip.find("type 0 to 100000"), std::string::npos) << tip;
    const std::string colour = ParamTooltip(Info(BodyParamInfos(), "color"), SliderRange{});
    EXPECT_NE(colour.find("0-1"), std::string::npos) << colour;
}

TEST(ParamUi, ResetToSceneRestoresOneFieldOnly) {
    BodySpec scene, edited;
    scene.density = 1100.0f;
    edited.density = 2500.0f;
    edited.radius = 0.3f;
    EXPECT_TRUE(ResetToScene(edited, scene, Info(BodyParamInfos(), "density")));
    EXPECT_EQ(edited.density, 1100.0f);
    EXPECT_EQ(edited.radius, 0.3f);  // untouched
    EXPECT_FALSE(ResetToScene(edited, scene, Info(BodyParamInfos(), "density")));
    SimParams p, sceneParams;
    p.gravity = {0.0f, 1.0f, 0.0f};
    EXPECT_TRUE(ResetToScene(p, sceneParams, Info(SimParamInfos(), "gravity")));
    EXPECT_EQ(p.gravity, sceneParams.gravity);
}

TEST(EditHistory, UndoRedoRestoreSettledValuesAndAnEditBranches) {
    EditHistory<int> h;
    h.Track(1, false);  // the baseline
    EXPECT_FALSE(h.CanUndo());
    // A drag through 2..4 while held is one step.
    for (int v : {2, 3, 4}) EXPECT_FALSE(h.Track(v, true));
    EXPECT_TRUE(h.Track(4, false));
    EXPECT_TRUE(h.Track(7, false));
    EXPECT_EQ(h.Undo(7), 4);
    EXPECT_EQ(h.Undo(4), 1);
    EXPECT_FALSE(h.Undo(1).has_value());
    EXPECT_EQ(h.Redo(1), 4);
    EXPECT_FALSE(h.Track(4, false));  // the redone state is settled, not a new step
    EXPECT_TRUE(h.CanRedo());
    EXPECT_TRUE(h.Track(9, false));  // an edit after undoing drops the redo steps
    EXPECT_FALSE(h.CanRedo());
    EXPECT_EQ(h.Undo(9), 4);
    h.Restart(5);
    EXPECT_FALSE(h.CanUndo());
}

TEST(EditHistory, KeepsAtMostItsLimit) {
    EditHistory<int> h(3);
    for (int v = 0; v <= 10; ++v) h.Track(v, false);
    int undone = 0;
    int current = 10;
    while (const std::optional<int> back = h.Undo(current)) {
        current = *back;
        ++undone;
    }
    EXPECT_EQ(undone, 3);
}

TEST(Files, RecordingNameHasTheSceneAndDiffersAcrossScenesAndTimes) {
    using namespace std::chrono;
    const system_clock::time_point t = system_clock::from_time_t(1800000000);
    const std::string a = RecordingName("dye_drop", t, "mp4");
    EXPECT_EQ(a.rfind("vorton_dye_drop_", 0), 0u) << a;
    EXPECT_TRUE(a.ends_with(".mp4")) << a;
    EXPECT_NE(a, RecordingName("stratified_ball", t, "mp4"));
    EXPECT_NE(a, RecordingName("dye_drop", t + seconds(1), "mp4"));
    EXPECT_TRUE(RecordingName("dye_drop", t, "gif").ends_with(".gif"));
    const std::string odd = RecordingName("my scene/../x", t, "mp4");
    EXPECT_EQ(odd.find('/'), std::string::npos) << odd;
    EXPECT_EQ(odd.find(' '), std::string::npos) << odd;
}

TEST(Files, TenSecondClipIsTenSecondsOfSteps) {
    EXPECT_EQ(ClipSteps(10.0, 0.02), 500);
    EXPECT_EQ(ClipSteps(10.0, 0.01), 1000);
    EXPECT_EQ(ClipSteps(10.0, 0.0), 1);
}

TEST(Files, ConfigDirectoryFollowsXdg) {
    const char* saved = std::getenv("XDG_CONFIG_HOME");
    const std::string keep = saved ? saved : "";
    setenv("XDG_CONFIG_HOME", "/tmp/xdg_test", 1);
    EXPECT_EQ(ConfigDirectory(), std::filesystem::path("/tmp/xdg_test/vorton"));
    unsetenv("XDG_CONFIG_HOME");
    if (const char* home = std::getenv("HOME"); home && *home) {
        EXPECT_EQ(ConfigDirectory(), std::filesystem::path(home) / ".config" / "vorton");
    }
    if (saved) setenv("XDG_CONFIG_HOME", keep.c_str(), 1);
}

}  // namespace
}  // namespace vorton

namespace vorton {
namespace {

TEST(EditHistory, PanelEditsUndoABodyDensityAndADisplaySetting) {
    auto scene = LoadSceneFile(test::SceneDir() / "stratified_ball.json");
    ASSERT_TRUE(scene.ok()) << scene.error();
    PanelEdits edits{scene.value().setup, scene.value().display};
    EditHistory<PanelEdits> h;
    h.Track(edits, false);
    edits.setup.bodies.at(0).density = 1500.0f;
    h.Track(edits, false);
    edits.display.exposure = 2.0f;
    h.Track(edits, false);
    auto back = h.Undo(edits);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->display.exposure, scene.value().display.exposure);
    EXPECT_EQ(back->setup.bodies[0].density, 1500.0f);
    back = h.Undo(*back);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->setup.bodies[0].density, scene.value().setup.bodies[0].density);
    auto again = h.Redo(*back);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->setup.bodies[0].density, 1500.0f);
    const PanelEdits original{scene.value().setup, scene.value().display};
    EXPECT_FALSE(original == *again);
}

}  // namespace
}  // namespace vorton
