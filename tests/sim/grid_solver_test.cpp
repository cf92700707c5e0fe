// The FFT grid solver against direct summation (docs/METHOD.md §8 "fast solver vs
// direct"), its determinism across thread counts, and the single-vorton far field.
//
// Set VORTON_GRID_SURVEY=1 to print the error table over grid spacings and
// stencils, VORTON_GRID_TIMING=1 for Solve + Evaluate timings at 16k and 64k
// vortons (both skipped otherwise).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>
#include <glm/geometric.hpp>

#include "sim/numerics/aabb.h"
#include "sim/solvers/biot_savart.h"
#include "sim/solvers/grid_solver.h"
#include "sim/solvers/grid_solver_fft.h"
#include "sim/solvers/velocity_solver.h"
#include "sim/solvers/vorton_clusters.h"
#include "sim/simulation.h"
#include "sim/numerics/uniform_grid.h"
#include "sim/solvers/vorton_sources.h"
#include "test_util.h"

namespace vorton {
namespace {

/// Grid cell / vorton spacing the tests hold the solver to (the largest that
/// meets 1 % at the vortons with M4′; see GridSolverSurvey).
constexpr float kDefaultCellOverSpacing = 1.0f;

/// Vortons on a cubic lattice of spacing h filling a ball of radius `radius`
/// (in units of h), σ = 1.5 h and V = h³ as the seeding gives, each moved by
/// up to ±0.3 h per axis (as after a few steps: on the bare lattice, aligned
/// with the grid, the stencils are exact and the errors vanish), carrying a
/// smooth field: a vortex ring (azimuthal vorticity with a Gaussian core of
/// radius 0.3 R about the circle of radius 0.55 R) tilted off the lattice
/// axes, plus a weaker smooth random field (a few long-wave Fourier modes).
struct Cloud {
    float h = 0.0f;
    std::vector<glm::vec3> position, vorticity, alpha;
    std::vector<float> sigma2;
    VortonSources Sources() const { return {position, alpha, sigma2}; }
};

Cloud SmoothBall(float radius, unsigned seed, float h = 0.01f) {
    Cloud c;
    c.h = h;
    const float R = radius * h;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    struct Mode {
        glm::vec3 k, amplitude;
        float phase;
    };
    std::vector<Mode> modes;
    for (int m = 0; m < 6; ++m) {
        const glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(1e-3f));
        modes.push_back({dir * (3.0f / R) * (1.0f + 0.5f * u(rng)),
                         0.3f * glm::vec3(u(rng), u(rng), u(rng)), 3.14159f * u(rng)});
    }
    const glm::vec3 axis = glm::normalize(glm::vec3(0.3f, -0.2f, 1.0f));
    const float ringRadius = 0.55f * R, core = 0.3f * R;
    const int m = int(std::ceil(radius));
    for (int k = -m; k <= m; ++k) {
        for (int j = -m; j <= m; ++j) {
            for (int i = -m; i <= m; ++i) {
                const glm::vec3 lattice = glm::vec3(i, j, k) * h;
                if (glm::dot(lattice, lattice) > R * R) continue;
                const glm::vec3 x = lattice + 0.3f * h * glm::vec3(u(rng), u(rng), u(rng));
                const float along = glm::dot(x, axis);
                const glm::vec3 radial = x - along * axis;
                const float rho = glm::length(radial);
                glm::vec3 w(0.0f);
                if (rho > 0.0f) {
                    const float d2 = (rho - ringRadius) * (rho - ringRadius) + along * along;
                    w = std::exp(-d2 / (core * core)) * glm::cross(axis, radial / rho);
                }
                for (const Mode& mode : modes)
                    w += mode.amplitude * std::cos(glm::dot(mode.k, x) + mode.phase);
                w *= 10.0f;  // 1/s
                c.position.push_back(x);
                c.vorticity.push_back(w);
                c.alpha.push_back(w * (h * h * h));
                c.sigma2.push_back(2.25f * h * h);
            }
        }
    }
    return c;
}

/// The grid the caller is to give: cells H = ratio·h covering the vortons with 2 cells of margin.
GridGeometry GridFor(const Cloud& c, float ratio) {
    const float cell = ratio * c.h;
    return FitGridWithCell(BoundsOf(c.position), 2.0f * cell, cell, std::size_t(1) << 30);
}

struct Errors {
    double atVortons, stretch, atGridPoints, betweenVortons;
};

/// Relative RMS errors against DirectVelocity: velocity and stretching at the
/// vortons, velocity at the grid points inside the ball, and velocity
/// interpolated at points between the vortons (lattice cell centres).
Errors Measure(const Cloud& c, float ratio, GridStencil stencil, bool elsewhere = true) {
    const GridGeometry grid = GridFor(c, ratio);
    GridSolver solver(stencil);
    solver.Solve(grid, c.Sources());
    const std::size_t n = c.position.size();
    std::vector<glm::vec3> vd(n), sd(n), vg(n), sg(n);
    DirectVelocity(c.Sources(), VelocityQuery{c.position, vd, c.vorticity, sd});
    solver.Evaluate(VelocityQuery{c.position, vg, c.vorticity, sg});
    if (!elsewhere) return {test::RelativeRms(vg, vd), test::RelativeRms(sg, sd), 0.0, 0.0};

    float r2 = 0.0f;
    for (const glm::vec3& x : c.position) r2 = std::max(r2, glm::dot(x, x));
    std::vector<glm::vec3> gridPoints, gridVelocity;
    const std::span<const glm::vec3> all = solver.GridVelocity();
    for (int k = 0; k < grid.points.z; ++k) {
        for (int j = 0; j < grid.points.y; ++j) {
            for (int i = 0; i < grid.points.x; ++i) {
                const glm::vec3 x = grid.Position(i, j, k);
                if (glm::dot(x, x) > r2) continue;
                gridPoints.push_back(x);
                gridVelocity.push_back(all[grid.Index(i, j, k)]);
            }
        }
    }
    std::vector<glm::vec3> gridDirect(gridPoints.size());
    DirectVelocity(c.Sources(), VelocityQuery{gridPoints, gridDirect, {}, {}});

    std::vector<glm::vec3> between;
    for (const glm::vec3& x : c.position) {
        const glm::vec3 y = x + 0.5f * c.h;
        if (glm::dot(y, y) < r2) between.push_back(y);
    }
    std::vector<glm::vec3> bd(between.size()), bg(between.size());
    DirectVelocity(c.Sources(), VelocityQuery{between, bd, {}, {}});
    solver.Evaluate(VelocityQuery{between, bg, {}, {}});
    return {test::RelativeRms(vg, vd), test::RelativeRms(sg, sd),
            test::RelativeRms(gridVelocity, gridDirect), test::RelativeRms(bg, bd)};
}

TEST(GridSolver, MatchesDirectSummation) {
    // docs/METHOD.md §8: ≤ 1 % relative RMS velocity error at default settings. With
    // M4′ at H = h (σ = 1.5 h) measured 0.25 % at the vortons, 0.22 % at the
    // grid points, 0.30 % between the vortons (GridSurvey has the table).
    const Cloud cloud = SmoothBall(9.0f, 1);
    const Errors e = Measure(cloud, kDefaultCellOverSpacing, GridStencil::kM4Prime);
    test::Measured("vortons", double(cloud.position.size()));
    test::Measured("velocity_rms_error_at_vortons", e.atVortons);
    test::Measured("velocity_rms_error_at_grid_points", e.atGridPoints);
    test::Measured("velocity_rms_error_between_vortons", e.betweenVortons);
    test::Measured("stretch_rms_error_at_vortons", e.stretch);
    EXPECT_LE(e.atVortons, 0.01);
    EXPECT_LE(e.atGridPoints, 0.01);
    EXPECT_LE(e.betweenVortons, 0.01);
}

TEST(GridSolver, Stretching) {
    // (∇v)ᵀω from the grid's velocity gradient (fourth-order differences)
    // interpolated with M4′: measured 1.1 % at H = h, about 5× the velocity's
    // error since the gradient varies faster. The 3 % bound leaves room for
    // other vorticity fields and is a third of the treecode's accepted 10 %;
    // the classical form (ω·∇)v measured 130 % here, so the form is checked.
    // The error must fall as the stencil's H³ (measured order 2.9).
    const Cloud cloud = SmoothBall(9.0f, 2);
    const double coarse =
        Measure(cloud, kDefaultCellOverSpacing, GridStencil::kM4Prime, false).stretch;
    const double fine =
        Measure(cloud, 0.5f * kDefaultCellOverSpacing, GridStencil::kM4Prime, false).stretch;
    const double order = std::log(coarse / fine) / std::log(2.0);
    test::Measured("stretch_rms_error_at_vortons", coarse);
    test::Measured("stretch_rms_error_at_vortons_half_cell", fine);
    test::Measured("stretch_convergence_order", order);
    EXPECT_LE(coarse, 0.03);
    EXPECT_GT(order, 2.5);
}

TEST(GridSolver, DyeDropAfterTwentySteps) {
    // The scene's own vortons once the flow has rolled up (vorticity in a thin
    // shell, strong cancellation between its halves), as Treecode's test:
    // measured 0.33 % for the velocity and 0.86 % for the stretching.
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 2000;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 20).ok);
    const Vortons& v = sim.GetVortons();
    const std::size_t n = v.Size();
    Cloud c;
    c.h = v.radius[0] / setup.params.coreOverlap;
    c.position = v.position;
    c.vorticity = v.vorticity;
    for (std::size_t k = 0; k < n; ++k) {
        c.alpha.push_back(v.vorticity[k] * v.volume[k]);
        c.sigma2.push_back(v.radius[k] * v.radius[k]);
    }
    const Errors e = Measure(c, kDefaultCellOverSpacing, GridStencil::kM4Prime, false);
    test::Measured("vortons", double(n));
    test::Measured("velocity_rms_error_at_vortons", e.atVortons);
    test::Measured("stretch_rms_error_at_vortons", e.stretch);
    EXPECT_LE(e.atVortons, 0.01);
    EXPECT_LE(e.stretch, 0.03);
}

/// Grid velocity, velocity and stretching at the vortons, hashed.
std::uint64_t SolveHash(GridSolver& solver, const GridGeometry& grid, const Cloud& cloud) {
    const std::size_t n = cloud.position.size();
    std::vector<glm::vec3> v(n), s(n);
    solver.Solve(grid, cloud.Sources());
    solver.Evaluate(VelocityQuery{cloud.position, v, cloud.vorticity, s});
    const std::vector<glm::vec3> onGrid(solver.GridVelocity().begin(), solver.GridVelocity().end());
    return test::HashVector(s, test::HashVector(v, test::HashVector(onGrid)));
}

TEST(GridSolver, BitwiseIdenticalForAnyThreadCount) {
    const Cloud cloud = SmoothBall(9.0f, 3);
    const GridGeometry grid = GridFor(cloud, kDefaultCellOverSpacing);
    std::uint64_t hashes[3];
    const int threads[3] = {1, 2, 4};
    for (int t = 0; t < 3; ++t) {
        tbb::task_arena arena(threads[t]);
        arena.execute([&] {
            GridSolver solver;
            hashes[t] = SolveHash(solver, grid, cloud);
        });
    }
    EXPECT_EQ(hashes[0], hashes[1]);
    EXPECT_EQ(hashes[0], hashes[2]);
}

TEST(GridSolver, ReusedSolverMatchesFreshOne) {
    // Plans, buffers and the kernel's transform are cached by size, spacing
    // and σ²: a solver that has solved other problems in between must give
    // exactly what a new one gives.
    const Cloud small = SmoothBall(6.0f, 5), large = SmoothBall(9.0f, 6);
    Cloud otherCore = small;
    for (float& s2 : otherCore.sigma2) s2 *= 1.5f;
    const GridGeometry smallGrid = GridFor(small, kDefaultCellOverSpacing);
    GridSolver fresh, reused;
    const std::uint64_t expected = SolveHash(fresh, smallGrid, small);
    SolveHash(reused, GridFor(large, kDefaultCellOverSpacing), large);
    SolveHash(reused, smallGrid, otherCore);
    SolveHash(reused, GridFor(small, 0.8f), small);
    // Now from the cache of earlier transforms.
    EXPECT_EQ(SolveHash(reused, smallGrid, small), expected);
    // After more keys than the cache keeps (small's dropped, and its plans
    // reused for other sizes), computed again: the same bits.
    const GridGeometry largeGrid = GridFor(large, kDefaultCellOverSpacing);
    GridSolver freshLarge;
    const std::uint64_t largeExpected = SolveHash(freshLarge, largeGrid, large);
    for (std::size_t k = 0; k <= GridKernelStore::kMaxEntries; ++k) {
        SolveHash(reused, GridFor(small, 0.7f + 0.05f * float(k)), small);
        if (k == 2) {
            EXPECT_EQ(SolveHash(reused, largeGrid, large), largeExpected);
        }
    }
    EXPECT_EQ(SolveHash(reused, smallGrid, small), expected);
}

TEST(GridSolver, SolversGivenOneStoreShareOneKernelTransformPerKey) {
    // A simulation's predictor and corrector solvers (and each group's) ask
    // for the same (padded size, spacing, σ²) as a wake's box grows: given one
    // store, the second takes the first's transform from it instead of
    // computing it again (five balls' 1-2 million point grids: 300-850 ms a
    // transform, stop 98), and solves to the same bits as a solver alone.
    // Solvers not given a store keep their own.
    const Cloud cloud = SmoothBall(7.0f, 5), other = SmoothBall(9.0f, 6);
    const GridGeometry grid = GridFor(cloud, kDefaultCellOverSpacing);
    const auto store = std::make_shared<GridKernelStore>();
    GridSolver alone, first, second, third;
    for (GridSolver* s : {&first, &second, &third}) s->UseKernelStore(store);
    const std::uint64_t expected = SolveHash(alone, grid, cloud);
    EXPECT_EQ(SolveHash(first, grid, cloud), expected);
    EXPECT_EQ(SolveHash(second, grid, cloud), expected);
    EXPECT_TRUE(second.SharesKernelWith(first));
    EXPECT_FALSE(first.SharesKernelWith(alone));
    // Another key is another transform.
    SolveHash(third, GridFor(other, kDefaultCellOverSpacing), other);
    EXPECT_FALSE(third.SharesKernelWith(first));
}

TEST(GridSolver, KeepsAQuarterOfTheKernelSpectrum) {
    // The sampled K_c is odd along c and even along the other axes, so its
    // transform is too: the store keeps only y wavenumbers ≤ N.y/2 and z
    // wavenumbers ≤ N.z/2 of G_c (x has N.x/2 + 1 already) and the z pass
    // reads the rest from the mirror. A 2²¹-point grid's transform is 27 MB
    // instead of 107 MB. The solves themselves are checked against the direct
    // sum by the tests above; this holds the memory to the octant.
    const Cloud cloud = SmoothBall(7.0f, 5);
    const GridGeometry grid = GridFor(cloud, kDefaultCellOverSpacing);
    const auto store = std::make_shared<GridKernelStore>();
    GridSolver solver;
    solver.UseKernelStore(store);
    SolveHash(solver, grid, cloud);
    const glm::ivec3 N = solver.PaddedSize();
    const std::size_t lanes = std::size_t((N.x / 2 + 1 + 7) / 8) * 8;  // whole batches of 8 x wavenumbers
    const std::size_t octant = lanes * std::size_t(N.y / 2 + 1) * std::size_t(N.z / 2 + 1) * 3 * sizeof(float);
    const std::size_t full = lanes * std::size_t(N.y) * std::size_t(N.z) * 3 * sizeof(float);
    EXPECT_EQ(store->Bytes(), octant);
    EXPECT_LT(double(store->Bytes()), 0.3 * double(full)) << N.x << "x" << N.y << "x" << N.z;
}

TEST(GridSolver, PaddedLengthsAreFftwLengthsWithinTwiceTheMinimum) {
    // Any padded length ≥ 2n − 1 keeps the free-space convolution exact
    // (Hockney & Eastwood); GridFftSize may pick a longer one where FFTW runs
    // faster, but it must be a length FFTW has codelets for (even,
    // 2^a 3^b 5^c 7^d), at least the minimum, at most twice it (memory), and
    // the smallest such length where the table has nothing in that range.
    for (const FftLine line : {FftLine::kRealToComplex, FftLine::kComplex}) {
        for (int minimum = 1; minimum <= 1200; ++minimum) {
            const int n = GridFftSize(minimum, line);
            ASSERT_GE(n, minimum);
            ASSERT_EQ(n % 2, 0) << minimum;
            int m = n;
            for (int p : {2, 3, 5, 7}) {
                while (m % p == 0) m /= p;
            }
            ASSERT_EQ(m, 1) << n << " for " << minimum;
            if (minimum >= 16 && minimum <= 400) {
                ASSERT_LE(n, 2 * minimum);  // the table runs 16–800
            }
            if (minimum > 800) {
                ASSERT_EQ(n, FftSize(minimum));
            }
        }
    }
}

TEST(GridSolver, SingleVortonFarField) {
    // One vorton off the grid points. Near it the grid must give the
    // regularised kernel of biot_savart.h; far away that kernel tends to the
    // singular one, v → (1/4π) α × r/|r|³ (docs/METHOD.md §8), which at 28 h differs
    // from it by (1 + σ²/r²)^{−3/2} − 1 = −0.43 %. Right-hand rule: α = +z at
    // the origin gives +y at +x.
    const float h = 0.01f, sigma2 = 2.25f * h * h;
    const glm::vec3 at(0.0013f, -0.0007f, 0.0004f);
    const glm::vec3 alpha(0.0f, 0.0f, 1.0e-6f);
    const std::vector<glm::vec3> position{at}, strength{alpha};
    const std::vector<float> sigma2s{sigma2};
    const float reach = 30.0f * h;
    GridGeometry grid;
    grid.spacing = glm::vec3(kDefaultCellOverSpacing * h);
    grid.points = glm::ivec3(int(2.0f * reach / grid.spacing.x) + 1);
    grid.origin = glm::vec3(-reach);
    GridSolver solver;
    solver.Solve(grid, VortonSources{position, strength, sigma2s});
    const glm::vec3 directions[] = {glm::vec3(1, 0, 0), glm::vec3(0, -1, 0),
                                    glm::vec3(0.6f, 0.0f, 0.8f),
                                    glm::normalize(glm::vec3(-1, 1, 0.5f))};
    double nearCore = 0.0, worstRegularised = 0.0, worstSingular = 0.0;
    for (const float d : {2.0f * h, 5.0f * h, 10.0f * h, 20.0f * h, 28.0f * h}) {
        for (const glm::vec3 dir : directions) {
            const glm::vec3 r = d * dir;
            const std::vector<glm::vec3> point{at + r};
            std::vector<glm::vec3> v(1);
            solver.Evaluate(VelocityQuery{point, v, {}, {}});
            glm::vec3 regularised(0.0f), unused(0.0f);
            AccumulateVorton<false>(r, alpha, sigma2, glm::vec3(0.0f), &regularised, &unused);
            regularised *= kOneOverFourPi;
            const double error = glm::length(v[0] - regularised) / glm::length(regularised);
            if (d < 3.0f * h) {
                nearCore = std::max(nearCore, error);
            } else {
                worstRegularised = std::max(worstRegularised, error);
            }
            if (d > 25.0f * h) {
                const glm::vec3 singular = kOneOverFourPi * glm::cross(alpha, r) / (d * d * d);
                worstSingular = std::max(
                    worstSingular, double(glm::length(v[0] - singular) / glm::length(singular)));
            }
            if (dir.x == 1.0f) {
                EXPECT_GT(v[0].y, 0.0f) << "right-hand rule at +x, d = " << d;
            }
        }
    }
    test::Measured("worst_error_vs_regularised_kernel_2h", nearCore);
    test::Measured("worst_error_vs_regularised_kernel_5h_to_28h", worstRegularised);
    test::Measured("worst_error_vs_singular_kernel_28h", worstSingular);
    EXPECT_LT(worstRegularised, 0.01);
    EXPECT_LT(worstSingular, 0.01);
    // A lone vorton is the hardest case for the stencils: its field varies on
    // σ = 1.5 H with no neighbours to smooth it (measured 3.3 % at 2 h on the
    // diagonal, 0.4 % at 5 h; a ball of vortons gives 0.25 %).
    EXPECT_LT(nearCore, 0.05);
}

TEST(GridSolver, GridSurvey) {
    if (!std::getenv("VORTON_GRID_SURVEY")) GTEST_SKIP() << "set VORTON_GRID_SURVEY=1";
    const Cloud cloud = SmoothBall(9.0f, 1);
    std::printf("vortons %zu, sigma = 1.5 h\n", cloud.position.size());
    std::printf("stencil  H/h   at_vortons  at_grid  between  stretch\n");
    for (const GridStencil stencil : {GridStencil::kM4Prime, GridStencil::kCloudInCell}) {
        for (const float ratio : {0.5f, 2.0f / 3.0f, 0.75f, 1.0f, 1.25f, 1.5f, 2.0f}) {
            const Errors e = Measure(cloud, ratio, stencil);
            std::printf("%-7s %5.3f  %8.3f %%  %6.3f %%  %6.3f %%  %6.3f %%\n",
                        stencil == GridStencil::kM4Prime ? "M4'" : "CIC", ratio, 100 * e.atVortons,
                        100 * e.atGridPoints, 100 * e.betweenVortons, 100 * e.stretch);
        }
    }
}

TEST(GridSolver, Timing) {
    if (!std::getenv("VORTON_GRID_TIMING")) GTEST_SKIP() << "set VORTON_GRID_TIMING=1";
    struct Case {
        float radius;  // ball radius in h: 15.6 h holds about 16,000 vortons, 24.8 h about 64,000
        GridStencil stencil;
        float ratio;  // H/h
    };
    // CIC at H = h/2 is the cheapest CIC grid that meets 1 % (GridSurvey).
    const Case cases[] = {{15.6f, GridStencil::kM4Prime, kDefaultCellOverSpacing},
                          {15.6f, GridStencil::kCloudInCell, 0.5f},
                          {24.8f, GridStencil::kM4Prime, kDefaultCellOverSpacing}};
    for (const Case& c : cases) {
        const Cloud cloud = SmoothBall(c.radius, 4);
        const std::size_t n = cloud.position.size();
        const GridGeometry grid = GridFor(cloud, c.ratio);
        for (const int threads : {1, 2}) {
            tbb::task_arena arena(threads);
            std::vector<glm::vec3> v(n), s(n);
            GridSolver solver(c.stencil);
            double firstMs = 0.0, solveMs = 1e30, evaluateMs = 1e30;
            arena.execute([&] {
                for (int rep = 0; rep < 6; ++rep) {
                    const auto t0 = std::chrono::steady_clock::now();
                    solver.Solve(grid, cloud.Sources());
                    const auto t1 = std::chrono::steady_clock::now();
                    solver.Evaluate(VelocityQuery{cloud.position, v, cloud.vorticity, s});
                    const auto t2 = std::chrono::steady_clock::now();
                    if (rep == 0) {  // plans and the kernel's transform
                        firstMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
                        continue;
                    }
                    solveMs = std::min(solveMs,
                                       std::chrono::duration<double, std::milli>(t1 - t0).count());
                    evaluateMs = std::min(
                        evaluateMs, std::chrono::duration<double, std::milli>(t2 - t1).count());
                }
            });
            std::printf(
                "%s H/h %.2f vortons %zu grid %dx%dx%d padded %dx%dx%d threads %d: first solve "
                "%.1f ms, solve "
                "%.2f ms, evaluate with stretching %.2f ms\n",
                c.stencil == GridStencil::kM4Prime ? "M4'" : "CIC", c.ratio, n, grid.points.x,
                grid.points.y, grid.points.z, solver.PaddedSize().x, solver.PaddedSize().y,
                solver.PaddedSize().z, threads, firstMs, solveMs, evaluateMs);
        }
    }
}

// --- One grid per group of vortons (SolverSettings::clusterCell, issue 10) ---

/// Two balls of vortons 80 h apart along z: `a` (radius 9 h) at the
/// origin, `b` (radius 7 h) above it, its vorticity scaled by `bScale`.
/// `a`'s vortons come first.
constexpr float kLowerRadius = 9.0f, kUpperRadius = 7.0f, kApart = 80.0f;
Cloud TwoBalls(float bScale) {
    Cloud a = SmoothBall(kLowerRadius, 11), b = SmoothBall(kUpperRadius, 12);
    const glm::vec3 shift(0.0f, 0.0f, kApart * a.h);
    for (std::size_t k = 0; k < b.position.size(); ++k) {
        a.position.push_back(b.position[k] + shift);
        a.vorticity.push_back(b.vorticity[k] * bScale);
        a.alpha.push_back(b.alpha[k] * bScale);
        a.sigma2.push_back(b.sigma2[k]);
    }
    return a;
}

TEST(GridSolverGroups, SplitsAtEmptySpaceOnly) {
    const Cloud one = SmoothBall(kLowerRadius, 11);
    const Cloud two = TwoBalls(1.0f);
    const float h = two.h;
    const std::vector<VortonCluster> whole = SplitIntoClusters(one.position, h, 2.5f * h);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0].members.size(), one.position.size());
    const std::vector<VortonCluster> groups = SplitIntoClusters(two.position, h, 2.5f * h);
    ASSERT_EQ(groups.size(), 2u);
    // The lower ball first, each group exactly its ball's vortons, in order.
    ASSERT_EQ(groups[0].members.size(), one.position.size());
    ASSERT_EQ(groups[1].members.size(), two.position.size() - one.position.size());
    for (std::size_t i = 0; i < groups[0].members.size(); ++i) EXPECT_EQ(groups[0].members[i], i);
    for (std::size_t i = 0; i < groups[1].members.size(); ++i) {
        EXPECT_EQ(groups[1].members[i], one.position.size() + i);
    }
    // A cut must pay: at most half the points of the one grid.
    const std::size_t split = GridPointCount(groups[0].box, h, 2.5f * h) + GridPointCount(groups[1].box, h, 2.5f * h);
    EXPECT_LE(2 * split, GridPointCount(BoundsOf(two.position), h, 2.5f * h));
    // Closer than a cut pays (5 h of gap against 2 × 2.5 h of margins): one group.
    Cloud close = TwoBalls(1.0f);
    const float down = (kApart - kLowerRadius - kUpperRadius - 5.0f) * h;
    for (std::size_t k = one.position.size(); k < close.position.size(); ++k) close.position[k].z -= down;
    EXPECT_EQ(SplitIntoClusters(close.position, h, 2.5f * h).size(), 1u);
}

TEST(GridSolverGroups, ARowOfBallsSplitsThoughNoOneCutHalvesTheGrid) {
    // Three balls (radius 7 h) 80 h apart along z, as five balls' wakes 10-30 m
    // apart along 70 m (stop 103): a cut at the first gap leaves the lower
    // ball's grid and the upper two balls', 67 % of the points together, so no
    // one cut halves the grid; the upper two's own grids halve theirs, and the
    // three balls' grids hold 35 % of the whole. Then three groups, each one
    // ball's vortons in order (before stop 103: one group, so Auto's treecode
    // or a grid 2.9 times the groups').
    const Cloud ball = SmoothBall(kUpperRadius, 12);
    const float h = ball.h;
    const std::size_t m = ball.position.size();
    std::vector<glm::vec3> row;
    for (int b = 0; b < 3; ++b) {
        for (const glm::vec3& x : ball.position) row.push_back(x + glm::vec3(0.0f, 0.0f, 80.0f * float(b) * h));
    }
    const float margin = 2.5f * h;
    const std::size_t whole = GridPointCount(BoundsOf(row), h, margin);
    const std::size_t one = GridPointCount(BoundsOf(ball.position), h, margin);
    const std::size_t upperTwo = GridPointCount(BoundsOf(std::span(row).subspan(m)), h, margin);
    ASSERT_GT(2 * (one + upperTwo), whole);  // the first cut alone does not halve
    ASSERT_LE(2 * 3 * one, whole);           // the three balls' grids do
    const std::vector<VortonCluster> groups = SplitIntoClusters(row, h, margin);
    ASSERT_EQ(groups.size(), 3u);
    for (std::size_t g = 0; g < 3; ++g) {
        ASSERT_EQ(groups[g].members.size(), m);
        for (std::size_t i = 0; i < m; ++i) EXPECT_EQ(groups[g].members[i], g * m + i);
    }
    // With room for two groups only, no split halves: one group.
    EXPECT_EQ(SplitIntoClusters(row, h, margin, 2).size(), 1u);
}

/// Relative RMS errors against DirectVelocity of the grid solver split into
/// groups: velocity and stretching at the vortons, velocity at points off
/// every grid (between the balls). Also the grid points solved.
struct GroupErrors {
    double atVortons, stretch, offGrid;
    std::size_t gridPoints;
};

GroupErrors MeasureGroups(const Cloud& c, std::span<const glm::vec3> elsewhere) {
    std::unique_ptr<VelocitySolver> solver = MakeVelocitySolver(Solver::Grid);
    const GridGeometry unused = GridFor(c, kDefaultCellOverSpacing);
    solver->Load(c.Sources(), unused, SolverSettings{0.6f, 16, c.h, nullptr}, true);
    const std::size_t n = c.position.size();
    std::vector<glm::vec3> vd(n), sd(n), vg(n), sg(n);
    DirectVelocity(c.Sources(), VelocityQuery{c.position, vd, c.vorticity, sd});
    solver->EvaluateAtSources(c.vorticity, vg, sg);
    std::vector<glm::vec3> ed(elsewhere.size()), eg(elsewhere.size());
    DirectVelocity(c.Sources(), VelocityQuery{elsewhere, ed, {}, {}});
    solver->Evaluate(elsewhere, eg);
    EXPECT_TRUE(solver->GridVelocity().empty());
    return {test::RelativeRms(vg, vd), test::RelativeRms(sg, sd), test::RelativeRms(eg, ed), solver->SolvedGridPoints()};
}

TEST(GridSolverGroups, MatchesDirectSummation) {
    // docs/METHOD.md §8: ≤ 1 % relative RMS velocity error, 3 % for the
    // stretching (as for one grid, GridSolver.Stretching); measured 0.38 % and
    // 1.8 %, against 0.36 % and 1.7 % for one grid over both balls. Points on
    // a line between the balls are off both grids: they get the two trees,
    // with the treecode's accuracy at θ = 0.6 (≤ 6 %, Treecode tests;
    // measured 2.2 %, these points being as near as 11 h to a ball's edge).
    const Cloud two = TwoBalls(1.0f);
    std::vector<glm::vec3> between;
    for (int i = 0; i <= 40; ++i) between.push_back(glm::vec3(0.02f, -0.01f, (20.0f + float(i)) * two.h));
    const GroupErrors e = MeasureGroups(two, between);
    const std::size_t oneGrid = GridFor(two, kDefaultCellOverSpacing).PointCount();
    const Errors single = Measure(two, kDefaultCellOverSpacing, GridStencil::kM4Prime, false);
    test::Measured("one_grid_velocity_rms_error_at_vortons", single.atVortons);
    test::Measured("one_grid_stretch_rms_error_at_vortons", single.stretch);
    test::Measured("velocity_rms_error_at_vortons", e.atVortons);
    test::Measured("stretch_rms_error_at_vortons", e.stretch);
    test::Measured("velocity_rms_error_between_groups", e.offGrid);
    test::Measured("grid_points_split", double(e.gridPoints));
    test::Measured("grid_points_one_grid", double(oneGrid));
    EXPECT_LE(e.atVortons, 0.01);
    EXPECT_LE(e.stretch, 0.03);
    EXPECT_LE(e.offGrid, 0.06);
    EXPECT_LT(2 * e.gridPoints, oneGrid);

    // What a group induces at the other's vortons: the upper ball carries
    // nothing, so all of the velocity there is the lower ball's, through its
    // treecode alone (the upper grid solves zeros): ≤ 1 % 62 h from the
    // lower ball's centre (measured 0.41 %).
    const Cloud silent = TwoBalls(0.0f);
    const std::size_t lower = SmoothBall(kLowerRadius, 11).position.size();
    std::vector<glm::vec3> upper(silent.position.begin() + std::ptrdiff_t(lower), silent.position.end());
    const GroupErrors f = MeasureGroups(silent, upper);
    test::Measured("velocity_rms_error_from_the_other_group", f.offGrid);
    EXPECT_LE(f.offGrid, 0.01);

    // Asked to split vortons that lie in one group: one grid, and the
    // group's treecode (built when first needed) at points off it.
    const Cloud one = SmoothBall(kLowerRadius, 11);
    std::vector<glm::vec3> off;
    for (int i = 0; i <= 10; ++i) off.push_back(glm::vec3(0.01f, 0.0f, (12.0f + 3.0f * float(i)) * one.h));
    const GroupErrors g = MeasureGroups(one, off);
    test::Measured("one_group_velocity_rms_error_at_vortons", g.atVortons);
    test::Measured("one_group_velocity_rms_error_off_its_grid", g.offGrid);
    EXPECT_LE(g.atVortons, 0.01);
    EXPECT_LE(g.offGrid, 0.06);
}

TEST(GridSolverGroups, GroupsPastTheirBoundsGoToTheTreecode) {
    // Auto splits the vortons at a step's start; a load gets them after a
    // substep or the remesh has moved them, and their groups can then differ
    // (five balls at 30 s: one grid of 14 million points, stop 103). Groups
    // whose grids pass SolverSettings' bounds are solved by the treecode over
    // all the vortons for that load: no grid points, and the treecode's own
    // velocities bit for bit (the same tree over the same sources).
    const Cloud two = TwoBalls(1.0f);
    const std::size_t n = two.position.size();
    const float h = two.h;
    const std::vector<VortonCluster> groups = SplitIntoClusters(two.position, h, 2.5f * h);
    ASSERT_EQ(groups.size(), 2u);
    const std::size_t lower = GridPointCount(groups[0].box, h, 2.5f * h);
    const std::size_t upper = GridPointCount(groups[1].box, h, 2.5f * h);
    const std::size_t largest = std::max(lower, upper), sum = lower + upper;
    // GroupGridsFit: each group's grid against the first bound, all of them against the second.
    EXPECT_TRUE(GroupGridsFit(groups, h, 2.5f * h, largest, sum));
    EXPECT_FALSE(GroupGridsFit(groups, h, 2.5f * h, largest - 1, sum));
    EXPECT_FALSE(GroupGridsFit(groups, h, 2.5f * h, largest, sum - 1));
    EXPECT_FALSE(GroupGridsFit({}, h, 2.5f * h, largest, sum));

    std::vector<glm::vec3> elsewhere;
    for (int i = 0; i <= 40; ++i) elsewhere.push_back(glm::vec3(0.0f, 0.0f, (-10.0f + float(i)) * h));
    std::unique_ptr<VelocitySolver> tree = MakeVelocitySolver(Solver::Tree);
    tree->Load(two.Sources(), GridFor(two, kDefaultCellOverSpacing), SolverSettings{0.6f, 16, 0.0f, nullptr}, true);
    std::vector<glm::vec3> vt(n), st(n), et(elsewhere.size());
    tree->EvaluateAtSources(two.vorticity, vt, st);
    tree->Evaluate(elsewhere, et);
    const std::pair<std::size_t, std::size_t> bounds[] = {{largest - 1, sum}, {largest, sum - 1}, {largest, sum}};
    for (const auto& [each, total] : bounds) {
        SolverSettings settings{0.6f, 16, h, nullptr};
        settings.clusterGridPoints = each;
        settings.clusterTotalPoints = total;
        std::unique_ptr<VelocitySolver> solver = MakeVelocitySolver(Solver::Grid);
        solver->Load(two.Sources(), GridFor(two, kDefaultCellOverSpacing), settings, true);
        std::vector<glm::vec3> v(n), s(n), e(elsewhere.size());
        solver->EvaluateAtSources(two.vorticity, v, s);
        solver->Evaluate(elsewhere, e);
        EXPECT_TRUE(solver->GridVelocity().empty());
        const bool fits = each == largest && total == sum;
        EXPECT_EQ(solver->SolvedGridPoints(), fits ? sum : 0u) << each << " " << total;
        const std::uint64_t got = test::HashVector(e, test::HashVector(s, test::HashVector(v)));
        const std::uint64_t treecode = test::HashVector(et, test::HashVector(st, test::HashVector(vt)));
        if (fits) {
            EXPECT_NE(got, treecode);
        } else {
            EXPECT_EQ(got, treecode) << each << " " << total;
        }
    }
}

TEST(GridSolverGroups, BitwiseIdenticalForAnyThreadCount) {
    const Cloud two = TwoBalls(1.0f);
    const std::size_t n = two.position.size();
    std::vector<glm::vec3> elsewhere;
    for (int i = 0; i <= 40; ++i) elsewhere.push_back(glm::vec3(0.0f, 0.0f, (-10.0f + float(i)) * two.h));
    std::uint64_t hashes[3];
    const int threads[3] = {1, 2, 4};
    for (int t = 0; t < 3; ++t) {
        tbb::task_arena arena(threads[t]);
        arena.execute([&] {
            std::unique_ptr<VelocitySolver> solver = MakeVelocitySolver(Solver::Grid);
            solver->Load(two.Sources(), GridFor(two, kDefaultCellOverSpacing), SolverSettings{0.6f, 16, two.h, nullptr}, true);
            std::vector<glm::vec3> v(n), s(n), e(elsewhere.size());
            solver->EvaluateAtSources(two.vorticity, v, s);
            solver->Evaluate(elsewhere, e);
            hashes[t] = test::HashVector(e, test::HashVector(s, test::HashVector(v)));
        });
    }
    EXPECT_EQ(hashes[0], hashes[1]);
    EXPECT_EQ(hashes[0], hashes[2]);
}

}  // namespace
}  // namespace vorton
