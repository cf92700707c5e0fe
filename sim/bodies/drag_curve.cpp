#include "sim/bodies/drag_curve.h"

#include <cmath>
#include <numbers>

namespace vorton {

double SchillerNaumannDragCoefficient(double reynolds) {
    return 24.0 / reynolds * (1.0 + 0.15 * std::pow(reynolds, 0.687));
}

double StandardDragCoefficient(double reynolds) {
    const double newton = 0.42 / (1.0 + 4.25e4 * std::pow(reynolds, -1.16));
    return SchillerNaumannDragCoefficient(reynolds) + newton;
}

double DragCurveTerminalSpeed(double bodyDensity, double fluidDensity, double radius, double viscosity,
                              double gravity) {
    const double excess = std::abs(bodyDensity - fluidDensity) * std::abs(gravity) * 4.0 / 3.0 * std::numbers::pi *
                          radius * radius * radius;
    if (!(excess > 0.0) || !(radius > 0.0) || !(fluidDensity > 0.0) || !(viscosity > 0.0)) return 0.0;
    // The drag ½C_dρU²πR² = 3πμDU(1 + 0.15Re^0.687) + 0.42·½ρU²πR²/(1 + 4.25e4·Re^−1.16) grows
    // monotonically with U: both terms do.
    double lo = 0.0, hi = 100.0;
    for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; ++i) {
        const double u = 0.5 * (lo + hi);
        const double re = 2.0 * radius * u / viscosity;
        const double drag = 0.5 * fluidDensity * u * u * std::numbers::pi * radius * radius *
                            StandardDragCoefficient(re);
        (drag < excess ? lo : hi) = u;
    }
    return 0.5 * (lo + hi);
}

}  // namespace vorton
