#pragma once
/// \file
/// The standard drag curve of a sphere and the terminal velocity it gives: the closed forms a
/// falling or thrown ball is checked against (issue 12; tests/sim/body_sheet_test.cpp, the
/// diagnostics dock). Schiller & Naumann (1933), "Über die grundlegenden Berechnungen bei der
/// Schwerkraftaufbereitung", Z. Ver. Dtsch. Ing. 77; Clift, Grace & Weber, *Bubbles, Drops and
/// Particles* (1978) table 5.2: within ~5 % of measured C_d for Re < 800.

namespace vorton {

/// Schiller–Naumann drag coefficient C_d = 24/Re·(1 + 0.15·Re^0.687) of a sphere at Reynolds
/// number Re = U·D/ν > 0 (dimensionless).
double SchillerNaumannDragCoefficient(double reynolds);

/// Terminal speed (m/s) of a sphere of density `bodyDensity` (kg/m³) and radius `radius` (m)
/// in fluid of density `fluidDensity` (kg/m³) and kinematic viscosity `viscosity` (m²/s) under
/// gravity of magnitude `gravity` (m/s²): the speed where the drag ½·C_d·ρ·U²·πR² balances
/// |ρ_b − ρ|·V·g, by bisection on [0, 100] m/s (to 1e-9 relative). 0 for a neutral body or no
/// gravity. Errors: none; non-positive radius, densities or viscosity give 0.
double DragCurveTerminalSpeed(double bodyDensity, double fluidDensity, double radius, double viscosity,
                              double gravity);

}  // namespace vorton
