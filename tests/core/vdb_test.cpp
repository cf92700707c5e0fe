// --dump-vdb (issue 14, item 8): the dye volume written through OpenVDB reads back with
// OpenVDB's own reader, holding the tracers' count and centroid.

#include <cmath>
#include <filesystem>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <openvdb/openvdb.h>

#include "app/core/vdb_output.h"
#include "test_util.h"

namespace vorton {
namespace {

namespace fs = std::filesystem;

TEST(VdbOutput, DyeVolumeReadsBackWithTheTracersMassAndCentroid) {
    // Cloud-in-cell keeps the zeroth and first moments exactly: Σ value·voxel³·n₀ is the tracer
    // count and the value-weighted voxel centre is the tracers' centroid, to float round-off
    // of the sums (1e-4 relative; 1e-3 of a voxel for the centroid). A wrong voxel size,
    // a lost transform or a half-written file fails one of them.
    SceneSetup setup = test::LoadSetup("two_drops");
    setup.params.tracerCount = 20000;
    Simulation sim(setup);
    ASSERT_TRUE(test::RunSteps(sim, 5).ok);
    const fs::path dir = fs::temp_directory_path() / ("vorton_vdb_test_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "density.vdb";
    const Status s = WriteDyeVdb(file, sim);
    ASSERT_TRUE(s.ok()) << s.error();

    openvdb::initialize();
    openvdb::io::File in(file.string());
    in.open();
    openvdb::GridBase::Ptr base = in.readGrid("density");
    in.close();
    auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
    ASSERT_TRUE(grid);
    EXPECT_EQ(grid->getGridClass(), openvdb::GRID_FOG_VOLUME);
    const double voxel = grid->transform().voxelSize()[0];
    EXPECT_NEAR(voxel, DyeVoxelSize(sim.Spacing()), 1e-9);
    EXPECT_EQ(grid->metaValue<openvdb::Int64>("step"), 5);
    const double n0 = SeededTracerDensity(setup);
    ASSERT_GT(n0, 0.0);
    double mass = 0.0, peak = 0.0;
    openvdb::Vec3d moment(0.0);
    for (auto it = grid->cbeginValueOn(); it; ++it) {
        const double v = double(*it);
        mass += v;
        peak = std::max(peak, v);
        moment += v * grid->indexToWorld(it.getCoord());
    }
    const double tracers = mass * voxel * voxel * voxel * n0;
    test::Measured("vdb_tracers_over_count", tracers / 20000.0);
    test::Measured("vdb_peak_density", peak);
    EXPECT_NEAR(tracers, 20000.0, 1e-4 * 20000.0);
    glm::dvec3 centroid(0.0);
    for (const glm::vec3& x : sim.GetTracers().position) centroid += glm::dvec3(x);
    centroid /= double(sim.GetTracers().Size());
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(moment[a] / mass, centroid[a], 1e-3 * voxel) << "axis " << a;
    // Inside the dye the density is about the seeded one: 20,000 tracers over voxels of h/2
    // give ~1 per voxel, so the peak is a few times 1, not 0 or 1000 (a unit slip).
    EXPECT_GT(peak, 0.5);
    EXPECT_LT(peak, 50.0);
}

TEST(VdbOutput, AFolderThatIsNotThereIsAClearError) {
    SceneSetup setup = test::LoadSetup("dye_drop");
    setup.params.tracerCount = 100;
    Simulation sim(setup);
    const Status s = WriteDyeVdb("/nonexistent_vorton_dir/x.vdb", sim);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find("/nonexistent_vorton_dir/x.vdb"), std::string::npos) << s.error();
}

TEST(VdbOutput, VorticityGridHoldsTheRingsCore) {
    // vortex_ring as seeded: a uniform core of |ω| = Γ/(πa²) on the vortons' lattice. On
    // voxels of that lattice's spacing the cloud-in-cell weights of a vorton sum to 1, so
    // inside the core a voxel holds the vortons' |ω| (less the ~0.1 % that the azimuth turning
    // over one h costs: 3 % allowed for the lattice's offset at the core's edge), the
    // |ω|-weighted distance from the axis is R = 0.3 m (2 %), and at the axis there is none.
    // Without asking, the file holds no such grid.
    SceneSetup setup = test::LoadSetup("vortex_ring");
    setup.params.tracerCount = 2000;
    Simulation sim(setup);
    const fs::path dir = fs::temp_directory_path() / ("vorton_vdb_test_w_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path with = dir / "with.vdb", without = dir / "without.vdb";
    ASSERT_TRUE(WriteDyeVdb(with, sim, VdbContents{true}).ok());
    ASSERT_TRUE(WriteDyeVdb(without, sim).ok());
    openvdb::initialize();
    openvdb::io::File in(with.string());
    in.open();
    auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(in.readGrid("vorticity"));
    in.close();
    ASSERT_TRUE(grid);
    EXPECT_NEAR(grid->transform().voxelSize()[0], double(sim.Spacing()), 1e-9);
    EXPECT_EQ(grid->metaValue<std::string>("unit"), "1/s");
    double largestVorton = 0.0;
    for (const glm::vec3& w : sim.GetVortons().vorticity) largestVorton = std::max(largestVorton, double(glm::length(w)));
    double peak = 0.0, weight = 0.0, radius = 0.0, onAxis = 0.0;
    for (auto it = grid->cbeginValueOn(); it; ++it) {
        const double v = double(*it);
        const openvdb::Vec3d x = grid->indexToWorld(it.getCoord());
        peak = std::max(peak, v);
        weight += v;
        radius += v * std::hypot(x.x(), x.y());
        if (std::hypot(x.x(), x.y()) < 0.1) onAxis = std::max(onAxis, v);
    }
    test::Measured("vdb_peak_vorticity_over_vortons", peak / largestVorton);
    test::Measured("vdb_vorticity_radius", radius / weight);
    EXPECT_NEAR(peak, largestVorton, 0.03 * largestVorton);
    EXPECT_NEAR(radius / weight, 0.3, 0.02 * 0.3);
    EXPECT_EQ(onAxis, 0.0);
    openvdb::io::File plain(without.string());
    plain.open();
    EXPECT_FALSE(plain.hasGrid("vorticity"));
    EXPECT_TRUE(plain.hasGrid("density"));
    plain.close();
    fs::remove_all(dir);
}

}  // namespace
}  // namespace vorton
