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

}  // namespace vorton
