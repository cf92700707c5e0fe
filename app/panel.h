#pragma once
/// \file
/// The Dear ImGui control panel and the REC indicator. Parameter widgets are
/// generated from SimParamInfos() / GroupParamInfos(), the same tables the
/// scene files and --set use.

namespace vorton {

class DemoApp;

/// Scene picker, run controls, fluid and solver parameters, density groups,
/// display options, recording, and timings. Call between ImGui NewFrame/Render.
void DrawPanel(DemoApp& app);
/// The timing window: each stage of the last step, ms per step and its plot over the last
/// steps, steps per second and frames per second. Closing it clears View().showTimings.
void DrawTimings(DemoApp& app);
/// The colour map's legend (field, range) at the bottom right, while the dye is coloured by a
/// field (app/panel_display.cpp).
void DrawLegend(DemoApp& app);
/// The Display section of the panel: overlays and the look (app/panel_display.cpp).
void DisplaySection(DemoApp& app);
/// A red "REC n" in the top-left corner while recording.
void DrawRecordingIndicator(DemoApp& app);

}  // namespace vorton
