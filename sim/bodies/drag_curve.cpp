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

SideForceSpectrum MeasureSideForceSpectrum(const std::vector<glm::dvec2>& side, double dt, double diameter,
                                           double speed, double bandLow, double bandHigh) {
    SideForceSpectrum out;
    const std::size_t n = side.size();
    if (n < 4 || !(dt > 0.0) || !(diameter > 0.0) || !(speed > 0.0)) return out;
    // Each component about its least-squares line through the samples.
    std::vector<glm::dvec2> s(n);
    const double tMean = 0.5 * double(n - 1);
    double den = 0.0;
    for (std::size_t i = 0; i < n; ++i) den += (double(i) - tMean) * (double(i) - tMean);
    double square = 0.0;
    for (int c = 0; c < 2; ++c) {
        double mean = 0.0, num = 0.0;
        for (std::size_t i = 0; i < n; ++i) mean += side[i][c] / double(n);
        for (std::size_t i = 0; i < n; ++i) num += (double(i) - tMean) * (side[i][c] - mean);
        for (std::size_t i = 0; i < n; ++i) {
            s[i][c] = side[i][c] - mean - num / den * (double(i) - tMean);
            square += s[i][c] * s[i][c];
        }
    }
    out.rms = std::sqrt(square / double(n));
    const auto strouhal = [&](std::size_t k) { return double(k) / (double(n) * dt) * diameter / speed; };
    std::vector<double> hann(n);
    for (std::size_t i = 0; i < n; ++i) hann[i] = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * double(i) / double(n - 1));
    double total = 0.0, band = 0.0, peak = 0.0;
    for (std::size_t k = 1; k < n / 2 && strouhal(k) <= 0.6; ++k) {
        double power = 0.0;
        for (int c = 0; c < 2; ++c) {
            double re = 0.0, im = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                const double phase = 2.0 * std::numbers::pi * double(k * i % n) / double(n);
                re += hann[i] * s[i][c] * std::cos(phase);
                im += hann[i] * s[i][c] * std::sin(phase);
            }
            power += re * re + im * im;
        }
        total += power;
        if (strouhal(k) >= bandLow && strouhal(k) <= bandHigh) band += power;
        if (power > peak) {
            peak = power;
            out.peakStrouhal = strouhal(k);
        }
    }
    out.bandShare = total > 0.0 ? band / total : 0.0;
    return out;
}

}  // namespace vorton
