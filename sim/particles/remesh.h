#pragma once
/// \file
/// Remeshing: redistributing vortons onto a regular lattice, and culling the
/// lattice points that carry next to nothing.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/particles/particles.h"

namespace vorton {

/// The cubic lattice vortons were seeded on: points origin + h·(i, j, k) for any integers.
struct Lattice {
    glm::vec3 origin{0.0f};
    float spacing = 0.0f;  ///< h, m; 0 means "no lattice" (remeshing off)
};

/// What a remesh keeps and drops.
struct RemeshSettings {
    float sigma = 0.0f;  ///< core radius of the new vortons, m
    /// The weakest lattice points that carry only vorticity are dropped as
    /// long as their Σ|α| stays below this fraction of the total Σ|α|: it
    /// bounds what one remesh may change Σα and the impulse ½Σx×α by.
    float cullFraction = 1.0e-4f;
    /// And whatever that budget, the lattice points that carry only vorticity
    /// weaker than this (|α|/h³ < cullVorticity, 1/s) are dropped: a budget
    /// relative to the total lets no point go from a flow that decays
    /// everywhere at once, which then keeps its count and its cost for ever
    /// at a strength no tracer could show. 0: no floor.
    float cullVorticity = 0.0f;
    /// A point holds a group's fluid when that group's volume there is at
    /// least this fraction of the cell volume h³; thinner traces of the group
    /// (the kernel's spread at the edges) are folded back into the group's
    /// other points so that its total volume, and with it its excess mass, is
    /// unchanged.
    float groupFloor = 0.05f;
    /// Zero-vorticity points within this many lattice steps (Chebyshev
    /// distance) of fluid of a buoyant group are kept: baroclinic generation
    /// happens only on vortons, and the density gradient reaches two cells
    /// beyond the dense fluid (cloud-in-cell spread and central differences).
    int receiverReach = 2;
    /// Keep zero-vorticity points next to (Chebyshev distance 1) the points
    /// that keep vorticity of at least diffusionReceiverFraction times the
    /// largest |α|: PSE exchanges strength only between existing vortons, so
    /// without them the cloud's edge grows only by the drift between remeshes
    /// (SimParams::diffusionReceivers).
    bool diffusionReceivers = false;
    float diffusionReceiverFraction = 1.0e-3f;
    /// Per group (indexed like Vortons::group): whether it needs receivers
    /// (a non-zero density deviation; the layers of a stratified ambient do not).
    std::span<const std::uint8_t> buoyantGroup;
    /// Never more vortons than this. Beyond it the lattice is coarsened by
    /// coarsenFactor (spacing and core radius) up to maxCoarsening times; on the
    /// coarsest, the weakest are dropped whatever the budget (RemeshReport::capped).
    std::size_t maxVortons = std::size_t(1) << 22;
    int maxCoarsening = 8;
    /// Nor more points than this in the solver's grid around the vortons a
    /// remesh leaves: cubic cells of gridCellRatio · spacing over their box
    /// grown by 2.5 cells (as Simulation::FitVortonGrid builds it). Past it
    /// the lattice is coarsened as for maxVortons: a flow that has spread
    /// thin over a growing volume (a mixing layer's column, a decayed ring)
    /// keeps a grid, and a cost per step, of bounded size at a resolution
    /// that follows its scale, rather than a grid whose cells outgrow the
    /// vortons' spacing (issue 10).
    std::size_t maxGridPoints = std::numeric_limits<std::size_t>::max();
    float gridCellRatio = 1.0f;
    /// Nor coarser than this spacing, m (a body must stay resolved).
    float maxSpacing = std::numeric_limits<float>::max();
    /// Spacing ratio of one coarsening: 2^{1/3} halves the volume per vorton.
    float coarsenFactor = 1.25992105f;
    /// Rigid spheres (centre xyz, radius w, m): lattice points inside one
    /// hold no group's fluid (its volume goes to the points outside).
    std::span<const glm::vec4> bodies;
    /// Zero-vorticity points outside a body and within this distance (m) of
    /// its surface are kept as receivers, and the lattice box reaches them:
    /// a body of the skin model (Gourlay part 4) acts on the fluid only
    /// through the vortons next to it, so one that sinks or rises out of the
    /// seeded fluid would otherwise meet no fluid at all and fall without drag.
    float bodyShell = 0.0f;
    /// Keep the vorticity the spreading put on lattice points inside a body
    /// (the caller moves it out; bodies that make their own vorticity) rather
    /// than letting it go.
    bool keepInside = false;
    /// When the cap binds, drop the vorticity-only points farthest from every
    /// body first, not the weakest (bodies that make their own vorticity: the
    /// oldest wake goes first). A ranking by distance has a body's symmetries;
    /// the weakest points of a symmetric flow are picked by round-off, and on
    /// a spinning ball their impulse, dropped remesh after remesh, drove a
    /// flow along the axis (issue 10).
    bool capFarthestFirst = false;
    /// A remesh that would visit more lattice points than this (or whose box
    /// has more rows (j, k)) is not done (false returned). Only the points
    /// the vortons' kernels, their receivers and the bodies reach are
    /// visited, not the whole box between them.
    std::size_t maxPoints = std::size_t(1) << 25;
};

/// Which cap made a remesh coarsen the lattice (RemeshReport::cause).
enum class CoarseningCause : std::uint8_t {
    None,        ///< not coarsened
    Vortons,     ///< the count would pass RemeshSettings::maxVortons
    GridPoints,  ///< the solver grid would pass RemeshSettings::maxGridPoints
};

/// What a remesh did.
struct RemeshReport {
    std::size_t before = 0, after = 0;
    /// Σ|α| of the dropped points / Σ|α| of all: what the remesh let go
    /// (above cullFraction only by what the cullVorticity floor dropped, or the cap).
    double droppedStrength = 0.0;
    /// The max_vortons cap forced drops beyond the cullFraction budget.
    bool capped = false;
    /// Times the lattice was coarsened (by coarsenFactor) to meet the caps
    /// maxVortons and maxGridPoints (0: the given one).
    int coarsened = 0;
    /// The cap that forced the last of those coarsenings (None when coarsened is 0).
    CoarseningCause cause = CoarseningCause::None;
    Lattice lattice;  ///< the lattice the vortons now sit on
    float sigma = 0.0f;  ///< their core radius, m
};

/// Replaces the vortons by vortons on the lattice. Each old vorton's
/// strength α = ωV, its group's volume (massFraction·V, one channel per
/// group) and its birth height are spread to the 4×4×4 lattice points around
/// it with the M4′ kernel (Monaghan, J. Comput. Phys. 60, 1985), which
/// reproduces polynomials up to degree 2: Σα, the linear impulse ½Σx×α and
/// each group's volume are conserved exactly by the spreading. Then a point
/// becomes a vorton (volume h³, core σ) when any of these holds:
///  - it holds a group's fluid (settings.groupFloor); its group is the one
///    with the most volume there, its massFraction that volume / h³, after
///    each group's thin traces are folded back (total volume conserved);
///  - it is a receiver near a buoyant group's fluid (settings.receiverReach),
///    in the shell around a body (settings.bodyShell), or, with
///    settings.diffusionReceivers, next to kept vorticity (chosen after the
///    cull; a culled point chosen so keeps no strength);
///  - its vorticity is not among the weakest that the cullFraction budget
///    lets go, and not below the cullVorticity floor.
/// So a blob keeps its vortons and a halo, a wake keeps its vorticity, and
/// the empty rim that the kernel's spread would add at every remesh does not
/// accumulate: the count stays bounded. Remeshing restores the overlap of
/// the vortons' cores that the flow's strain destroys; without it isolated
/// vortons out of reach of their neighbours' diffusion get stretched without
/// bound (Koumoutsakos, J. Comput. Phys. 138, 1997; Cottet & Koumoutsakos
/// 2000, §7; the rogue vorton of issue 10). Birth heights are weighted means,
/// clamped to the range of those that contributed. Deterministic (serial
/// spreading in vorton order, selection by a total order). Past maxVortons
/// or maxGridPoints the lattice is coarsened (see RemeshSettings); at the cap the
/// weakest tier goes first: diffusion receivers, vorticity alone, receivers, a
/// group's fluid, a body's shell. Returns false (and changes nothing) if the points to visit
/// would exceed maxPoints. Cost O(vortons · 64 + visited points), not the
/// box's volume.
bool Remesh(const Lattice& lattice, const RemeshSettings& settings, Vortons& vortons, RemeshReport* report = nullptr);

}  // namespace vorton
