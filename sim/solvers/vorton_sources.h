#pragma once
/// \file
/// A read-only view of the vortons as velocity sources, and the batched
/// velocity query both solvers answer.

#include <span>

#include <glm/vec3.hpp>

namespace vorton {

/// Sources of the Biot–Savart sum: N positions (m), strengths α = ωV (m³/s)
/// and squared core radii σ² (m²), all of length N.
struct VortonSources {
    std::span<const glm::vec3> position;
    std::span<const glm::vec3> alpha;
    std::span<const float> sigma2;
};

/// Where to evaluate the velocity (M points, m) and what to write: velocity
/// (M, m/s) and, when `omega` is not empty, the stretching and tilting term
/// with the given ω at each point, in the transpose form (∇v)ᵀω (M, 1/s²;
/// see biot_savart.h).
struct VelocityQuery {
    std::span<const glm::vec3> points;
    std::span<glm::vec3> velocity;
    std::span<const glm::vec3> omega;
    std::span<glm::vec3> stretch;
};

/// Velocity by direct summation over all sources, O(N·M), parallel over the
/// query points (each point is summed in source order: deterministic).
/// The exact reference for the fast solvers. Gourlay part 3; Cottet &
/// Koumoutsakos (2000).
void DirectVelocity(const VortonSources& sources, const VelocityQuery& query);

}  // namespace vorton
