// Paint mode's model (issue 14, item 5): where a blob goes, its shape and tracers, its throw.

#include <cmath>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "app/ui/paint.h"
#include "sim/particles/seeding.h"
#include "test_util.h"

namespace vorton {
namespace {

TEST(PaintUi, TheBlobGoesAtTheCursorOnThePlaneFacingTheCamera) {
    // Eye at z = 5 looking down -z at the target (0, 0, 1): a ray with slope 0.1 in x meets
    // the plane z = 1, 4 m below the eye, at x = 0.4.
    const glm::vec3 eye(0.0f, 0.0f, 5.0f), forward(0.0f, 0.0f, -1.0f), target(0.0f, 0.0f, 1.0f);
    const glm::vec3 d = glm::normalize(glm::vec3(0.1f, 0.0f, -1.0f));
    const auto p = PaintPoint(eye, d, forward, target);
    ASSERT_TRUE(p.has_value());
    EXPECT_NEAR(p->z, 1.0f, 1e-5f);
    EXPECT_NEAR(p->x, 0.4f, 1e-5f);
    // Parallel to the plane, or the plane behind the eye: nowhere.
    EXPECT_FALSE(PaintPoint(eye, glm::vec3(1.0f, 0.0f, 0.0f), forward, target).has_value());
    EXPECT_FALSE(PaintPoint(eye, -d, forward, target).has_value());
}

TEST(PaintUi, BlobRadiusTracersAndThrow) {
    PaintSettings paint;
    paint.radius = 10.0f;  // beyond 40 spacings: clamped
    const DensityGroup blob = PaintBlob(paint, glm::vec3(1.0f), 3, 0.02f);
    EXPECT_EQ(blob.name, "paint_3");
    EXPECT_FLOAT_EQ(blob.radius, MaxPaintRadius(0.02f));
    EXPECT_FLOAT_EQ(blob.halo, 0.05f);
    EXPECT_EQ(blob.densityDeviation, paint.densityDeviation);
    // dye_drop seeds 100,000 tracers in a ball of 0.2 m: a blob of 0.1 m gets an eighth.
    SceneSetup setup = test::LoadSetup("dye_drop");
    paint.radius = 0.1f;
    const DensityGroup small = PaintBlob(paint, glm::vec3(0.0f), 1, 0.02f);
    EXPECT_NEAR(PaintTracers(setup, small), 12500, 2);
    // The throw: the cursor's speed, capped; none when asked not to or with no time passed.
    EXPECT_NEAR(glm::length(ThrowVelocity(paint, glm::vec3(0.03f, 0.0f, 0.0f), 0.1, 2.0f)), 0.3f, 1e-6f);
    EXPECT_NEAR(glm::length(ThrowVelocity(paint, glm::vec3(3.0f, 4.0f, 0.0f), 0.5, 2.0f)), 2.0f, 1e-6f);
    EXPECT_EQ(ThrowVelocity(paint, glm::vec3(0.03f, 0.0f, 0.0f), 0.0, 2.0f), glm::vec3(0.0f));
    paint.throwWithDrag = false;
    EXPECT_EQ(ThrowVelocity(paint, glm::vec3(0.03f, 0.0f, 0.0f), 0.1, 2.0f), glm::vec3(0.0f));
}

}  // namespace
}  // namespace vorton
