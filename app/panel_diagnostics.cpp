// The live diagnostics dock (issue 14, item 6): the flow's invariants and counts over the
// last steps with units, the impulse law measured against its closed form, and the speed
// against real time. What it shows is computed in app/ui/flow_diagnostics (no GL).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include <glm/geometric.hpp>

#include "app/demo_app.h"
#include "app/panel.h"
#include "app/panel_widgets.h"

namespace vorton {

namespace {

/// One quantity of the log over its steps (oldest left): its latest value and unit inside,
/// its range beside. Samples where `value` is NaN (energy before a step) are left out.
void Plot(const char* id, const char* name, const char* unit, const std::vector<float>& values, const char* help);

void SeriesPlot(const char* id, const char* name, const char* unit, const FlowLog& log,
                const std::function<double(const FlowSample&)>& value, const char* help) {
    std::vector<float> values;
    values.reserve(log.Samples().size());
    for (const FlowSample& s : log.Samples()) {
        const double v = value(s);
        if (std::isfinite(v)) values.push_back(float(v));
    }
    Plot(id, name, unit, values, help);
}

void Plot(const char* id, const char* name, const char* unit, const std::vector<float>& values, const char* help) {
    if (values.empty()) {
        ImGui::TextDisabled("%s: n/a (see ?)", name);
        HelpMarker(help);
        return;
    }
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    const float low = *lowest, high = *highest;
    const float pad = std::max(0.05f * (high - low), 1.0e-12f + 0.01f * std::max(std::abs(low), std::abs(high)));
    char overlay[96], label[96];
    std::snprintf(overlay, sizeof overlay, "%s %.*g %s", name, values.back() >= 1000.0f ? 7 : 4, double(values.back()),
                  unit);
    std::snprintf(label, sizeof label, "max %.2g\nmin %.2g##%s", double(high), double(low), id);
    ImGui::PlotLines(label, values.data(), int(values.size()), 0, overlay, low - pad, high + pad, ImVec2(0.0f, 48.0f));
    HelpMarker(help);
}

/// The impulse law's row: expected and measured dI/dt and a pass/fail mark, or why it does not apply.
void ImpulseLawRow(const SimSnapshot& sim) {
    ImGui::TextUnformatted("dI/dt = (g/rho0) sum drho_k V_k");
    HelpMarker("Buoyancy changes the fluid's linear impulse I = 1/2 sum x_k x alpha_k at the dye's excess weight "
               "over rho0 (docs/METHOD.md, checks with known answers). Measured over the last 10 steps; "
               "with no bodies, layers or emitters.");
    const ClosedFormCheck c = sim.flow.ImpulseCheck(sim.impulseLaw);
    if (!c.applies) {
        ImGui::TextDisabled("  n/a: %s", c.reason.c_str());
        return;
    }
    ImGui::Text("  expected (%.3g, %.3g, %.3g) m^4/s^2", c.expected.x, c.expected.y, c.expected.z);
    ImGui::Text("  measured (%.3g, %.3g, %.3g) m^4/s^2", c.measured.x, c.measured.y, c.measured.z);
    ImGui::Text("  error %.2f %% (tolerance %.0f %%)  ", 100.0 * c.relativeError, 100.0 * c.tolerance);
    ImGui::SameLine();
    if (c.pass) {
        ImGui::TextColored(ImVec4(0.35f, 0.9f, 0.4f, 1.0f), "PASS");
    } else {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "FAIL");
    }
    HelpMarker("tolerance: " + sim.impulseLaw.note);
    std::vector<float> errors;
    for (const double e : sim.flow.ImpulseErrorSeries(sim.impulseLaw)) errors.push_back(float(100.0 * e));
    ImGui::PushItemWidth(-90.0f);
    Plot("law", "error", "%", errors, "the impulse law's error over the 10-step windows of the log");
    ImGui::PopItemWidth();
}

}  // namespace

void DrawDiagnostics(DemoApp& app) {
    const SimSnapshot& sim = app.Snapshot();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    // Right side, below the toolbar's row; a user can move it (kept in imgui.ini).
    ImGui::SetNextWindowPos(ImVec2(display.x - 10.0f, kToolbarHeight + 14.0f), ImGuiCond_FirstUseEver,
                            ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(430.0f, std::min(640.0f, display.y - kToolbarHeight - 60.0f)), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.75f);
    if (!ImGui::Begin("Diagnostics (D)", &app.View().showDiagnostics, ImGuiWindowFlags_NoFocusOnAppearing)) {
        ImGui::End();
        return;
    }
    const FlowLog& log = sim.flow;
    ImGui::Text("t = %.2f s, step %lld", sim.time, static_cast<long long>(sim.stepCount));
    if (const auto factor = log.RealTimeFactor()) {
        ImGui::SameLine();
        const ImVec4 colour = *factor < 0.95 ? ImVec4(1.0f, 0.6f, 0.2f, 1.0f) : ImVec4(0.8f, 0.8f, 0.8f, 1.0f);
        ImGui::TextColored(colour, "  %.2f x real time", *factor);
        HelpMarker("simulated seconds per wall-clock second over the last 10 steps (orange below 0.95)");
    }
    ImGui::Separator();
    ImpulseLawRow(sim);
    ImGui::Separator();
    const double seconds = log.Empty() ? 0.0 : log.Latest().time - log.Samples().front().time;
    ImGui::Text("over the last %.1f s (%zu steps)", seconds, log.Samples().size());
    ImGui::PushItemWidth(-90.0f);
    SeriesPlot("circ", "|sum alpha|", "m^3/s", log, [](const FlowSample& s) { return glm::length(s.circulation); },
               "total circulation sum alpha_k = sum omega_k V_k: zero for a closed vortex system, small against "
               "the total strength sum |alpha_k|");
    SeriesPlot("impulse", "I_z", "m^4/s", log, [](const FlowSample& s) { return s.impulse.z; },
               "vertical linear impulse 1/2 sum x_k x alpha_k; rho0 I is the fluid's momentum (N s)");
    SeriesPlot("energy", "E", "J", log, [](const FlowSample& s) { return s.kineticEnergy; },
               "kinetic energy rho0 sum u_k . (x_k x alpha_k) (Saffman 3.2), from the step's velocities at the "
               "vortons; not shown with bodies (not an unbounded fluid)");
    SeriesPlot("enstrophy", "sum w^2 V", "m^3/s^2", log, [](const FlowSample& s) { return s.enstrophy; },
               "enstrophy sum |omega_k|^2 V_k of the vortons");
    SeriesPlot("vortons", "vortons", "", log, [](const FlowSample& s) { return double(s.vortons); },
               "vorton count (remeshing adds and culls)");
    SeriesPlot("tracers", "tracers", "", log, [](const FlowSample& s) { return double(s.tracers); },
               "dye tracer count");
    ImGui::PopItemWidth();
    ImGui::End();
}

}  // namespace vorton
