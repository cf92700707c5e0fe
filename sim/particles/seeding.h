#pragma once
/// \file
/// Seeding a scene's density groups with vortons and tracers.

#include <span>
#include <vector>

#include "sim/numerics/aabb.h"
#include "sim/params.h"
#include "sim/particles/particles.h"
#include "sim/particles/remesh.h"

namespace vorton {

/// What a scene asks the simulation to start from.
struct SceneSetup {
    SimParams params;
    std::vector<DensityGroup> groups;  ///< at most kAmbientGroup groups; names unique
    std::vector<BodySpec> bodies;      ///< rigid spheres; names unique and distinct from group names
};

/// Why this setup cannot run, or an empty string: a free body with zero
/// density (no mass), a non-positive radius, a layer or emitter that is not a
/// box, duplicate names, a fluid density ρ₀ + Δρ ≤ 0, two bodies that
/// overlap, a group inside a body, a seeding lattice of more than
/// kSeedingPointsPerVorton points per vorton (plus a floor), a vorton_count
/// that seeds no vorton (the seeding is tried). Messages name the body or group.
std::string SetupProblem(const SceneSetup& setup);

/// Volume of a group's shape, m³ (box waves ignored: they move as much fluid up as down).
float ShapeVolume(const DensityGroup& group);
/// True when x is inside the shape grown outward by `grow` metres.
bool ShapeContains(const DensityGroup& group, glm::vec3 x, float grow = 0.0f);
/// Bounding box of the shape grown by `grow` metres.
Aabb ShapeBounds(const DensityGroup& group, float grow = 0.0f);

/// The seeding lattice: spacing h = (V_total / vortonCount)^{1/3} over the
/// bounds of the groups that SeedsVortons, centred on them. points = 0 when
/// nothing seeds; n is left 0 when points is absurd (> 10¹²).
struct SeedingGrid {
    glm::vec3 origin{0.0f};  ///< m, the first lattice point
    float h = 0.0f;          ///< m
    glm::ivec3 n{0};         ///< points along x, y, z
    double points = 0.0;     ///< n.x·n.y·n.z
    std::size_t Points() const { return std::size_t(n.x) * std::size_t(n.y) * std::size_t(n.z); }
};
SeedingGrid SeedingGridOf(const SceneSetup& setup);
/// SetupProblem refuses a seeding lattice of more than this many points per
/// vorton asked for, plus the floor (shipped scenes: at most 4.3 per vorton, two_drops).
inline constexpr double kSeedingPointsPerVorton = 64.0;
inline constexpr double kSeedingPointsFloor = 1048576.0;

/// Whether group g is seeded with vortons. Not when bodies make their own
/// vorticity (body_sheet) and the group starts with nothing for vortons to
/// carry (no density deviation, no circulation, not a layer): its fluid is
/// still, and all the vorticity it will hold comes from the bodies, on the
/// lattice they set (body_resolution), so it is dye only (tracers).
bool SeedsVortons(const SceneSetup& setup, std::size_t g);

/// Fewest lattice spacings a body that makes its own vorticity (body_sheet)
/// spans in radius: remeshing coarsens no further (Simulation::RemeshVortons),
/// and the clear-water lattice is refined for a smaller body only down to it
/// (ClearWaterSpacing). At R/h 3.2 a spinning ball's wall layer went unstable.
inline constexpr float kMinSheetBodySpans = 4.0f;

/// The lattice spacing h (m) in clear water, where the bodies make all the
/// vorticity (Simulation::Reset): the first body's radius / bodyResolution,
/// refined only as far as every other body needs to span
/// min(bodyResolution, kMinSheetBodySpans) spacings. So a ball smaller than the
/// scene's (one added from the panel, say) keeps a resolved wall without
/// putting every wake on its finer lattice: five balls of radii 0.08–0.12 m
/// took 168,000 vortons and 2.5 s a step on h = 0.08/5, 88,000 and 0.42 s on
/// h = 0.1/5 (stop 97). With bodyResolution ≤ kMinSheetBodySpans this is the
/// smallest radius / bodyResolution. bodies must not be empty; bodyResolution
/// is taken as at least 1.
float ClearWaterSpacing(std::span<const BodySpec> bodies, float bodyResolution);

/// Vortons on a cubic lattice of spacing h = (V_total / vortonCount)^{1/3},
/// where V_total counts each group that SeedsVortons and its halo; each lattice point inside a
/// group (the first that contains it) becomes a vorton of that group, each in a
/// halo and no group an ambient (zero-deviation) vorton. Points inside a
/// body (SceneSetup::bodies) are left empty. Core radius σ = coreOverlap·h
/// and volume V = h³. Torus groups with circulation Γ get azimuthal vorticity
/// Γ/(πa²); all others start at rest. The result depends only on the inputs.
/// The lattice used is returned in *lattice when given.
void SeedVortons(const SceneSetup& setup, Vortons& vortons, Lattice* lattice = nullptr);

/// tracerCount tracers spread over the groups in proportion to their volumes,
/// uniformly at random inside each and outside the bodies (seeded by
/// params.seed: reproducible), then sorted spatially (SortTracersSpatially).
void SeedTracers(const SceneSetup& setup, Tracers& tracers);

/// Reorders the tracers along a Morton (Z-order) curve of their positions, so
/// neighbours in memory are neighbours in space and the advection pass reads
/// the velocity grid coherently. Deterministic (a total order on key, index).
void SortTracersSpatially(Tracers& tracers);

}  // namespace vorton
