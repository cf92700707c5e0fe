#include "render/shader_program.h"

#include <glad/gl.h>

#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string_view>
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

// Replaces each line `#include "FILE"` with the text of FILE from the shader's folder (one
// level: included files include nothing).
Result<std::string> ExpandIncludes(const std::string& text, const std::filesystem::path& dir) {
    static constexpr std::string_view kDirective = "#include \"";
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + start, end - start);
        const std::size_t close = line.find('"', kDirective.size());
        if (line.starts_with(kDirective) && close != std::string_view::npos) {
            auto included = ReadText(dir / std::string(line.substr(kDirective.size(), close - kDirective.size())));
            if (!included) return Error{included.error()};
            out += included.value();
            out += '\n';
        } else {
            out += line;
        }
        start = end;
    }
    return out;
}

Result<GLuint> Compile(GLenum stage, const std::filesystem::path& path) {
    auto text = ReadText(path);
    if (!text) return Error{text.error()};
    auto source = ExpandIncludes(text.value(), path.parent_path());
    if (!source) return Error{path.string() + ": " + source.error()};
    const GLuint shader = glCreateShader(stage);
    const char* code = source.value().c_str();
    glShaderSource(shader, 1, &code, nullptr);
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

namespace {

// Links the compiled shaders into a program; they are deleted either way (the program keeps
// what it needs). `what` names them in the error.
Result<GLuint> Link(std::initializer_list<GLuint> shaders, const std::string& what) {
    const GLuint program = glCreateProgram();
    for (const GLuint shader : shaders) glAttachShader(program, shader);
    glLinkProgram(program);
    for (const GLuint shader : shaders) glDeleteShader(shader);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        std::string message = "Linking shaders " + what + " failed:\n" + ProgramLog(program);
        glDeleteProgram(program);
        return Error{std::move(message)};
    }
    return program;
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
    auto program = Link({vertex.value(), fragment.value()}, (dir / vertexFile).string() + " + " + fragmentFile);
    if (!program) return Error{program.error()};
    return ShaderProgram(program.value());
}

Result<ShaderProgram> ShaderProgram::LoadCompute(const std::filesystem::path& dir, const std::string& computeFile) {
    auto compute = Compile(GL_COMPUTE_SHADER, dir / computeFile);
    if (!compute) return Error{compute.error()};
    auto program = Link({compute.value()}, (dir / computeFile).string());
    if (!program) return Error{program.error()};
    return ShaderProgram(program.value());
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
