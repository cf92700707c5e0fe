#include "render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <glm/gtc/type_ptr.hpp>

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

    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return renderer;
}

Renderer::~Renderer() {
    const GLuint vaos[] = {m_emptyVao, m_tracerVao, m_vortonVao, m_lineVao};
    glDeleteVertexArrays(4, vaos);
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
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // shaders output premultiplied alpha
    if (input.showBounds) DrawBounds(input, viewProjection);

    // Sprites test against the box but never write depth, so they all blend with each other.
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
    m_tracerPositions.Upload(input.tracerPositions.data(), count * sizeof(glm::vec3));
    if (input.tracerGroups.size() >= count) {
        m_tracerGroups.Upload(input.tracerGroups.data(), count * sizeof(std::uint16_t));
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
