#pragma once
/// \file
/// The Dear ImGui user interface: a slim toolbar (what a first launch shows), the full panel
/// by goal ("More"), the timing window, the legend, the F1 help and the REC indicator.
/// Parameter widgets are generated from SimParamInfos() / GroupParamInfos() / BodyParamInfos()
/// and the display table, the same tables the scene files and --set use.

#include "app/platform/imgui_layer.h"

namespace vorton {

class DemoApp;
struct SimSnapshot;

/// Pixels on screen for a size of `pixels` at UI scale 1 (platform::UiScale: the desktop's
/// DPI setting or --ui-scale), so the panels keep their proportions on a 4K screen.
inline float Px(float pixels) { return pixels * platform::UiScale(); }

/// Height of the toolbar's window at UI scale 1, px (Px): the panel opens below it.
inline constexpr float kToolbarHeight = 46.0f;
/// The panel's fixed width at UI scale 1, px (Px).
inline constexpr float kPanelWidth = 440.0f;

/// The toolbar along the top (app/toolbar.cpp): the scene picker with each scene's description,
/// run/pause, step, reset, record, a 10-s clip, "More" (the panel), the simulated time and how
/// it keeps up with real time.
void DrawToolbar(DemoApp& app);
/// "k substeps (a fast ball)" while the last step took substeps (Simulation::Substeps); nothing otherwise.
void SubstepNote(const SimSnapshot& sim);
/// One line at the bottom: what the mouse does, and F1 for help.
void DrawMouseHint(DemoApp& app);
/// The keys and mouse actions, over the view (F1).
void DrawHelp(DemoApp& app);
/// While a body is held with the simulation paused: a note beside the cursor.
void DrawGrabFeedback(DemoApp& app);

/// The panel by goal, fixed width, scrolling: Scene and playback; Look; Physics; Bodies;
/// Capture; Simulation internals (collapsed). Call between ImGui NewFrame/Render.
void DrawPanel(DemoApp& app);
/// The timing window: each stage of the last step, ms per step and its plot over the last
/// steps, steps per second and frames per second. Closing it clears View().showTimings.
void DrawTimings(DemoApp& app);
/// The live diagnostics dock (app/panel_diagnostics.cpp): circulation, impulse, kinetic energy,
/// enstrophy, vorton and tracer counts over the last steps, the closed forms that apply (impulse
/// law, ring speed, terminal velocity) with a pass/fail mark, and the speed against real time. Closing it clears
/// View().showDiagnostics.
void DrawDiagnostics(DemoApp& app);
/// The Paint section: paint mode, the blobs' deviation, dye and radius (app/panel_paint.cpp).
void PaintSection(DemoApp& app);
/// The colour map's legend (field, range) at the bottom right, while the dye is coloured by a
/// field (app/panel_display.cpp).
void DrawLegend(DemoApp& app);
/// The Look section of the panel: the dye's look and the overlays (app/panel_display.cpp).
void DisplaySection(DemoApp& app);
/// The Bodies section: the selected body's height and speed plots first, then each body's
/// settings and forces (app/panel_bodies.cpp).
void BodiesSection(DemoApp& app);
/// The Capture section: record (format, folder, 10-s clip), screenshot, save scene
/// (app/panel_capture.cpp).
void CaptureSection(DemoApp& app);
/// A red "REC n" in the top-right corner while recording.
void DrawRecordingIndicator(DemoApp& app);

}  // namespace vorton
