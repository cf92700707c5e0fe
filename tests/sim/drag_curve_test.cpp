// The standard drag curve (sim/bodies/drag_curve.h) the ball checks compare with: the
// Schiller–Naumann coefficient at a hand-computed point, the Stokes limit it reduces to, and
// the terminal speed balancing drag against excess weight.

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "sim/bodies/drag_curve.h"

namespace vorton {
namespace {

TEST(DragCurve, SchillerNaumannAtAHandComputedPoint) {
    // Re = 1000: 1000^0.687 = e^(0.687·ln 1000) = 115.07, so C_d = 0.024·(1 + 17.26) = 0.4383.
    EXPECT_NEAR(SchillerNaumannDragCoefficient(1000.0), 0.4383, 5e-4);
    // Re → 0: Stokes' 24/Re, the correction 0.15·Re^0.687 vanishing (7.3e-5 at Re = 1e-5).
    EXPECT_NEAR(SchillerNaumannDragCoefficient(1e-5) * 1e-5 / 24.0, 1.0, 1e-4);
}

TEST(DragCurve, TerminalSpeedBalancesTheExcessWeight) {
    const double rho = 1000.0, radius = 0.1, nu = 3e-4, g = 9.81;
    for (const double rhoBody : {1200.0, 1050.0, 800.0}) {
        const double u = DragCurveTerminalSpeed(rhoBody, rho, radius, nu, g);
        const double re = 2.0 * radius * u / nu;
        const double drag = 0.5 * rho * u * u * std::numbers::pi * radius * radius * SchillerNaumannDragCoefficient(re);
        const double excess = std::abs(rhoBody - rho) * g * 4.0 / 3.0 * std::numbers::pi * std::pow(radius, 3.0);
        EXPECT_NEAR(drag / excess, 1.0, 1e-6) << rhoBody;
    }
    // Issue 12's numbers: 1,200 kg/m³ settles near 1.02 m/s (Re ≈ 680), 1,050 near 0.43 m/s.
    EXPECT_NEAR(DragCurveTerminalSpeed(1200.0, rho, radius, nu, g), 1.02, 0.01);
    EXPECT_NEAR(DragCurveTerminalSpeed(1050.0, rho, radius, nu, g), 0.43, 0.01);
    // Stokes' law U = (2/9)(ρ_b − ρ)gR²/μ for a small grain in honey-like fluid (Re ≈ 4e-5).
    const double grain = 1e-4, honey = 1e-2;
    const double stokes = 2.0 / 9.0 * 200.0 * g * grain * grain / (rho * honey);
    EXPECT_NEAR(DragCurveTerminalSpeed(1200.0, rho, grain, honey, g) / stokes, 1.0, 1e-3);
    // Neutral, weightless or degenerate: no terminal speed.
    EXPECT_EQ(DragCurveTerminalSpeed(rho, rho, radius, nu, g), 0.0);
    EXPECT_EQ(DragCurveTerminalSpeed(1200.0, rho, radius, nu, 0.0), 0.0);
    EXPECT_EQ(DragCurveTerminalSpeed(1200.0, rho, 0.0, nu, g), 0.0);
}

}  // namespace
}  // namespace vorton
