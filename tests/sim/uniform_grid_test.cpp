// Uniform grids: cloud-in-cell spreading, gradient and trilinear interpolation
// (docs/METHOD.md §8 "CIC density spread", "gradient operator").

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/numerics/uniform_grid.h"
#include "test_util.h"

namespace vorton {
namespace {

/// A grid that is not a cube and not aligned with the origin.
GridGeometry TestGrid() {
    const Aabb box{glm::vec3(-0.3f, 0.1f, -1.0f), glm::vec3(0.5f, 0.6f, 0.2f)};
    return FitGrid(box, 0.05f, 4000);
}

TEST(UniformGrid, FitGridCoversTheBoxWithItsMargin) {
    const Aabb box{glm::vec3(-0.3f, 0.1f, -1.0f), glm::vec3(0.5f, 0.6f, 0.2f)};
    const GridGeometry g = FitGrid(box, 0.05f, 4000);
    EXPECT_EQ(g.spacing.x, g.spacing.y);  // cubic cells
    EXPECT_EQ(g.spacing.x, g.spacing.z);
    for (int a = 0; a < 3; ++a) {
        EXPECT_LE(g.origin[a], box.min[a] - 0.05f + 1e-5f);
        EXPECT_GE(g.Max()[a], box.max[a] + 0.05f - 1e-5f);
    }
    // Rounding up each axis to whole cells adds at most one cell per axis.
    const double cells = double(g.points.x - 1) * (g.points.y - 1) * (g.points.z - 1);
    EXPECT_GE(cells, 4000.0 * 0.9);
    EXPECT_LE(cells, 4000.0 * 1.6);
}

TEST(UniformGrid, CloudInCellConservesMass) {
    // Σ grid·cellVolume = Σ amount_k: the eight weights of each particle sum to
    // one. Float round-off only: ~1e-7 × √N relative; bound 1e-5. Includes
    // particles outside the grid (clamped to the boundary cell: still counted).
    const GridGeometry g = TestGrid();
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(0.0f, 1.0f), m(-1.0f, 2.0f);
    std::vector<glm::vec3> x;
    std::vector<float> amount;
    double total = 0.0, magnitude = 0.0;
    for (int k = 0; k < 5000; ++k) {
        const glm::vec3 f(u(rng), u(rng), u(rng));
        x.push_back(g.origin + f * (g.Max() - g.origin) * 1.1f - 0.05f * (g.Max() - g.origin));
        amount.push_back(m(rng));
        total += amount.back();
        magnitude += std::abs(amount.back());
    }
    std::vector<float> density(g.PointCount(), 0.0f);
    SpreadCloudInCell(g, x, amount, density);
    double gridTotal = 0.0;
    for (float d : density) gridTotal += double(d) * g.CellVolume();
    test::Measured("relative_mass_error", std::abs(gridTotal - total) / magnitude);
    EXPECT_LT(std::abs(gridTotal - total), 1.0e-5 * magnitude);
}

TEST(UniformGrid, CloudInCellOfAParticleOnAPointStaysThere) {
    const GridGeometry g = TestGrid();
    std::vector<float> density(g.PointCount(), 0.0f);
    const std::vector<glm::vec3> x{g.Position(3, 4, 5)};
    const std::vector<float> amount{2.0f};
    SpreadCloudInCell(g, x, amount, density);
    EXPECT_NEAR(density[g.Index(3, 4, 5)] * g.CellVolume(), 2.0f, 1e-5f);
    EXPECT_NEAR(density[g.Index(4, 4, 5)], 0.0f, 1e-4f * density[g.Index(3, 4, 5)]);
}

/// f(x) = c + b·x sampled on the grid.
std::vector<float> LinearField(const GridGeometry& g, float c, glm::vec3 b) {
    std::vector<float> f(g.PointCount());
    for (int k = 0; k < g.points.z; ++k) {
        for (int j = 0; j < g.points.y; ++j) {
            for (int i = 0; i < g.points.x; ++i)
                f[g.Index(i, j, k)] = c + glm::dot(b, g.Position(i, j, k));
        }
    }
    return f;
}

TEST(UniformGrid, GradientIsExactOnALinearField) {
    // Central differences inside and one-sided differences on the faces are
    // both exact for a linear f; what remains is float cancellation,
    // eps·max|f| / h ≈ 1e-7 × 3 / 0.05 relative to |b| ~ 1: bound 1e-4·|b|.
    const GridGeometry g = TestGrid();
    const glm::vec3 b(1.5f, -2.0f, 0.7f);
    const std::vector<float> f = LinearField(g, 0.4f, b);
    std::vector<glm::vec3> grad(g.PointCount());
    Gradient(g, f, grad);
    double worst = 0.0;
    for (const glm::vec3& d : grad) worst = std::max(worst, double(glm::length(d - b)));
    test::Measured("worst_gradient_error", worst / glm::length(b));
    EXPECT_LT(worst, 1.0e-4 * glm::length(b));
    // Faces and corners are in the set: make sure the one-sided branch ran.
    EXPECT_LT(glm::length(grad[g.Index(0, 0, 0)] - b), 1.0e-4f * glm::length(b));
    EXPECT_LT(glm::length(grad[g.Index(g.points.x - 1, g.points.y - 1, g.points.z - 1)] - b),
              1.0e-4f * glm::length(b));
}

TEST(UniformGrid, GradientOfAQuadraticIsSecondOrderInside) {
    // Not only linear: central differences of x² give exactly 2x inside (the
    // h² error term of a quadratic vanishes), the one-sided faces are off by h.
    const GridGeometry g = TestGrid();
    std::vector<float> f(g.PointCount());
    for (int k = 0; k < g.points.z; ++k)
        for (int j = 0; j < g.points.y; ++j)
            for (int i = 0; i < g.points.x; ++i)
                f[g.Index(i, j, k)] = g.Position(i, j, k).x * g.Position(i, j, k).x;
    std::vector<glm::vec3> grad(g.PointCount());
    Gradient(g, f, grad);
    const int i = g.points.x / 2, j = g.points.y / 2, k = g.points.z / 2;
    EXPECT_NEAR(grad[g.Index(i, j, k)].x, 2.0f * g.Position(i, j, k).x, 1e-4f);
    EXPECT_NEAR(grad[g.Index(0, j, k)].x, 2.0f * g.Position(0, j, k).x + g.spacing.x, 1e-4f);
}

TEST(UniformGrid, InterpolationIsExactOnALinearField) {
    // Trilinear interpolation reproduces linear functions; float round-off of
    // values up to |f| ≈ 3: bound 1e-5 absolute. Scalars and vectors.
    const GridGeometry g = TestGrid();
    const glm::vec3 b(1.5f, -2.0f, 0.7f);
    const std::vector<float> f = LinearField(g, 0.4f, b);
    std::vector<glm::vec3> fv(g.PointCount());
    for (std::size_t p = 0; p < fv.size(); ++p) fv[p] = glm::vec3(f[p], 2.0f * f[p], -f[p]);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int t = 0; t < 1000; ++t) {
        const glm::vec3 x = g.origin + glm::vec3(u(rng), u(rng), u(rng)) * (g.Max() - g.origin);
        const float exact = 0.4f + glm::dot(b, x);
        ASSERT_NEAR(Interpolate(g, std::span<const float>(f), x), exact, 1e-5f);
        const glm::vec3 v = Interpolate(g, std::span<const glm::vec3>(fv), x);
        ASSERT_NEAR(v.y, 2.0f * exact, 2e-5f);
    }
    // At a grid point it returns the stored value.
    EXPECT_NEAR(Interpolate(g, std::span<const float>(f), g.Position(2, 3, 1)), f[g.Index(2, 3, 1)],
                1e-6f);
}

}  // namespace
}  // namespace vorton
