#include "app/core/vdb_output.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include <openvdb/openvdb.h>

#include "sim/particles/seeding.h"

namespace vorton {

float DyeVoxelSize(float spacing) { return 0.5f * (spacing > 0.0f ? spacing : 0.02f); }

double SeededTracerDensity(const SceneSetup& setup) {
    double volume = 0.0;
    for (const DensityGroup& g : setup.groups) volume += ShapeVolume(g);
    return volume > 0.0 && setup.params.tracerCount > 0 ? double(setup.params.tracerCount) / volume : 0.0;
}

namespace {

/// Adds value·w to the 8 voxels (of edge `voxel`, centres at i·voxel) around
/// x, with the trilinear (cloud-in-cell) weights w; non-finite x is skipped.
template <typename Accessor, typename Value>
void SpreadCloudInCell(Accessor& access, glm::vec3 x, double voxel, const Value& value) {
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z)) return;
    const double gx = double(x.x) / voxel, gy = double(x.y) / voxel, gz = double(x.z) / voxel;
    const double fx = std::floor(gx), fy = std::floor(gy), fz = std::floor(gz);
    const double wx = gx - fx, wy = gy - fy, wz = gz - fz;
    const openvdb::Coord base{static_cast<int>(fx), static_cast<int>(fy), static_cast<int>(fz)};
    for (int c = 0; c < 8; ++c) {
        const int dx = c & 1, dy = (c >> 1) & 1, dz = (c >> 2) & 1;
        const double w = (dx ? wx : 1.0 - wx) * (dy ? wy : 1.0 - wy) * (dz ? wz : 1.0 - wz);
        if (w <= 0.0) continue;
        const openvdb::Coord at = base.offsetBy(dx, dy, dz);
        access.setValue(at, access.getValue(at) + value * static_cast<typename Accessor::ValueType>(w));
    }
}

/// |ω| of the vortons on voxels of edge h (see VdbContents::vorticity).
openvdb::FloatGrid::Ptr VorticityGrid(const Simulation& sim) {
    const Vortons& v = sim.GetVortons();
    const double h = sim.Spacing() > 0.0f ? double(sim.Spacing()) : 0.02;
    openvdb::Vec3DGrid::Ptr omega = openvdb::Vec3DGrid::create(openvdb::Vec3d(0.0));
    openvdb::Vec3DGrid::Accessor access = omega->getAccessor();
    const double perVolume = 1.0 / (h * h * h);
    for (std::size_t k = 0; k < v.Size(); ++k) {
        const openvdb::Vec3d alpha(double(v.vorticity[k].x) * v.volume[k], double(v.vorticity[k].y) * v.volume[k],
                                   double(v.vorticity[k].z) * v.volume[k]);
        SpreadCloudInCell(access, v.position[k], h, alpha * perVolume);
    }
    double largest = 0.0;
    for (auto it = omega->cbeginValueOn(); it; ++it) largest = std::max(largest, (*it).length());
    openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(0.0f);
    grid->setName("vorticity");
    grid->setGridClass(openvdb::GRID_FOG_VOLUME);
    grid->setTransform(openvdb::math::Transform::createLinearTransform(h));
    openvdb::FloatGrid::Accessor out = grid->getAccessor();
    for (auto it = omega->cbeginValueOn(); it; ++it) {
        const double magnitude = (*it).length();
        if (magnitude >= 1e-3 * largest && magnitude > 0.0) out.setValue(it.getCoord(), float(magnitude));
    }
    grid->insertMeta("unit", openvdb::StringMetadata("1/s"));
    return grid;
}

}  // namespace

Status WriteDyeVdb(const std::filesystem::path& file, const Simulation& sim, VdbContents contents) {
    static std::once_flag initialised;
    std::call_once(initialised, [] { openvdb::initialize(); });
    const double voxel = DyeVoxelSize(sim.Spacing());
    const double seeded = SeededTracerDensity(sim.Setup());
    // Each tracer adds this to the 8 voxels around it, times its trilinear weights.
    const float unit = float(1.0 / (voxel * voxel * voxel * (seeded > 0.0 ? seeded : 1.0)));
    openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(0.0f);
    grid->setName("density");
    grid->setGridClass(openvdb::GRID_FOG_VOLUME);
    // Voxel centres at i·voxel: index space is world space scaled.
    grid->setTransform(openvdb::math::Transform::createLinearTransform(voxel));
    openvdb::FloatGrid::Accessor access = grid->getAccessor();
    for (const glm::vec3& x : sim.GetTracers().position) SpreadCloudInCell(access, x, voxel, unit);
    openvdb::GridPtrVec grids{grid};
    if (contents.vorticity) grids.push_back(VorticityGrid(sim));
    for (const openvdb::GridBase::Ptr& g : grids) {
        g->insertMeta("time", openvdb::DoubleMetadata(sim.Time()));
        g->insertMeta("step", openvdb::Int64Metadata(sim.StepCount()));
    }
    try {
        openvdb::io::File out(file.string());
        out.write(grids);
        out.close();
    } catch (const std::exception& e) {
        return Error{file.string() + ": cannot write the VDB file: " + e.what()};
    }
    return Ok{};
}

}  // namespace vorton
