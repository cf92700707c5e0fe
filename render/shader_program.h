#pragma once
/// \file
/// A linked GLSL program built from a vertex and a fragment shader file, or from a compute shader.

#include <filesystem>
#include <string>

#include "sim/result.h"

namespace vorton::render {

/// Owns one GL program object. Move-only; needs the creating context current when destroyed.
class ShaderProgram {
public:
    /// Reads `dir/vertexFile` and `dir/fragmentFile`, compiles and links them. A line
    /// `#include "FILE"` in either is replaced by the text of dir/FILE (shared GLSL such as
    /// lighting.glsl; one level deep). Errors name the file that could not be read or compiled
    /// (with the GLSL info log) or the pair that failed to link.
    static Result<ShaderProgram> Load(const std::filesystem::path& dir,
                                      const std::string& vertexFile,
                                      const std::string& fragmentFile);
    /// Reads, compiles and links the compute shader `dir/computeFile` (OpenGL 4.3; the same
    /// `#include` and errors as Load).
    static Result<ShaderProgram> LoadCompute(const std::filesystem::path& dir, const std::string& computeFile);

    ShaderProgram() = default;
    ShaderProgram(ShaderProgram&& other) noexcept;
    ShaderProgram& operator=(ShaderProgram&& other) noexcept;
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;
    ~ShaderProgram();

    /// GL program name (0 when empty).
    unsigned Id() const { return m_id; }
    /// Location of a uniform, -1 if the linker dropped or never had it (GL ignores -1).
    int Uniform(const char* name) const;

private:
    explicit ShaderProgram(unsigned id) : m_id(id) {}
    unsigned m_id = 0;
};

}  // namespace vorton::render
