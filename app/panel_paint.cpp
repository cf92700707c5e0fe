// The panel's Paint section (issue 14, item 5): paint mode, and the deviation, colour and size of
// the blobs a left drag releases (app/ui/paint for where they go; Simulation::SeedGroupNow seeds).
#include <imgui.h>

#include <algorithm>

#include "app/demo_app.h"
#include "app/panel.h"
#include "app/panel_widgets.h"

namespace vorton {

void PaintSection(DemoApp& app) {
    if (!ImGui::CollapsingHeader("Paint")) return;
    ViewSettings& v = app.View();
    PaintSettings& paint = v.paint;
    ImGui::Checkbox("Paint with the mouse (I)", &v.paintMode);
    HelpMarker("left click or drag in the view releases blobs of dye at the cursor, at the depth of the point the "
               "camera looks at (the plane facing the camera through it); the wheel sizes them. Seeded as scene "
               "groups are: each is a group of the scene (paint_N), kept by Save scene and snapshots");
    const float rho0 = app.Setup().params.ambientDensity;
    const float limit = 0.2f * rho0;
    ImGui::SliderFloat("Deviation", &paint.densityDeviation, -limit, limit, "%.1f kg/m^3");
    HelpMarker("density of the painted fluid minus the ambient's rho0: below 0 it is light and rises, above 0 heavy "
               "and sinks (+-20 % of rho0; Ctrl+click to type beyond)");
    paint.densityDeviation = std::max(paint.densityDeviation, -0.95f * rho0);
    ImGui::ColorEdit3("Dye", &paint.dye.x, ImGuiColorEditFlags_Float);
    const float h = app.Snapshot().spacing > 0.0f ? app.Snapshot().spacing : 0.02f;
    ImGui::SliderFloat("Radius", &paint.radius, MinPaintRadius(h), MaxPaintRadius(h), "%.3f m",
                       ImGuiSliderFlags_Logarithmic);
    HelpMarker("of each blob, from 1.5 to 40 vorton spacings; the wheel changes it while painting");
    ImGui::Checkbox("Throw with the drag", &paint.throwWithDrag);
    HelpMarker("blobs released while dragging move off at the cursor's speed across the view (at most 2 m/s): "
               "they carry the vortex sheet of a sphere moving through still fluid, impulse 2 pi R^3 U; a click "
               "without moving releases one at rest");
    paint.radius = std::clamp(paint.radius, MinPaintRadius(h), MaxPaintRadius(h));
    int painted = 0;
    for (const DensityGroup& g : app.Setup().groups) painted += g.name.rfind("paint_", 0) == 0;
    ImGui::Text("%d painted blobs", painted);
}

}  // namespace vorton
