#pragma once
/// \file
/// The regularised Biot–Savart kernel shared by the direct and tree solvers.
///
/// Velocity induced at x by a vorton of strength α = ωV at x_k with core σ:
///
///     v(x) = (1/4π) α × r / (|r|² + σ²)^{3/2},   r = x − x_k
///
/// the low-order algebraic (Rosenhead–Moore) regularisation, see Winckelmans &
/// Leonard, J. Comput. Phys. 109 (1993); Cottet & Koumoutsakos (2000) §2.
/// Its far field is the singular kernel; at r = 0 it is finite (zero).
/// Right-hand rule: α = +z at the origin gives v = +y at x = +x.

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace vorton {

inline constexpr float kOneOverFourPi = float(0.25 / std::numbers::pi);

/// Adds the (unscaled, no 1/4π) velocity α × r / q^{3/2} of one vorton to *v
/// and, when stretching is wanted, its stretching and tilting term in the
/// transpose form (∇v)ᵀω = (∇K)(ω × α) = (ω×α)/q^{3/2} − 3 r (r·(ω×α))/q^{5/2}
/// to *s. Here q = |r|² + σ² and ω is the vorticity at the target.
///
/// In the continuum (∇v)ᵀω equals (ω·∇)v (they differ by ω × (∇×v) = ω × ω =
/// 0); on particles the transpose form conserves Σα exactly under stretching
/// and, measured on the dye drop, keeps runs stable at a third of the
/// viscosity the classical form needs (Cottet & Koumoutsakos 2000, §2.6).
template <bool kStretch>
inline void AccumulateVorton(glm::vec3 r, glm::vec3 alpha, float sigma2, glm::vec3 omega, glm::vec3* v,
                             glm::vec3* s) {
    const float q = glm::dot(r, r) + sigma2;
    const float inv3 = 1.0f / (q * std::sqrt(q));
    *v += glm::cross(alpha, r) * inv3;
    if constexpr (kStretch) {
        const float inv5 = inv3 / q;
        const glm::vec3 oa = glm::cross(omega, alpha);
        *s += oa * inv3 - r * (3.0f * glm::dot(r, oa) * inv5);
    }
}

}  // namespace vorton
