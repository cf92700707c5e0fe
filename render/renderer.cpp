#include "render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <numbers>
#include <vector>

namespace vorton::render {
namespace {

static_assert(sizeof(glm::vec3) == 3 * sizeof(float), "tracer positions are uploaded as-is");

constexpr glm::vec4 kDefaultDye{0.85f, 0.87f, 0.9f, 1.0f};
constexpr glm::vec4 kBoundsColor{0.75f, 0.8f, 0.88f, 0.45f};
constexpr float kTracerEdge = 0.0f;  // fade from the centre: soft smoke-like blobs
constexpr float kVortonEdge = 0.6f;  // crisper discs so vortons stand out from the dye
// A vorton with no strength data still gets a mid-warm colour.
constexpr float kDefaultStrength = 0.6f;

// GL wants the count as GLsizei; spans never approach 2^31 vertices in this demo.
GLsizei Count(std::size_t n) {
    return static_cast<GLsizei>(n);
}

// Enough facets that the silhouette of a sphere filling the screen stays round (at 48 segments
// a 500-pixel radius deviates from the circle by about one pixel).
constexpr int kSphereSegments = 48;  // around the body z axis
constexpr int kSphereRings = 24;     // pole to pole

struct SphereMesh {
    std::vector<glm::vec3> vertices;     // unit sphere: position = outward normal
    std::vector<std::uint16_t> indices;  // triangles, counter-clockwise seen from outside
};

// A UV sphere about the z axis. The seam column is duplicated (vertex j = 0 and j = segments
// coincide) and the triangles that would collapse at the poles are left out.
SphereMesh UnitSphere(int segments, int rings) {
    SphereMesh mesh;
    const int columns = segments + 1;
    mesh.vertices.reserve(static_cast<std::size_t>(columns * (rings + 1)));
    for (int i = 0; i <= rings; ++i) {
        const float polar = std::numbers::pi_v<float> * static_cast<float>(i) / rings;
        for (int j = 0; j <= segments; ++j) {
            const float azimuth =
                2.0f * std::numbers::pi_v<float> * static_cast<float>(j) / segments;
            mesh.vertices.emplace_back(std::sin(polar) * std::cos(azimuth),
                                       std::sin(polar) * std::sin(azimuth), std::cos(polar));
        }
    }
    const auto index = [columns](int i, int j) {
        return static_cast<std::uint16_t>(i * columns + j);
    };
    for (int i = 0; i < rings; ++i) {
        for (int j = 0; j < segments; ++j) {
            // a (ring i) above b (ring i + 1); c and d one step further in azimuth.
            const auto a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1),
                       d = index(i, j + 1);
            if (i != rings - 1) mesh.indices.insert(mesh.indices.end(), {a, b, c});
            if (i != 0) mesh.indices.insert(mesh.indices.end(), {a, c, d});
        }
    }
    return mesh;
}

// The 12 edges of the box as 24 line endpoints.
std::array<glm::vec3, 24> BoxEdges(const glm::vec3& lo, const glm::vec3& hi) {
    const auto corner = [&](int i) {
        return glm::vec3((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    };
    std::array<glm::vec3, 24> lines{};
    std::size_t n = 0;
    for (int i = 0; i < 8; ++i) {
        for (int axisBit : {1, 2, 4}) {
            if ((i & axisBit) == 0) {
                lines[n++] = corner(i);
                lines[n++] = corner(i | axisBit);
            }
        }
    }
    return lines;
}

}  // namespace

Renderer::Renderer() = default;

Result<std::unique_ptr<Renderer>> Renderer::Create(const std::filesystem::path& shaderDir) {
    if (GLAD_GL_VERSION_3_3 == 0 || glCreateShader == nullptr) {
        return Error{"Renderer: OpenGL 3.3 is not loaded (create a context and call LoadGl first)"};
    }
    std::unique_ptr<Renderer> renderer(new Renderer());
    struct ProgramFiles {
        ShaderProgram* target;
        const char* vertex;
        const char* fragment;
    };
    const ProgramFiles programs[] = {
        {&renderer->m_background, "background.vert", "background.frag"},
        {&renderer->m_tracers, "tracer.vert", "sprite.frag"},
        {&renderer->m_vortons, "vorton.vert", "sprite.frag"},
        {&renderer->m_lines, "line.vert", "line.frag"},
        {&renderer->m_spheres, "sphere.vert", "sphere.frag"},
    };
    for (const auto& files : programs) {
        auto program = ShaderProgram::Load(shaderDir, files.vertex, files.fragment);
        if (!program) return Error{program.error()};
        *files.target = std::move(program.value());
    }

    // Each VAO remembers which buffer feeds which attribute; DynamicBuffer keeps its GL name
    // when it grows, so this set-up holds for the renderer's lifetime.
    glGenVertexArrays(1, &renderer->m_emptyVao);
    glGenVertexArrays(1, &renderer->m_tracerVao);
    glBindVertexArray(renderer->m_tracerVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_tracerPositions.Id());
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_tracerGroups.Id());
    glVertexAttribIPointer(1, 1, GL_UNSIGNED_SHORT, sizeof(std::uint16_t), nullptr);

    glGenVertexArrays(1, &renderer->m_vortonVao);
    glBindVertexArray(renderer->m_vortonVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_vortonPositions.Id());
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_vortonStrengths.Id());
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(float), nullptr);

    glGenVertexArrays(1, &renderer->m_lineVao);
    glBindVertexArray(renderer->m_lineVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_lineVertices.Id());
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);

    // The sphere mesh never changes: static buffers, the index buffer recorded in the VAO.
    const SphereMesh sphere = UnitSphere(kSphereSegments, kSphereRings);
    static_assert((kSphereSegments + 1) * (kSphereRings + 1) <= 65536, "16-bit indices");
    renderer->m_sphereIndexCount = Count(sphere.indices.size());
    glGenVertexArrays(1, &renderer->m_sphereVao);
    glGenBuffers(1, &renderer->m_sphereVertices);
    glGenBuffers(1, &renderer->m_sphereIndices);
    glBindVertexArray(renderer->m_sphereVao);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->m_sphereVertices);
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(sphere.vertices.size() * sizeof(glm::vec3)),
                 sphere.vertices.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, renderer->m_sphereIndices);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(sphere.indices.size() * sizeof(std::uint16_t)),
                 sphere.indices.data(), GL_STATIC_DRAW);

    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    return renderer;
}

Renderer::~Renderer() {
    const GLuint vaos[] = {m_emptyVao, m_tracerVao, m_vortonVao, m_lineVao, m_sphereVao};
    glDeleteVertexArrays(5, vaos);
    const GLuint buffers[] = {m_sphereVertices, m_sphereIndices};
    glDeleteBuffers(2, buffers);
}

void Renderer::Draw(const FrameInput& input) {
    const glm::ivec2 viewport = glm::max(input.view.viewport, glm::ivec2(1));
    glViewport(0, 0, viewport.x, viewport.y);
    glDepthMask(GL_TRUE);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    DrawBackground();

    const glm::mat4 viewProjection = input.view.projection * input.view.view;
    // Pixels per (world metre / clip w): a sprite of diameter s at clip depth w spans
    // s * pointScale / w pixels, matching how the projection scales geometry vertically.
    const float pointScale = 0.5f * static_cast<float>(viewport.y) * input.view.projection[1][1];

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    // Opaque spheres first, writing depth, so everything blended later is hidden behind them.
    if (!input.spheres.empty()) DrawSpheres(input, viewProjection);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // shaders output premultiplied alpha
    if (input.showBounds) DrawBounds(input, viewProjection);

    // Sprites test against the spheres and the box but never write depth, so they all blend
    // with each other whatever their order.
    glDepthMask(GL_FALSE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    if (!input.tracerPositions.empty()) {
        glUseProgram(m_tracers.Id());
        glUniformMatrix4fv(m_tracers.Uniform("uViewProjection"), 1, GL_FALSE,
                           glm::value_ptr(viewProjection));
        DrawTracers(input, pointScale);
    }
    if (input.showVortons && !input.vortonPositions.empty()) {
        glUseProgram(m_vortons.Id());
        glUniformMatrix4fv(m_vortons.Uniform("uViewProjection"), 1, GL_FALSE,
                           glm::value_ptr(viewProjection));
        DrawVortons(input, pointScale);
    }

    // Leave the state Dear ImGui's OpenGL3 backend (and most code) assumes.
    glDepthMask(GL_TRUE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void Renderer::DrawBackground() {
    glUseProgram(m_background.Id());
    glUniform3fv(m_background.Uniform("uTop"), 1, glm::value_ptr(kBackgroundTop));
    glUniform3fv(m_background.Uniform("uBottom"), 1, glm::value_ptr(kBackgroundBottom));
    glBindVertexArray(m_emptyVao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void Renderer::DrawSpheres(const FrameInput& input, const glm::mat4& viewProjection) {
    glUseProgram(m_spheres.Id());
    glUniformMatrix4fv(m_spheres.Uniform("uViewProjection"), 1, GL_FALSE,
                       glm::value_ptr(viewProjection));
    glUniformMatrix4fv(m_spheres.Uniform("uView"), 1, GL_FALSE, glm::value_ptr(input.view.view));
    // Closed convex meshes: the back half is always hidden, so skip shading it.
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glBindVertexArray(m_sphereVao);
    // The view matrix is rigid (a camera pose), so its upper 3x3 turns normals as well.
    const glm::mat3 viewRotation(input.view.view);
    for (const SphereInstance& sphere : input.spheres) {
        const glm::mat3 bodyToView = viewRotation * sphere.rotation;
        glUniform3fv(m_spheres.Uniform("uCenter"), 1, glm::value_ptr(sphere.center));
        glUniform1f(m_spheres.Uniform("uRadius"), sphere.radius);
        glUniformMatrix3fv(m_spheres.Uniform("uRotation"), 1, GL_FALSE,
                           glm::value_ptr(sphere.rotation));
        glUniformMatrix3fv(m_spheres.Uniform("uBodyToView"), 1, GL_FALSE,
                           glm::value_ptr(bodyToView));
        glUniform3fv(m_spheres.Uniform("uColor"), 1, glm::value_ptr(sphere.color));
        glUniform1f(m_spheres.Uniform("uHighlight"), sphere.highlight ? 1.0f : 0.0f);
        glDrawElements(GL_TRIANGLES, m_sphereIndexCount, GL_UNSIGNED_SHORT, nullptr);
    }
    glDisable(GL_CULL_FACE);
}

void Renderer::DrawBounds(const FrameInput& input, const glm::mat4& viewProjection) {
    const auto lines = BoxEdges(input.boundsMin, input.boundsMax);
    glUseProgram(m_lines.Id());
    glUniformMatrix4fv(m_lines.Uniform("uViewProjection"), 1, GL_FALSE,
                       glm::value_ptr(viewProjection));
    glUniform4fv(m_lines.Uniform("uColor"), 1, glm::value_ptr(kBoundsColor));
    glBindVertexArray(m_lineVao);
    m_lineVertices.Upload(lines.data(), sizeof(lines));
    glDrawArrays(GL_LINES, 0, Count(lines.size()));
}

void Renderer::DrawTracers(const FrameInput& input, float pointScale) {
    const std::size_t count = input.tracerPositions.size();
    const std::size_t groups = std::min(input.groupColors.size(), kMaxGroups);
    if (groups > 0) {
        glUniform4fv(m_tracers.Uniform("uPalette"), Count(groups),
                     glm::value_ptr(input.groupColors.front()));
    } else {
        glUniform4fv(m_tracers.Uniform("uPalette"), 1, glm::value_ptr(kDefaultDye));
    }
    glUniform1i(m_tracers.Uniform("uPaletteCount"), std::max<GLint>(Count(groups), 1));
    glUniform1f(m_tracers.Uniform("uPointScale"), pointScale);
    glUniform1f(m_tracers.Uniform("uSize"), input.tracerSize);
    glUniform1f(m_tracers.Uniform("uOpacity"), std::clamp(input.tracerOpacity, 0.0f, 1.0f));
    glUniform1f(m_tracers.Uniform("uEdge"), kTracerEdge);

    glBindVertexArray(m_tracerVao);
    // A million tracers are 12 MB a frame: skip the upload when the caller says they are the
    // ones already in the buffer (a window drawing faster than the simulation steps).
    const auto stale = [count](std::uint64_t version, std::uint64_t uploaded,
                               std::size_t uploadedCount) {
        return version == 0 || version != uploaded || count != uploadedCount;
    };
    if (stale(input.tracerPositionsVersion, m_tracerPositionsVersion, m_tracerPositionsCount)) {
        m_tracerPositions.Upload(input.tracerPositions.data(), count * sizeof(glm::vec3));
        m_tracerPositionsVersion = input.tracerPositionsVersion;
        m_tracerPositionsCount = count;
    }
    if (input.tracerGroups.size() >= count) {
        if (stale(input.tracerGroupsVersion, m_tracerGroupsVersion, m_tracerGroupsCount)) {
            m_tracerGroups.Upload(input.tracerGroups.data(), count * sizeof(std::uint16_t));
            m_tracerGroupsVersion = input.tracerGroupsVersion;
            m_tracerGroupsCount = count;
        }
        glEnableVertexAttribArray(1);
    } else {
        // A disabled array reads the current generic value instead: group 0 for everyone.
        glDisableVertexAttribArray(1);
        glVertexAttribI4ui(1, 0, 0, 0, 1);
    }
    glDrawArrays(GL_POINTS, 0, Count(count));
}

void Renderer::DrawVortons(const FrameInput& input, float pointScale) {
    const std::size_t count = input.vortonPositions.size();
    glUniform1f(m_vortons.Uniform("uPointScale"), pointScale);
    glUniform1f(m_vortons.Uniform("uSize"), input.vortonSize);
    glUniform1f(m_vortons.Uniform("uEdge"), kVortonEdge);

    glBindVertexArray(m_vortonVao);
    m_vortonPositions.Upload(input.vortonPositions.data(), count * sizeof(glm::vec3));
    if (input.vortonStrength.size() >= count) {
        // Colour relative to the strongest vorton so the map spans the whole range every frame.
        float largest = 0.0f;
        for (std::size_t i = 0; i < count; ++i)
            largest = std::max(largest, input.vortonStrength[i]);
        glUniform1f(m_vortons.Uniform("uStrengthScale"), largest > 0.0f ? 1.0f / largest : 0.0f);
        m_vortonStrengths.Upload(input.vortonStrength.data(), count * sizeof(float));
        glEnableVertexAttribArray(1);
    } else {
        glDisableVertexAttribArray(1);
        glUniform1f(m_vortons.Uniform("uStrengthScale"), 1.0f);
        glVertexAttrib1f(1, kDefaultStrength);
    }
    glDrawArrays(GL_POINTS, 0, Count(count));
}

}  // namespace vorton::render
