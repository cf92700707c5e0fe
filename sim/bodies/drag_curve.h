#pragma once
/// \file
/// The standard drag curve of a sphere and the terminal velocity it gives: the closed forms a
/// falling or thrown ball is checked against (issue 12; tests/sim/body_sheet_test.cpp, the
/// diagnostics dock). Schiller & Naumann (1933), "Über die grundlegenden Berechnungen bei der
/// Schwerkraftaufbereitung", Z. Ver. Dtsch. Ing. 77; Clift, Grace & Weber, *Bubbles, Drops and
/// Particles* (1978) table 5.2: within ~5 % of measured C_d for Re < 800. Past Re ≈ 800 it falls
/// below the measured curve (0.94 of the standard curve at Re 1000, 0.66 at 5,000, where a thrown
/// ball starts), so the curve the checks use is Clift & Gauvin's (1970) extension of it, which
/// holds to Re 3·10⁵.

#include <vector>

#include <glm/vec2.hpp>

namespace vorton {

/// Schiller–Naumann drag coefficient C_d = 24/Re·(1 + 0.15·Re^0.687) of a sphere at Reynolds
/// number Re = U·D/ν > 0 (dimensionless).
double SchillerNaumannDragCoefficient(double reynolds);

/// The standard drag curve of a sphere at Reynolds number Re = U·D/ν > 0 (dimensionless):
/// Clift & Gauvin's C_d = 24/Re·(1 + 0.15·Re^0.687) + 0.42/(1 + 4.25·10⁴·Re^−1.16), within ~6 %
/// of measured C_d for Re < 3·10⁵ (Clift & Gauvin 1970, "The motion of particles in turbulent gas
/// streams", Proc. Chemeca '70 1; Clift, Grace & Weber 1978, ch. 5). It is Schiller–Naumann's
/// within 0.2 % below Re 100 and 1 % at Re 290; the second term is the Newton regime's nearly
/// constant drag (C_d ≈ 0.39–0.49 for 10³ < Re < 2·10⁵), which Schiller–Naumann lacks. Used by
/// every check against "the drag curve" (falling, thrown and fixed balls, the dock).
double StandardDragCoefficient(double reynolds);

/// Terminal speed (m/s) of a sphere of density `bodyDensity` (kg/m³) and radius `radius` (m)
/// in fluid of density `fluidDensity` (kg/m³) and kinematic viscosity `viscosity` (m²/s) under
/// gravity of magnitude `gravity` (m/s²): the speed where the drag ½·C_d·ρ·U²·πR², with the
/// standard curve's C_d (StandardDragCoefficient), balances |ρ_b − ρ|·V·g, by bisection on
/// [0, 100] m/s (to 1e-9 relative). 0 for a neutral body or no gravity. Errors: none;
/// non-positive radius, densities or viscosity give 0.
double DragCurveTerminalSpeed(double bodyDensity, double fluidDensity, double radius, double viscosity,
                              double gravity);

/// What a ball's side force says about its wake's shedding (issue 12: a sphere in a stream at
/// 300 ≤ Re ≤ 1000 sheds at St = f·D/U ≈ 0.13–0.2; Sakamoto & Haniu 1990, J. Fluids Eng. 112;
/// Johnson & Patel 1999, J. Fluid Mech. 378: St 0.137 at Re 300).
struct SideForceSpectrum {
    double peakStrouhal = 0.0;  ///< St of the strongest bin (0 with fewer than 4 samples or no power)
    double bandShare = 0.0;     ///< the share of the power (bins up to St 0.6) in [bandLow, bandHigh]
    double rms = 0.0;           ///< C_L': RMS of the side force's two components about their means and trends
};

/// The side force's spectrum. In: the side-force coefficients (C_1, C_2) = F_⊥ / (½ρU²πR²) on two
/// axes across the stream, sampled every `dt` s (> 0), for a ball of diameter `diameter` (m) in a
/// stream of `speed` (m/s; > 0). Each component is taken about its mean and linear trend (a wake
/// still settling drifts, and a drift leaks into the lowest bins), under a Hann window; their
/// powers are added, over the bins St = k/(n dt)·D/U, k ≥ 1, up to St 0.6. Bins are D/(U n dt)
/// apart in St (0.013 for 30 s of flow_past_ball). Errors: none; degenerate input gives zeros.
SideForceSpectrum MeasureSideForceSpectrum(const std::vector<glm::dvec2>& side, double dt, double diameter,
                                           double speed, double bandLow = 0.1, double bandHigh = 0.25);

}  // namespace vorton
