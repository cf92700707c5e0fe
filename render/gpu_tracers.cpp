#include "render/gpu_tracers.h"

#include <glad/gl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace vorton::render {
namespace {

constexpr std::size_t kWorkgroup = 128;     // local_size_x of tracer_advect.comp
constexpr std::size_t kPerInvocation = 8;  // tracers each invocation moves
static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "positions are uploaded as-is");
static_assert(sizeof(GridSampler::Float4) == 4 * sizeof(float), "grid values are uploaded as-is");

// The shader's order-preserving int of a float, undone.
float FromOrderedKey(std::int32_t key) {
    return std::bit_cast<float>(key >= 0 ? key : key ^ 0x7fffffff);
}

// Grows `buffer` to at least `bytes` (contents lost when it grows).
void Reserve(GLuint buffer, std::size_t bytes, std::size_t& capacity, GLenum usage = GL_DYNAMIC_DRAW) {
    if (bytes <= capacity) return;
    capacity = std::max(bytes, capacity + capacity / 2);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(capacity), nullptr, usage);
}

std::string UniformName(const char* name, int index) {
    return std::string(name) + "[" + std::to_string(index) + "]";
}

}  // namespace

bool GpuTracers::ContextSupports() {
    return GLAD_GL_VERSION_4_3 != 0 && glDispatchCompute != nullptr;
}

Result<std::unique_ptr<GpuTracers>> GpuTracers::Create(const std::filesystem::path& shaderDir) {
    if (!ContextSupports()) {
        return Error{"GPU tracers need OpenGL 4.3 (compute shaders); this context offers " +
                     std::string(reinterpret_cast<const char*>(glGetString(GL_VERSION)))};
    }
    auto program = ShaderProgram::LoadCompute(shaderDir, "tracer_advect.comp");
    if (!program) return Error{program.error()};
    std::unique_ptr<GpuTracers> tracers(new GpuTracers());
    tracers->m_program = std::move(program.value());
    glGenBuffers(1, &tracers->m_positions);
    glGenBuffers(2, tracers->m_values);
    glGenBuffers(1, &tracers->m_stats);
    glGenBuffers(1, &tracers->m_cells);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, tracers->m_stats);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 8 * sizeof(std::int32_t), nullptr, GL_DYNAMIC_READ);
    // Something valid at every binding, even before the first Step with markCells.
    Reserve(tracers->m_cells, sizeof(std::uint32_t), tracers->m_cellsCapacity, GL_DYNAMIC_READ);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    tracers->FindUniforms();
    return tracers;
}

GpuTracers::~GpuTracers() {
    glDeleteBuffers(1, &m_positions);
    glDeleteBuffers(2, m_values);
    glDeleteBuffers(1, &m_stats);
    glDeleteBuffers(1, &m_cells);
}

void GpuTracers::SetPositions(std::span<const glm::vec3> positions) {
    m_count = positions.size();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_positions);
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(std::max<std::size_t>(positions.size_bytes(), 16)), nullptr,
                 GL_DYNAMIC_DRAW);
    if (!positions.empty()) glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(positions.size_bytes()), positions.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

void GpuTracers::AppendPositions(std::span<const glm::vec3> positions) {
    if (positions.empty()) return;
    if (m_count == 0) {
        SetPositions(positions);
        return;
    }
    const std::size_t oldBytes = m_count * sizeof(glm::vec3);
    GLuint grown = 0;
    glGenBuffers(1, &grown);
    glBindBuffer(GL_COPY_WRITE_BUFFER, grown);
    glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(oldBytes + positions.size_bytes()), nullptr, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_COPY_READ_BUFFER, m_positions);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, GLsizeiptr(oldBytes));
    glBufferSubData(GL_COPY_WRITE_BUFFER, GLintptr(oldBytes), GLsizeiptr(positions.size_bytes()), positions.data());
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glDeleteBuffers(1, &m_positions);
    m_positions = grown;
    m_count += positions.size();
}

int GpuTracers::Slot(const TracerGridView& grid, int fallback) {
    for (int s = 0; s < 2; ++s) {
        if (grid.serial != 0 && m_valuesSerial[s] == grid.serial) return s;
    }
    const std::size_t bytes = std::max<std::size_t>(grid.values.size_bytes(), 16);
    Reserve(m_values[fallback], bytes, m_valuesCapacity[fallback]);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_values[fallback]);
    if (!grid.values.empty()) {
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(grid.values.size_bytes()), grid.values.data());
    }
    m_valuesSerial[fallback] = grid.serial;
    return fallback;
}

void GpuTracers::FindUniforms() {
    const auto at = [this](const std::string& name) { return m_program.Uniform(name.c_str()); };
    Uniforms& u = m_uniforms;
    u.count = at("uCount");
    u.perInvocation = at("uPerInvocation");
    u.dt = at("uDt");
    u.freeStream = at("uFreeStream");
    u.markCells = at("uMarkCells");
    u.sphereCount = at("uSphereCount");
    u.spheres = at("uSpheres");
    for (int i = 0; i < 2; ++i) {
        GridUniforms& g = u.grid[i];
        g.center = at(UniformName("uCenter", i));
        g.inverse = at(UniformName("uInverse", i));
        g.inverseHalf = at(UniformName("uInverseHalf", i));
        g.half = at(UniformName("uHalf", i));
        g.top = at(UniformName("uTop", i));
        g.lastCell = at(UniformName("uLastCell", i));
        g.lastLevel = at(UniformName("uLastLevel", i));
        g.levelPoints = at(UniformName("uLevelPoints", i));
        g.strideY = at(UniformName("uStrideY", i));
        g.strideZ = at(UniformName("uStrideZ", i));
    }
}

void GpuTracers::SetGridUniforms(int index, const NestedGrid& grid) {
    // NestedGridSampler computes the constants, so they are the CPU passes' to the bit.
    const NestedGridSampler sampler(grid);
    const GridUniforms& g = m_uniforms.grid[index];
    const auto vec3 = [](int location, const GridSampler::Float4& v) { glUniform3f(location, v[0], v[1], v[2]); };
    vec3(g.center, sampler.Center());
    vec3(g.inverse, sampler.Inverse());
    vec3(g.inverseHalf, sampler.InverseHalf());
    vec3(g.half, sampler.Half());
    vec3(g.top, sampler.TopF());
    const GridSampler::Int4 last = sampler.LastCell();
    glUniform3i(g.lastCell, last[0], last[1], last[2]);
    glUniform1i(g.lastLevel, sampler.LastLevel());
    glUniform1ui(g.levelPoints, GLuint(sampler.LevelPoints()));
    glUniform1ui(g.strideY, GLuint(sampler.StrideY()));
    glUniform1ui(g.strideZ, GLuint(sampler.StrideZ()));
}

void GpuTracers::Step(const TracerGridView& grid0, const TracerGridView& grid1, glm::vec3 freeStream, float dt,
                      std::span<const GpuTracerSphere> spheres, bool markCells) {
    const int slot0 = Slot(grid0, 0);
    // grid1 goes to the other buffer, so that grid0 (this step's) survives until it is read.
    int slot1 = 1 - slot0;
    if (!(grid1.serial != 0 && m_valuesSerial[slot1] == grid1.serial)) {
        m_valuesSerial[slot1] = 0;
        slot1 = Slot(grid1, slot1);
    }

    const GLint initial[8] = {0x7fffffff, 0x7fffffff, 0x7fffffff, GLint(0x80000000), GLint(0x80000000),
                              GLint(0x80000000), 0, 0};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_stats);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof initial, initial);
    m_cellWords = 0;
    m_cellCount = 0;
    if (markCells) {
        m_cellCount = grid1.grid.PointCount();
        m_cellWords = (m_cellCount + 31) / 32;
        // The buffer keeps its capacity; only the words this grid uses are cleared.
        const std::size_t bytes = m_cellWords * sizeof(std::uint32_t);
        Reserve(m_cells, bytes, m_cellsCapacity, GL_DYNAMIC_READ);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_cells);
        const GLuint zero = 0;
        glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, GLsizeiptr(bytes), GL_RED_INTEGER,
                             GL_UNSIGNED_INT, &zero);
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    if (m_count == 0) return;

    const Uniforms& u = m_uniforms;
    glUseProgram(m_program.Id());
    glUniform1ui(u.count, GLuint(m_count));
    glUniform1ui(u.perInvocation, GLuint(kPerInvocation));
    glUniform1f(u.dt, dt);
    glUniform3f(u.freeStream, freeStream.x, freeStream.y, freeStream.z);
    glUniform1i(u.markCells, markCells ? 1 : 0);
    const std::size_t sphereCount = std::min(spheres.size(), kMaxSpheres);
    m_packedSpheres.resize(4 * sphereCount);
    for (std::size_t b = 0; b < sphereCount; ++b) {
        m_packedSpheres[4 * b] = spheres[b].center.x;
        m_packedSpheres[4 * b + 1] = spheres[b].center.y;
        m_packedSpheres[4 * b + 2] = spheres[b].center.z;
        m_packedSpheres[4 * b + 3] = spheres[b].radius;
    }
    glUniform1i(u.sphereCount, GLint(sphereCount));
    if (sphereCount > 0) glUniform4fv(u.spheres, GLsizei(sphereCount), m_packedSpheres.data());
    SetGridUniforms(0, grid0.grid);
    SetGridUniforms(1, grid1.grid);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, m_positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, m_values[slot0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, m_values[slot1]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, m_stats);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, m_cells);
    const std::size_t perGroup = kWorkgroup * kPerInvocation;
    glDispatchCompute(GLuint((m_count + perGroup - 1) / perGroup), 1, 1);
    // Whoever reads next (a draw from the buffer, a read-back, the next Step) sees the writes.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
                    GL_BUFFER_UPDATE_BARRIER_BIT);
    glUseProgram(0);
}

void GpuTracers::ReadPositions(std::vector<glm::vec3>& out) const {
    out.resize(m_count);
    if (m_count == 0) return;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_positions);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(m_count * sizeof(glm::vec3)), out.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

GpuTracerStats GpuTracers::ReadStats() const {
    std::int32_t raw[8];
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_stats);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof raw, raw);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    GpuTracerStats stats;
    if (raw[0] <= raw[3]) {  // at least one finite tracer
        stats.box.min = glm::vec3(FromOrderedKey(raw[0]), FromOrderedKey(raw[1]), FromOrderedKey(raw[2]));
        stats.box.max = glm::vec3(FromOrderedKey(raw[3]), FromOrderedKey(raw[4]), FromOrderedKey(raw[5]));
    }
    stats.maxSpeed = std::sqrt(std::bit_cast<float>(raw[6]));
    stats.nonFinite = std::size_t(raw[7]);
    return stats;
}

void GpuTracers::ReadOccupiedCells(std::vector<std::uint8_t>& cells) const {
    cells.assign(m_cellCount, 0);
    if (m_cellWords == 0) return;
    std::vector<std::uint32_t> words(m_cellWords);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_cells);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(words.size() * sizeof(std::uint32_t)), words.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    for (std::size_t c = 0; c < m_cellCount; ++c) cells[c] = std::uint8_t((words[c >> 5] >> (c & 31)) & 1u);
}

}  // namespace vorton::render
