#include "render/shader_program.h"

#include <glad/gl.h>

#include <fstream>
#include <sstream>
#include <utility>

namespace vorton::render {
namespace {

Result<std::string> ReadText(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error{"Cannot read shader file " + path.string()};
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string ShaderLog(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
    if (length > 0) glGetShaderInfoLog(shader, length, nullptr, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

std::string ProgramLog(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
    if (length > 0) glGetProgramInfoLog(program, length, nullptr, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

Result<GLuint> Compile(GLenum stage, const std::filesystem::path& path) {
    auto source = ReadText(path);
    if (!source) return Error{source.error()};
    const GLuint shader = glCreateShader(stage);
    const char* text = source.value().c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        std::string message =
            "Compiling shader " + path.string() + " failed:\n" + ShaderLog(shader);
        glDeleteShader(shader);
        return Error{std::move(message)};
    }
    return shader;
}

}  // namespace

Result<ShaderProgram> ShaderProgram::Load(const std::filesystem::path& dir,
                                          const std::string& vertexFile,
                                          const std::string& fragmentFile) {
    auto vertex = Compile(GL_VERTEX_SHADER, dir / vertexFile);
    if (!vertex) return Error{vertex.error()};
    auto fragment = Compile(GL_FRAGMENT_SHADER, dir / fragmentFile);
    if (!fragment) {
        glDeleteShader(vertex.value());
        return Error{fragment.error()};
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, vertex.value());
    glAttachShader(program, fragment.value());
    glLinkProgram(program);
    // The program keeps what it needs; flagged shaders go away with it.
    glDeleteShader(vertex.value());
    glDeleteShader(fragment.value());
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        std::string message = "Linking shaders " + (dir / vertexFile).string() + " + " +
                              fragmentFile + " failed:\n" + ProgramLog(program);
        glDeleteProgram(program);
        return Error{std::move(message)};
    }
    return ShaderProgram(program);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
    if (this != &other) {
        if (m_id != 0) glDeleteProgram(m_id);
        m_id = std::exchange(other.m_id, 0);
    }
    return *this;
}

ShaderProgram::~ShaderProgram() {
    if (m_id != 0) glDeleteProgram(m_id);
}

int ShaderProgram::Uniform(const char* name) const {
    return glGetUniformLocation(m_id, name);
}

}  // namespace vorton::render
