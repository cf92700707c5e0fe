// The live diagnostics dock (issue 14, item 6): the flow's invariants and counts over the
// last steps with units, the closed forms (impulse law, ring speed,
// terminal velocity) measured against what the steps did, and the speed
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
    ImGui::PlotLines(label, values.data(), int(values.size()), 0, overlay, low - pad, high + pad, ImVec2(0.0f, Px(48.0f)));
    HelpMarker(help);
}

/// One closed form's rows: what it says, expected and measured against each other with a
/// pass/fail mark, or why it does not apply; its error over the log's windows.
void ClosedFormRows(const char* id, const char* law, const std::string& help, const ClosedFormCheck& c,
                    const char* unit, const std::string& tolerance, const std::vector<double>& errorSeries) {
    ImGui::TextUnformatted(law);
    HelpMarker(help);
    if (!c.applies) {
        ImGui::PushTextWrapPos(0.0f);  // a reason may carry what was measured so far
        ImGui::TextDisabled("  n/a: %s", c.reason.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    if (c.scalar) {
        ImGui::Text("  expected %.3g %s", c.expected.x, unit);
        ImGui::Text("  measured %.3g", c.measured.x);
    } else {
        ImGui::Text("  expected (%.3g, %.3g, %.3g) %s", c.expected.x, c.expected.y, c.expected.z, unit);
        ImGui::Text("  measured (%.3g, %.3g, %.3g) %s", c.measured.x, c.measured.y, c.measured.z, unit);
    }
    if (!c.detail.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::Text("  %s", c.detail.c_str());
        ImGui::PopTextWrapPos();
    }
    if (c.scalar) {
        ImGui::Text("  error %.2f %% of it (the band's ends: %.0f %%)  ", 100.0 * c.relativeError, 100.0 * c.tolerance);
    } else {
        ImGui::Text("  error %.2f %% (tolerance %.0f %%)  ", 100.0 * c.relativeError, 100.0 * c.tolerance);
    }
    ImGui::SameLine();
    if (c.pass) {
        ImGui::TextColored(ImVec4(0.35f, 0.9f, 0.4f, 1.0f), "PASS");
    } else {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "FAIL");
    }
    HelpMarker("tolerance: " + tolerance);
    if (errorSeries.empty()) return;  // a check too costly to repeat at every step of the log
    std::vector<float> errors;
    for (const double e : errorSeries) errors.push_back(float(100.0 * e));
    ImGui::PushItemWidth(-Px(110.0f));
    Plot(id, "error", "%", errors, "the error over the windows of the log");
    ImGui::PopItemWidth();
}

/// The closed forms that may apply to the scene: the impulse law, a ring's speed, a ball's
/// terminal velocity, a fixed ball's drag in a stream and its wake's shedding. Those that cannot apply to the scene at all take one line each.
void ClosedFormChecks(const SimSnapshot& sim) {
    const FlowLog& log = sim.flow;
    ClosedFormRows("law", "dI/dt = (g/rho0) sum drho_k V_k",
                   "Buoyancy changes the fluid's linear impulse I = 1/2 sum x_k x alpha_k at the dye's excess weight "
                   "over rho0 (docs/METHOD.md, checks with known answers). Measured over the last 10 steps; with no "
                   "bodies, layers or emitters.",
                   log.Check(sim.impulseLaw), "m^4/s^2", sim.impulseLaw.note,
                   log.ErrorSeries(sim.impulseLaw));
    ImGui::Separator();
    ClosedFormRows("ring", "ring speed = Gamma/(4 pi R) (ln(8R/a) - 0.558)",
                   "Saffman's speed of a thin vortex ring with a Gaussian core, for the circulation Gamma, radius R "
                   "and rms core a measured from the vortons (axis along the impulse). Measured: the rate of the "
                   "ring's centre over the last 10 steps. Applies to one ring with no buoyancy or bodies, while "
                   "a/R <= 0.5.",
                   log.Check(sim.ringLaw), "m/s", sim.ringLaw.note, log.ErrorSeries(sim.ringLaw));
    ImGui::Separator();
    ClosedFormRows("terminal", "terminal velocity (drag curve)",
                   "The velocity at which the standard drag curve's drag 1/2 C_d rho U^2 pi R^2 balances the "
                   "ball's weight less buoyancy, with the scene's viscosity (C_d: Clift & Gauvin's curve, "
                   "Schiller-Naumann's below Re 300 within 1 %). Measured: the ball's mean velocity "
                   "over the last second, once its speed varies by less than 15 %. Applies to one free ball with "
                   "body_sheet on.",
                   log.Check(sim.terminalLaw), "m/s", sim.terminalLaw.note,
                   log.ErrorSeries(sim.terminalLaw));
    ImGui::Separator();
    ClosedFormRows("drag", "drag in a stream (drag curve)",
                   "The standard drag curve's drag 1/2 C_d rho U^2 pi R^2 on a fixed ball in the free stream "
                   "U, with the scene's viscosity (C_d: Clift & Gauvin's curve). Measured: the fluid's "
                   "force on the ball along the stream, averaged over the last 10 s (about four shedding "
                   "periods). It judges once 100 diameters of stream have passed the ball (t U/2R = 100: 40 s "
                   "in flow_past_ball): the curve's drag is a developed wake's, and the drag rises as the wake "
                   "starts to shed; until then it shows what it measures. Applies to one fixed ball with "
                   "body_sheet on and a free stream.",
                   log.Check(sim.dragLaw), "N", sim.dragLaw.note, log.ErrorSeries(sim.dragLaw));
    ImGui::Separator();
    ClosedFormRows("shedding", "shedding: St = f 2R/U in 0.1-0.25",
                   "A sphere in a stream at 300 <= Re <= 1000 sheds vortices, and the side force on it oscillates "
                   "at a Strouhal number St = f 2R/U of 0.13-0.2 (issue 12's band: 0.1-0.25). Measured: the "
                   "strongest frequency of the fluid's force across the stream over the last 11 s (each component "
                   "about its mean and trend, Hann window, bins 0.036 apart in St at flow_past_ball's 0.6 m/s); "
                   "it passes when that lies in the band and the band holds more than half the power. It judges "
                   "once 100 diameters of stream have passed the ball (t U/2R = 100: 40 s in flow_past_ball), "
                   "for a wake started at once is steady at first and sheds only when its instability has "
                   "grown; until then it shows what it measures. Applies to one fixed ball with body_sheet on "
                   "and a free stream.",
                   log.Check(sim.sheddingLaw), "(the band's middle)", sim.sheddingLaw.note, {});
}

}  // namespace

void DrawDiagnostics(DemoApp& app) {
    const SimSnapshot& sim = app.Snapshot();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    // Right side, below the toolbar's row; a user can move it (kept in imgui.ini).
    ImGui::SetNextWindowPos(ImVec2(display.x - Px(10.0f), Px(kToolbarHeight + 14.0f)), ImGuiCond_FirstUseEver,
                            ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(Px(430.0f), std::min(Px(640.0f), display.y - Px(kToolbarHeight + 60.0f))),
                             ImGuiCond_FirstUseEver);
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
    ClosedFormChecks(sim);
    ImGui::Separator();
    const double seconds = log.Empty() ? 0.0 : log.Latest().time - log.Samples().front().time;
    ImGui::Text("over the last %.1f s (%zu steps)", seconds, log.Samples().size());
    ImGui::PushItemWidth(-Px(110.0f));
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
