#pragma once
/// \file
/// Dye tracers advected on the GPU by an OpenGL 4.3 compute shader
/// (shaders/tracer_advect.comp): tracers never act on the flow, so where the
/// context offers compute shaders they can live in a GPU buffer, be moved
/// there from the velocity grids the simulation computes anyway, and be drawn
/// from that buffer with no per-frame upload (issue 15).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "render/shader_program.h"
#include "sim/numerics/aabb.h"
#include "sim/result.h"
#include "sim/tracers/nested_grid.h"

namespace vorton::render {

/// A rigid sphere the tracers cannot enter (Simulation::CollideTracers).
struct GpuTracerSphere {
    glm::vec3 center{0.0f};  ///< m, where the body is at the step's end
    float radius = 0.0f;     ///< m
};

/// What one Step found, over its tracers.
struct GpuTracerStats {
    Aabb box;                   ///< of the finite new positions, m
    float maxSpeed = 0.0f;      ///< largest |u| of a finite velocity u, m/s
    std::size_t nonFinite = 0;  ///< tracers whose velocity or new position is not finite
};

/// Tracer positions in a GPU buffer and the compute program that moves them.
/// The scheme and its arithmetic are the CPU passes' (Simulation::PredictTracers
/// and CorrectTracers, docs/METHOD.md §5): one Heun step per Step, trilinear
/// interpolation on the two nested grids, in IEEE float without fused
/// multiply-adds. Needs the creating context current for every call; not copyable.
class GpuTracers {
public:
    /// True when the current context can run the compute program (OpenGL 4.3
    /// or later; Mesa's llvmpipe offers 4.5).
    static bool ContextSupports();
    /// Compiles shaderDir/tracer_advect.comp and makes the buffers. Error when the
    /// context is older than 4.3 or the shader fails (with the GLSL log).
    static Result<std::unique_ptr<GpuTracers>> Create(const std::filesystem::path& shaderDir);

    GpuTracers(const GpuTracers&) = delete;
    GpuTracers& operator=(const GpuTracers&) = delete;
    ~GpuTracers();

    /// Replaces the tracers by `positions` (m, world space).
    void SetPositions(std::span<const glm::vec3> positions);
    /// Adds `positions` after the tracers there are (PositionBuffer() may change).
    void AppendPositions(std::span<const glm::vec3> positions);
    std::size_t Count() const { return m_count; }

    /// Most spheres a Step takes (the shader's uniform array).
    static constexpr std::size_t kMaxSpheres = 64;
    using Spheres = std::vector<GpuTracerSphere>;

    /// Moves every tracer by one Heun step of dt (s) from grid0 (the velocity at
    /// t) to grid1 (at t + dt), plus the free stream (m/s): a step's
    /// Simulation::LastStepStartGrid and CurrentTracerGrid. Then a tracer inside
    /// one of `spheres` (the first kMaxSpheres) goes back onto its surface. A grid whose non-zero
    /// serial the previous Step was given is on the GPU already and is not
    /// uploaded again (each step's second grid is the next one's first). With
    /// markCells, also records which cells of grid1 hold a tracer afterwards
    /// (ReadOccupiedCells). Asynchronous: returns once the work is queued.
    void Step(const TracerGridView& grid0, const TracerGridView& grid1, glm::vec3 freeStream, float dt,
              std::span<const GpuTracerSphere> spheres = {}, bool markCells = false);

    /// The positions (waits for the GPU). `out` is resized to Count().
    void ReadPositions(std::vector<glm::vec3>& out) const;
    /// Bounds, largest speed and non-finite count of the last Step (waits for the GPU).
    GpuTracerStats ReadStats() const;
    /// One byte per cell of the last Step's grid1 (named by its lower corner's
    /// flat index, grid1.PointCount() of them): 1 where a tracer ended in that
    /// cell. Empty unless that Step had markCells (waits for the GPU).
    void ReadOccupiedCells(std::vector<std::uint8_t>& cells) const;

    /// GL buffer of the positions: 3 floats per tracer, tightly packed, for
    /// drawing as a vertex attribute.
    unsigned PositionBuffer() const { return m_positions; }

private:
    GpuTracers() = default;
    /// Which of the two value buffers holds `grid` (uploading it to `fallback` if neither).
    int Slot(const TracerGridView& grid, int fallback);
    void SetGridUniforms(int index, const NestedGrid& grid);
    void FindUniforms();

    // The program's uniform locations, looked up once.
    struct GridUniforms {
        int center = -1, inverse = -1, inverseHalf = -1, half = -1, top = -1, lastCell = -1, lastLevel = -1,
            levelPoints = -1, strideY = -1, strideZ = -1;
    };
    struct Uniforms {
        int count = -1, perInvocation = -1, dt = -1, freeStream = -1, markCells = -1, sphereCount = -1, spheres = -1;
        GridUniforms grid[2];
    };
    Uniforms m_uniforms;

    ShaderProgram m_program;
    unsigned m_positions = 0;
    unsigned m_values[2] = {0, 0};
    std::size_t m_valuesCapacity[2] = {0, 0};  // bytes
    std::uint64_t m_valuesSerial[2] = {0, 0};
    unsigned m_stats = 0;
    unsigned m_cells = 0;
    std::size_t m_cellsCapacity = 0;  // bytes
    std::vector<float> m_packedSpheres;  // x, y, z, r per sphere
    std::size_t m_cellWords = 0;    // of the last Step with markCells (0: none)
    std::size_t m_cellCount = 0;    // grid1 points of that Step
    std::size_t m_count = 0;
};

}  // namespace vorton::render
