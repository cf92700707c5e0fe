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
/// - no-slip: what slip is left on the surface is cancelled each step (every
///   SheetStride steps) by a vortex sheet γ = n × u_slip released into
///   the fluid as new vortons.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace vorton {

/// Steps between two releases of the slip's vortex sheet at time step dt (s) for a body
/// moving through the fluid at `speed` (m/s: |V − U∞| + |Ω|R) with vorton spacing
/// `spacing` h (m): 1 while speed·dt ≥ h/4, else the fewest steps in which the flow
/// carries a sheet h/4, at most the steps that span 0.2 s (a body at rest). Released more
/// often, the wall layer grows at the rear until the run blows up (body_coupling.cpp,
/// kSheetCourant). At the scenes' dt 0.02 s and h 0.02–0.04 m that is every step above
/// 0.25–0.5 m/s; a slower ball (one coasting to rest, or a dropped one in its first
/// 0.2 s) releases it every few steps.
int SheetStride(float dt, float speed, float spacing);

/// Adds the field of a point dipole, c·(3 d(d·p)/r⁵ − p/r³) (m/s), at offset
/// d (r² = d·d > 0) from it and, when kStretch, its stretching term
/// (∇u)ω (1/s²; ∇u is symmetric). A sphere translating at W relative to the
/// fluid is p = W, c = R³/2 (Lamb §92); a point dipole of moment p is c = 1/4π.
template <bool kStretch>
inline void AddDipoleField(glm::vec3 d, float r2, glm::vec3 p, float c, glm::vec3 omega, glm::vec3* velocity,
                           glm::vec3* stretch) {
    const float r = std::sqrt(r2);
    const float inv3 = 1.0f / (r2 * r), inv5 = inv3 / r2;
    const float dp = glm::dot(d, p);
    *velocity += c * (3.0f * dp * inv5 * d - p * inv3);
    if constexpr (kStretch) {
        const float dO = glm::dot(d, omega);
        *stretch += c * (3.0f * inv5 * (dp * omega + dO * p + glm::dot(p, omega) * d) - 15.0f * inv5 / r2 * dp * dO * d);
    }
}

/// The points of the unit sphere a body is sampled at and the image sources
/// inside it, with the least-squares fit from the one to the other.
struct SurfaceStencil {
    std::vector<glm::vec3> normal;  ///< M unit normals (see MakeSurfaceStencil), also the points on the unit sphere
    std::vector<glm::vec3> source;  ///< K image-source points inside the unit sphere
    /// K×M, row-major: source strengths q (m³/s) = R²·fit·b for the normal
    /// velocities b (m/s) at the M points of a sphere of radius R; Σq = 0.
    std::vector<float> fit;
    /// The slip's smoothing over the surface (SmoothSlip), for radius/spacing
    /// `smoothingFor`: point j's neighbours smoothIndex[smoothStart[j] ..
    /// smoothStart[j+1]) with normalised Gaussian weights smoothWeight.
    double smoothingFor = -1.0;
    std::vector<std::uint32_t> smoothStart, smoothIndex;
    std::vector<double> smoothWeight;

    std::size_t Points() const { return normal.size(); }
};

/// The stencil with M surface points (M ≥ 16: for M a multiple of 48 a set with the
/// cube's 48 symmetries, else for a multiple of 8 one with the three mirrors, else a
/// Fibonacci sphere; body_surface.cpp) and K = min(M/2, 96) sources at 0.6 of the
/// radius (rounded down to a multiple of 48, or of 8, to share the points' symmetry),
/// fitted with a small Tikhonov term (relative 10⁻⁶)
/// so modes finer than the sources resolve are left alone, not amplified.
SurfaceStencil MakeSurfaceStencil(std::size_t points);

/// Surface points for a sphere of radius R whose spacing is about the
/// vorton spacing h: 4π(R/h)² rounded to a multiple of 48 (at least 48).
std::size_t SurfacePointsFor(float radius, float spacing);

/// Makes `stencil`'s smoothing weights for a sphere of `radiusOverSpacing`
/// R/h: a Gaussian of standard deviation `widthSpacings`·h along the surface
/// (chord distance), cut at 3 standard deviations; kept until R/h changes.
void PrepareSlipSmoothing(SurfaceStencil& stencil, double radiusOverSpacing, double widthSpacings);

/// The slip (M vectors, m/s) smoothed in place with the stencil's weights.
void SmoothSlip(const SurfaceStencil& stencil, std::vector<glm::dvec3>& slip);

/// The vortex sheet a body releases for its slip (no-slip; Koumoutsakos,
/// Leonard & Pépin 1994, J. Comput. Phys. 113). In: the slip, M vectors (m/s),
/// the fluid's velocity minus the surface's at the stencil's points of a
/// sphere of radius `radius` (m); `spacing` is the vorton spacing h (m).
/// Out: the strengths α_j (m³/s) of the vortons released off those points,
/// before Kelvin's correction of the net (body_coupling.cpp):
/// - the slip is smoothed over about a spacing (finer patterns barely move
///   the wall's fluid when released h/2 off it with cores of 1.5 h, so
///   cancelling them would pile up vorticity step after step);
/// - its rigid rotation ω_s (the least-squares fit of ω × Rn) is taken out:
///   released off the wall, its sheet moves the wall's fluid the same way as
///   the slip (+0.042 of it at R/h = 4; −⅓ for a singular sheet on the
///   wall), so releasing it pumps circulation into the fluid step after step
///   (a fixed spinning ball: 2 m³/s per s, blowing up in 3 s);
/// - α_j = dA n_j × slip_j.
/// What one release does to each pattern of slip (with Kelvin's correction
/// and the image sources) is measured in tests/sim/body_sheet_test.cpp:
/// poloidal patterns (∇_sY) keep 0.58–0.96 of themselves; toroidal ones
/// (n × ∇_sY, a swirl about the normal) of l = 2 come back 1.003–1.008 of
/// themselves (l = 3: 0.995–1.001), because n × slip is then a surface
/// gradient, whose vortex lines end on the shell.
/// Returns ω_s (rad/s).
glm::dvec3 SheetForSlip(SurfaceStencil& stencil, double radius, double spacing, std::vector<glm::dvec3>& slip);

/// A body's image flow for one vorton state: the translation dipole of the
/// sphere moving at `relative` (m/s, body velocity − stream), the field of
/// the body's own vorticity 2Ω (a turning sphere is a region of vorticity 2Ω;
/// outside it induces (R³/3)·2Ω × r/r³, two thirds of the wall's speed at the
/// surface, and it closes the vortex lines of the sheet a spin releases) and
/// the fitted sources. Velocity is m/s; evaluation points inside the sphere
/// get the body's rigid velocity minus the stream instead.
struct BodyImage {
    glm::vec3 center{0.0f};
    float radius = 0.0f;
    glm::vec3 relative{0.0f};         ///< body velocity − free stream, m/s
    glm::vec3 rigidVelocity{0.0f};    ///< body velocity − free stream, for points inside
    glm::vec3 angularVelocity{0.0f};  ///< Ω, rad/s: for points inside, and the body's vorticity 2Ω
    /// The K sources as one array per component, padded with inert sources
    /// (q = 0, at the first source's place) to a multiple of 8: positions (m)
    /// and strengths q (m³/s).
    std::vector<float> sourceX, sourceY, sourceZ, strength;
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
