// The dye volume on the CPU (no GL): splatting tracers into concentration, its conservation and
// determinism, the grid's fit, and the light and sky sweeps through it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <tbb/task_arena.h>

#include "render/dye_lighting.h"
#include "render/dye_volume.h"

namespace vorton {
namespace {

using render::DyeLighting;
using render::DyeOptics;
using render::DyeVolume;
using render::VolumeGrid;

/// Tracers on a cubic lattice of spacing `a` filling [lo, hi], each moved by up to 0.3 a.
std::vector<glm::vec3> Lattice(glm::vec3 lo, glm::vec3 hi, float a, unsigned seed = 1) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> jitter(-0.3f * a, 0.3f * a);
    std::vector<glm::vec3> points;
    for (float z = lo.z + 0.5f * a; z < hi.z; z += a) {
        for (float y = lo.y + 0.5f * a; y < hi.y; y += a) {
            for (float x = lo.x + 0.5f * a; x < hi.x; x += a) {
                points.emplace_back(x + jitter(random), y + jitter(random), z + jitter(random));
            }
        }
    }
    return points;
}

/// The voxel holding world point p (clamped into the grid, with a test failure if outside).
glm::ivec3 VoxelAt(const VolumeGrid& g, glm::vec3 p) {
    const glm::ivec3 v(glm::floor((p - g.origin) / g.spacing));
    const bool inside = glm::all(glm::greaterThanEqual(v, glm::ivec3(0))) && glm::all(glm::lessThan(v, g.size));
    EXPECT_TRUE(inside) << p.x << "," << p.y << "," << p.z << " is outside the grid";
    return glm::clamp(v, glm::ivec3(0), g.size - 1);
}

/// A sparse sheet of tracers (5 cm apart over 1 m square) at height z, so the grid reaches
/// there; its own dye is too thin to matter (optical depth ~0.01).
void AddSheet(std::vector<glm::vec3>& tracers, float z) {
    for (float y = -0.5f; y < 0.5f; y += 0.05f) {
        for (float x = -0.5f; x < 0.5f; x += 0.05f) tracers.emplace_back(x, y, z);
    }
}

glm::vec4 Voxel(const DyeVolume& dye, glm::ivec3 v) {
    const VolumeGrid& g = dye.Grid();
    return dye.Voxels()[(std::size_t(v.z) * g.size.y + v.y) * g.size.x + v.x];
}

DyeVolume::Settings WithTracerVolume(float volume) {
    DyeVolume::Settings s;
    s.tracerVolume = volume;
    return s;
}

TEST(DyeVolume, DyeAsDenseAsSeededHasConcentrationOne) {
    // A 0.4 m cube of tracers 1 cm apart, each standing for 1 cm^3: concentration 1 inside. The
    // jitter and the trilinear splat leave a few per cent of noise; 8 % is four times that.
    const float a = 0.01f;
    const auto tracers = Lattice(glm::vec3(-0.2f), glm::vec3(0.2f), a);
    DyeVolume dye;
    dye.Build(tracers, {}, {}, WithTracerVolume(a * a * a));
    ASSERT_FALSE(dye.Grid().Empty());
    for (const glm::vec3 p : {glm::vec3(0.0f), glm::vec3(0.1f, -0.05f, 0.08f), glm::vec3(-0.12f, 0.1f, -0.1f)}) {
        const glm::vec4 v = Voxel(dye, VoxelAt(dye.Grid(), p));
        EXPECT_NEAR(v.a, 1.0f, 0.08f) << p.x << "," << p.y << "," << p.z;
        EXPECT_FLOAT_EQ(v.r, v.a) << "white dye: colour-weighted concentration equals concentration";
    }
    // Outside the cube (beyond the blur's reach) there is none.
    EXPECT_EQ(Voxel(dye, glm::ivec3(0)).a, 0.0f);
}

TEST(DyeVolume, DyeIsConserved) {
    // Every tracer inside the box adds tracerVolume / h^3 to the voxels, spread but not lost: a
    // block of dye holds N tracer volumes (up to float rounding over ~10^6 additions).
    const float a = 0.01f;
    const auto block = Lattice({-0.2f, -0.1f, -0.05f}, {0.2f, 0.1f, 0.05f}, a);
    DyeVolume dye;
    dye.Build(block, {}, {}, WithTracerVolume(a * a * a));
    auto total = [&] {
        double sum = 0.0;
        for (const glm::vec4& v : dye.Voxels()) sum += v.a;
        return sum * double(dye.Grid().spacing) * dye.Grid().spacing * dye.Grid().spacing;
    };
    EXPECT_NEAR(total(), double(block.size()) * a * a * a, 1e-4 * double(block.size()) * a * a * a);

    // A Gaussian cloud: its scattered outskirts are spread wider, without loss except where that
    // reaches the grid's faces; and the 0.1st-99.9th percentile box drops a few far strays (at
    // most 0.6 %). 1 % allows for both.
    std::mt19937 random(5);
    std::normal_distribution<float> spread(0.0f, 0.1f);
    std::vector<glm::vec3> cloud(50000);
    for (auto& p : cloud) p = {spread(random), spread(random), 0.3f * spread(random)};
    const float volume = 2e-7f;
    dye.Build(cloud, {}, {}, WithTracerVolume(volume));
    EXPECT_NEAR(total(), 50000.0 * volume, 0.01 * 50000.0 * volume);
}

TEST(DyeVolume, ScatteredDyeFadesOutAtTheGridsFaces) {
    // A block of dye with a thin, sparse layer of tracers 10 cm above it (dye_drop's ring at
    // 10 s has one): the layer holds the 99.9th percentile of z that bounds the grid, and its
    // haze reaches the grid's top face. It must thin out towards the face, not stop there: a
    // flat, bright face where a ray grazes it. The top voxel layer holds under 10 % of the
    // haze's densest layer (with the fade over the padding 0.4 %; without it, 15 %).
    const float a = 0.01f;
    std::vector<glm::vec3> tracers = Lattice(glm::vec3(-0.2f), glm::vec3(0.2f), a);
    std::mt19937 random(3);
    std::uniform_real_distribution<float> across(-0.2f, 0.2f), above(0.3f, 0.31f);
    for (int i = 0; i < 300; ++i) tracers.emplace_back(across(random), across(random), above(random));
    DyeVolume dye;
    dye.Build(tracers, {}, {}, WithTracerVolume(a * a * a));
    const VolumeGrid& g = dye.Grid();
    ASSERT_FALSE(g.Empty());
    // Mean concentration over the z-layer k, within the block's x and y.
    auto layer = [&](int k) {
        double sum = 0.0;
        int count = 0;
        for (int j = 0; j < g.size.y; ++j) {
            for (int i = 0; i < g.size.x; ++i) {
                const glm::vec3 centre = g.origin + (glm::vec3(i, j, k) + 0.5f) * g.spacing;
                if (std::abs(centre.x) > 0.18f || std::abs(centre.y) > 0.18f) continue;
                sum += Voxel(dye, {i, j, k}).a;
                ++count;
            }
        }
        return sum / count;
    };
    // The haze's densest layer: above the block and its blurred edge (3 voxels).
    const int firstAbove = int(std::ceil((0.2f - g.origin.z) / g.spacing)) + 3;
    ASSERT_LT(firstAbove, g.size.z - 1);
    double haze = 0.0;
    for (int k = firstAbove; k < g.size.z; ++k) haze = std::max(haze, layer(k));
    ASSERT_GT(haze, 0.0);
    EXPECT_LT(layer(g.size.z - 1), 0.1 * haze);
}

TEST(DyeVolume, ColoursMixInProportionToTheirDye) {
    // Red tracers in x < 0, blue in x > 0: pure colours on each side, both at the boundary.
    const auto tracers = Lattice(glm::vec3(-0.2f), glm::vec3(0.2f), 0.01f);
    std::vector<std::uint16_t> groups(tracers.size());
    for (std::size_t i = 0; i < tracers.size(); ++i) groups[i] = tracers[i].x < 0.0f ? 0 : 1;
    const std::vector<glm::vec4> palette = {{1, 0, 0, 1}, {0, 0, 1, 1}};
    DyeVolume dye;
    dye.Build(tracers, groups, palette, WithTracerVolume(1e-6f));
    const glm::vec4 red = Voxel(dye, VoxelAt(dye.Grid(), {-0.1f, 0, 0}));
    const glm::vec4 blue = Voxel(dye, VoxelAt(dye.Grid(), {0.1f, 0, 0}));
    EXPECT_FLOAT_EQ(red.r, red.a);
    EXPECT_EQ(red.b, 0.0f);
    EXPECT_FLOAT_EQ(blue.b, blue.a);
    EXPECT_EQ(blue.r, 0.0f);
    const glm::vec4 middle = Voxel(dye, VoxelAt(dye.Grid(), {0.0f, 0, 0}));
    EXPECT_GT(middle.r, 0.2f * middle.a);
    EXPECT_GT(middle.b, 0.2f * middle.a);
    EXPECT_NEAR(middle.r + middle.b, middle.a, 1e-5f * middle.a + 1e-6f);
}

TEST(DyeVolume, SameVoxelsForAnyThreadCount) {
    std::mt19937 random(9);
    std::normal_distribution<float> spread(0.0f, 0.1f);
    std::vector<glm::vec3> tracers(120000);
    for (auto& p : tracers) p = {spread(random), spread(random), spread(random)};
    std::vector<std::uint16_t> groups(tracers.size());
    for (std::size_t i = 0; i < groups.size(); ++i) groups[i] = std::uint16_t(i % 3);
    const std::vector<glm::vec4> palette = {{1, 0.2f, 0.1f, 1}, {0.1f, 0.3f, 1, 1}, {0.9f, 0.9f, 0.9f, 0.5f}};
    std::vector<std::vector<glm::vec4>> results;
    std::vector<std::vector<std::uint32_t>> lights;
    for (int threads : {1, 2, 3}) {
        tbb::task_arena arena(threads);
        arena.execute([&] {
            DyeVolume dye;
            dye.Build(tracers, groups, palette, WithTracerVolume(1e-7f));
            DyeLighting lighting;
            DyeOptics optics;
            optics.toLight = glm::normalize(glm::vec3(0.3f, -0.5f, 0.8f));
            lighting.Build(dye, optics);
            results.emplace_back(dye.Voxels().begin(), dye.Voxels().end());
            lights.emplace_back(lighting.Packed().begin(), lighting.Packed().end());
        });
    }
    EXPECT_TRUE(results[0] == results[1]);
    EXPECT_TRUE(results[0] == results[2]);
    EXPECT_TRUE(lights[0] == lights[1]);
    EXPECT_TRUE(lights[0] == lights[2]);
}

TEST(DyeVolume, GridKeepsToItsBudgetForALongWake) {
    // A wake 8 m long and 0.2 m wide (falling_ball at 30 s): the spacing grows until the grid
    // fits the voxel budget and the texture's side limit, and the wake still spans the grid.
    std::mt19937 random(2);
    std::uniform_real_distribution<float> across(-0.1f, 0.1f), along(-8.0f, 0.0f);
    std::vector<glm::vec3> tracers(100000);
    for (auto& p : tracers) p = {across(random), across(random), along(random)};
    DyeVolume::Settings settings = WithTracerVolume(1e-7f);
    settings.maxVoxels = 64 * 64 * 64;
    settings.maxAxisVoxels = 256;
    DyeVolume dye;
    dye.Build(tracers, {}, {}, settings);
    const VolumeGrid& g = dye.Grid();
    EXPECT_LE(g.Count(), settings.maxVoxels);
    EXPECT_LE(g.size.z, 256);
    EXPECT_LT(g.Min().z, -7.9f);
    EXPECT_GT(g.Max().z, -0.1f);
    // The spacing is a power of 2^(1/8) and the origin a multiple of it (a grid that stays put).
    const double steps = 8.0 * std::log2(double(g.spacing));
    EXPECT_NEAR(steps, std::round(steps), 1e-3);
    const glm::vec3 cells = g.origin / g.spacing;
    EXPECT_NEAR(cells.x, std::round(cells.x), 1e-3);
    EXPECT_NEAR(cells.z, std::round(cells.z), 1e-3);
}

TEST(DyeLighting, SlabShadowsWhatIsBelowIt) {
    // A white slab 0.1 m thick at concentration 1, lit from 60 degrees up: the light crosses
    // 0.1 / sin 60 = 0.115 m of it, so below it the transmittance is exp(-10 x 0.115) = 0.31
    // (extinction 10/m; white dye absorbs nothing extra). Above the slab the light is whole.
    // The sky sweep straight down sees exp(-0.5 x 10 x 0.1) = 0.61 below it. Tolerance 0.05:
    // the slab's blurred faces and the 8-bit storage.
    const float a = 0.01f;
    auto tracers = Lattice({-0.5f, -0.5f, 0.0f}, {0.5f, 0.5f, 0.1f}, a);
    AddSheet(tracers, -0.15f);
    AddSheet(tracers, 0.25f);
    DyeVolume dye;
    dye.Build(tracers, {}, {}, WithTracerVolume(a * a * a));
    DyeOptics optics;
    optics.extinction = 10.0f;
    optics.toLight = {std::cos(glm::radians(60.0f)), 0.0f, std::sin(glm::radians(60.0f))};
    DyeLighting lighting;
    lighting.Build(dye, optics);
    const glm::vec3 below = lighting.KeyTransmittance({0.0f, 0.0f, -0.08f});
    const glm::vec3 above = lighting.KeyTransmittance({0.0f, 0.0f, 0.2f});
    const float expected = std::exp(-10.0f * 0.1f / std::sin(glm::radians(60.0f)));
    EXPECT_NEAR(below.r, expected, 0.05f);
    EXPECT_NEAR(below.b, expected, 0.05f);
    EXPECT_NEAR(above.g, 1.0f, 0.02f);
    EXPECT_NEAR(lighting.SkyVisibility({0.0f, 0.0f, -0.08f}), std::exp(-0.5f), 0.05f);
    EXPECT_NEAR(lighting.SkyVisibility({0.0f, 0.0f, 0.2f}), 1.0f, 0.02f);
}

TEST(DyeLighting, ColouredDyeLetsItsOwnColourThrough) {
    // Blue dye with absorption 2: red is taken out at twice the rate of blue
    // (extinction x (2 - c)), so light under a blue slab is blue.
    const float a = 0.01f;
    auto tracers = Lattice({-0.3f, -0.3f, 0.0f}, {0.3f, 0.3f, 0.05f}, a);
    AddSheet(tracers, -0.15f);
    const std::vector<std::uint16_t> groups(tracers.size(), 0);
    const std::vector<glm::vec4> blue = {{0.0f, 0.2f, 1.0f, 1.0f}};
    DyeVolume dye;
    dye.Build(tracers, groups, blue, WithTracerVolume(a * a * a));
    DyeOptics optics;
    optics.extinction = 10.0f;
    optics.absorption = 2.0f;
    optics.toLight = {0.0f, 0.0f, 1.0f};
    DyeLighting lighting;
    lighting.Build(dye, optics);
    const glm::vec3 below = lighting.KeyTransmittance({0.0f, 0.0f, -0.08f});
    EXPECT_NEAR(below.b, std::exp(-10.0f * 0.05f), 0.05f);
    EXPECT_NEAR(below.r, std::exp(-2.0f * 10.0f * 0.05f), 0.05f);
    EXPECT_GT(below.b, 1.4f * below.r);
}

TEST(DyeLighting, SpheresShadowTheLitMedium) {
    // A uniform block lit from straight above with a sphere in its upper part: the medium's
    // scattered light under the sphere is the sky's alone, beside it the key light's as well.
    const float a = 0.01f;
    const auto tracers = Lattice(glm::vec3(-0.3f), glm::vec3(0.3f), a);
    DyeVolume dye;
    dye.Build(tracers, {}, {}, WithTracerVolume(a * a * a));
    const std::vector<glm::vec4> spheres = {{0.0f, 0.0f, 0.15f, 0.08f}};
    DyeOptics optics;
    optics.extinction = 1.0f;  // thin, so the dye itself hardly shadows
    optics.toLight = {0.0f, 0.0f, 1.0f};
    optics.keyRadiance = glm::vec3(2.0f);
    optics.skyRadiance = glm::vec3(0.2f);
    optics.spheres = spheres;
    DyeLighting lighting;
    lighting.Build(dye, optics);
    const VolumeGrid& g = dye.Grid();
    auto medium = [&](glm::vec3 p) {
        const glm::ivec3 v = VoxelAt(g, p);
        return lighting.Medium()[(std::size_t(v.z) * g.size.y + v.y) * g.size.x + v.x];
    };
    const glm::vec4 shadowed = medium({0.0f, 0.0f, -0.1f});
    const glm::vec4 lit = medium({0.2f, 0.0f, -0.1f});
    EXPECT_NEAR(shadowed.a, lit.a, 0.1f * lit.a) << "the same dye";
    EXPECT_GT(lit.r, 5.0f * shadowed.r) << "lit " << lit.r << " shadowed " << shadowed.r;
}

}  // namespace
}  // namespace vorton
