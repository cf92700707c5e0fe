#pragma once
/// \file
/// Paint mode's model (issue 14, item 5): the blob of heavy or light dye a click releases, where
/// it goes and how many tracers show it. No GL: the app's mouse code calls it, tests check it.

#include <optional>
#include <string>

#include <glm/vec3.hpp>

#include "sim/particles/seeding.h"

namespace vorton {

/// What the panel sets for paint strokes.
struct PaintSettings {
    float densityDeviation = -30.0f;    ///< δρ of the painted fluid, kg/m³ (< 0 light, rises; > 0 heavy, sinks)
    glm::vec3 dye{1.0f, 0.45f, 0.1f};   ///< RGB 0..1
    float radius = 0.1f;                ///< m; the wheel scales it while painting
    bool throwWithDrag = true;          ///< blobs move off at the cursor's speed across the view (ThrowVelocity)
};

/// The velocity a blob is thrown with: the cursor's over the plane it paints on, `moved` m in
/// `seconds`, capped at `maxSpeed` (m/s); zero when not throwing or no time passed.
glm::vec3 ThrowVelocity(const PaintSettings& paint, glm::vec3 moved, double seconds, float maxSpeed);

/// Radius range of a blob, m: from 1.5 vorton spacings (fewer lattice points would not make a
/// sphere) to 40 spacings.
float MinPaintRadius(float spacing);
float MaxPaintRadius(float spacing);

/// The group a click releases at `center` (m): a sphere of the settings' radius, deviation and
/// dye, named "paint_<index>", with a halo of 2.5 spacings of ambient vortons (the baroclinic
/// generation at its edge needs receivers all round: Conservation.ImpulseGrowsWithBuoyancy).
DensityGroup PaintBlob(const PaintSettings& paint, glm::vec3 center, int index, float spacing);

/// Tracers for a blob: the scene's tracers per cubic metre of its groups (tracer_count over
/// their volume) times the blob's volume, at least 200 and at most 100,000.
int PaintTracers(const SceneSetup& setup, const DensityGroup& blob);

/// Where the cursor ray (origin, unit direction) meets the plane through `depthPoint` facing the
/// camera (normal `forward`): the blob goes at the cursor, at the depth of what the camera
/// looks at. Nothing when the ray runs parallel to the plane or the plane is behind the eye.
std::optional<glm::vec3> PaintPoint(glm::vec3 origin, glm::vec3 direction, glm::vec3 forward, glm::vec3 depthPoint);

}  // namespace vorton
