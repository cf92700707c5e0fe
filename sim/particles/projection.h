#pragma once
/// \file
/// Solenoidal projection of the vorticity that vortons carry on their remesh
/// lattice: the divergence of ω that the particles' discretisation lets grow
/// (stretching of a field that is not a curl, a wall layer whose lines do not
/// close) is taken out, ω ← ω − ∇φ with ∇²φ = ∇·ω.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/ext/vector_double3.hpp>
#include <glm/ext/vector_int3.hpp>

#include "sim/particles/particles.h"
#include "sim/particles/remesh.h"
#include "sim/solvers/vorton_clusters.h"

namespace vorton {

/// A rigid sphere as the projection sees it: the fluid-plus-body vorticity is
/// the body's own 2Ω inside it, so the wall layer's vortex lines close there
/// rather than being forced to close in the fluid.
struct ProjectionSphere {
    glm::vec3 center{0.0f};        ///< m
    float radius = 0.0f;           ///< m
    glm::vec3 angularVelocity{0.0f};  ///< Ω, rad/s
};

/// What a projection did.
struct ProjectionReport {
    /// Σ|Δω| / Σ|ω| over the vortons it changed (0 when nothing was done).
    double changed = 0.0;
    /// The lattice-wide Σ|∇·ω| / Σ(|∂ₓωₓ| + |∂ᵧωᵧ| + |∂_zω_z|) before, by
    /// central differences on the projection's box (0 for a solenoidal
    /// field, about ½ for noise), with the spheres' 2Ω inside them.
    double divergenceBefore = 0.0;
    /// Σ(α_after − α_before) over the vortons, m³/s: what went to points
    /// that hold no vorton or lie inside a sphere.
    glm::dvec3 netChange{0.0};
    glm::ivec3 box{0};  ///< FFT box, lattice points per axis
    std::size_t projected = 0;  ///< vortons on the lattice (the others are left as they are); 0: nothing done
};

/// Most points of the projection's FFT box (about 200 MB of buffers); a
/// flow spread wider than that is left as it is (ProjectionReport::projected = 0).
inline constexpr std::size_t kMaxProjectionPoints = std::size_t(1) << 23;

/// Projects the vorticity of the vortons that sit on `lattice` (a remesh has
/// just put them there) onto its discretely solenoidal part: with δ the
/// central difference on the lattice, φ solves δ·δφ = δ·ω on a periodic box
/// at least twice the occupied extent along each axis (so the periodic
/// images are two extents away; the field is zero in between), and
/// ω ← ω − δφ. The field projected is the vortons' ω plus, on the lattice
/// points inside each sphere, its 2Ω (the lines of the wall layer close
/// through the body); the spheres' part is taken off again afterwards and
/// what the projection puts on lattice points that hold no vorton or lie
/// inside a sphere is not kept, so Σα changes by that much (reported through
/// the caller's moments; the caller restores what it must). A field that is
/// already δ×A on occupied points is left unchanged to round-off, and one
/// that is δ×A + δψ (ψ with support in the occupied points) comes back as
/// δ×A (tests/sim/projection_test.cpp).
///
/// This is the vortex method's standard reprojection (Cottet & Koumoutsakos,
/// *Vortex Methods: Theory and Practice*, 2000: the particles' field need not
/// stay divergence-free; Winckelmans & Leonard, J. Comput. Phys. 109, 1993); on a
/// remesh lattice it is the vortex-in-cell form (Cottet & Poncet, J. Comput.
/// Phys. 193, 2004). The 3D FFTs are the grid solver's line batches
/// (LineFft, FFTW_ESTIMATE: the same algorithm every run; each line's result
/// independent of the thread that runs it), so the result is the same for
/// any thread count. The occupied box's lines only are transformed where the
/// rest is zero (forward) or not read (inverse). Cost O(M log M), M the box's
/// points (8 times the occupied box's). Spheres farther than two spacings
/// from the vortons' box are left out.
///
/// Keeps its FFT plans and buffers from call to call (a remesh's box changes
/// little); not thread-safe (one per simulation).
class SolenoidalProjection {
public:
    SolenoidalProjection();
    ~SolenoidalProjection();
    SolenoidalProjection(const SolenoidalProjection&) = delete;
    SolenoidalProjection& operator=(const SolenoidalProjection&) = delete;

    void Project(const Lattice& lattice, std::span<const ProjectionSphere> spheres, Vortons& vortons,
                 ProjectionReport* report = nullptr);

private:
    /// Project on one periodic box around all the given vortons (N each).
    void ProjectOnOneBox(const Lattice& lattice, std::span<const ProjectionSphere> spheres,
                         std::span<const glm::vec3> position, std::span<glm::vec3> vorticity,
                         std::span<const float> volume, ProjectionReport* report);
    struct Buffers;
    std::unique_ptr<Buffers> m_buffers;
    // One group's vortons, gathered (Project with groups far apart).
    std::vector<glm::vec3> m_subPosition, m_subVorticity;
    std::vector<float> m_subVolume;
};

/// Whether groups of vortons (SplitIntoClusters) are far enough apart to be
/// projected each on its own box: every two are separated, along some axis, by
/// at least the larger extent of either. One box puts a group's periodic image
/// one extent away (twice the extent per axis), so another group as far adds
/// no more than that image does.
bool FarApartForProjection(std::span<const VortonCluster> groups);

/// One projection with its own (temporary) plans and buffers: SolenoidalProjection::Project.
void ProjectSolenoidal(const Lattice& lattice, std::span<const ProjectionSphere> spheres, Vortons& vortons,
                       ProjectionReport* report = nullptr);

}  // namespace vorton
