#pragma once
/// \file
/// A rigid sphere's boundary conditions in the vortex method (Cottet &
/// Koumoutsakos, *Vortex Methods*, ch. 4 and 6; Koumoutsakos, Leonard & Pépin
/// 1994, J. Comput. Phys. 113):
/// - no-through: the velocity is the vortons' plus a potential flow ∇φ whose
///   normal velocity on the sphere cancels theirs. φ is the translation
///   dipole of the sphere (exact) plus a set of point sources inside the
///   sphere fitted by least squares to the vortons' normal velocity at M
///   points of the surface (the method of fundamental solutions);
/// - no-slip: what slip is left on the surface is cancelled each step by a
///   vortex sheet γ = n × u_slip released into the fluid as new vortons.

#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace vorton {

/// The points of the unit sphere a body is sampled at and the image sources
/// inside it, with the least-squares fit from the one to the other.
struct SurfaceStencil {
    std::vector<glm::vec3> normal;  ///< M unit normals (a Fibonacci sphere), also the points on the unit sphere
    std::vector<glm::vec3> source;  ///< K image-source points inside the unit sphere
    /// K×M, row-major: source strengths q (m³/s) = R²·fit·b for the normal
    /// velocities b (m/s) at the M points of a sphere of radius R; Σq = 0.
    std::vector<float> fit;

    std::size_t Points() const { return normal.size(); }
};

/// The stencil with M surface points (M ≥ 16) and K = min(M/2, 96) sources
/// at 0.6 of the radius, fitted with a small Tikhonov term (relative 10⁻⁶)
/// so modes finer than the sources resolve are left alone, not amplified.
SurfaceStencil MakeSurfaceStencil(std::size_t points);

/// Surface points for a sphere of radius R whose spacing is about the
/// vorton spacing h: 4π(R/h)², at least 48.
std::size_t SurfacePointsFor(float radius, float spacing);

/// A body's image flow for one vorton state: the translation dipole of the
/// sphere moving at `relative` (m/s, body velocity − stream) and the fitted
/// sources. Velocity is m/s; evaluation points inside the sphere get the
/// body's rigid velocity minus the stream instead.
struct BodyImage {
    glm::vec3 center{0.0f};
    float radius = 0.0f;
    glm::vec3 relative{0.0f};         ///< body velocity − free stream, m/s
    glm::vec3 rigidVelocity{0.0f};    ///< body velocity − free stream, for points inside
    glm::vec3 angularVelocity{0.0f};  ///< rad/s, for points inside
    std::vector<glm::vec3> sourcePosition;  ///< K, m
    std::vector<float> strength;            ///< K, m³/s
    glm::vec3 dipole{0.0f};  ///< Σ q (x_k − c), m⁴/s: the sources' far field

    bool Inside(glm::vec3 x) const;
    /// Velocity of the image flow at x outside the sphere (m/s) and, when
    /// kStretch, the stretching term (∇u)ω (1/s²) there.
    template <bool kStretch>
    void Add(glm::vec3 x, glm::vec3 omega, glm::vec3* velocity, glm::vec3* stretch) const;
};

/// Fits the image sources of `image` (centre, radius, relative already set)
/// to cancel the normal velocity `fluidVelocity` (M, m/s: the vortons', no
/// stream, no dipole) at the stencil's surface points.
void FitImageSources(const SurfaceStencil& stencil, std::span<const glm::vec3> fluidVelocity, BodyImage& image);

}  // namespace vorton
