#include "render/gl_loader.h"

#include <glad/gl.h>

#include <string>

namespace vorton::render {
namespace {

// glad wants a function returning a function pointer; the platforms hand us one returning
// void*. The user pointer route avoids casting between the two pointer-to-function types.
GLADapiproc LoadThrough(void* userPtr, const char* name) {
    auto getProcAddress = *static_cast<GetProcAddressFn*>(userPtr);
    return reinterpret_cast<GLADapiproc>(getProcAddress(name));
}

}  // namespace

Status LoadGl(GetProcAddressFn getProcAddress) {
    if (getProcAddress == nullptr) return Error{"OpenGL loader: no GetProcAddress function given"};
    const int version = gladLoadGLUserPtr(&LoadThrough, &getProcAddress);
    if (version == 0) {
        return Error{
            "OpenGL loader: gladLoadGL failed (is a GL context current? could glGetString be "
            "resolved?)"};
    }
    const int major = GLAD_VERSION_MAJOR(version);
    const int minor = GLAD_VERSION_MINOR(version);
    if (major < 3 || (major == 3 && minor < 3)) {
        return Error{"OpenGL 3.3 core is required but the context provides only " +
                     std::to_string(major) + "." + std::to_string(minor)};
    }
    return Ok{};
}

bool IsSoftwareRenderer() {
    const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    if (name == nullptr) return false;
    const std::string renderer(name);
    for (const char* software : {"llvmpipe", "softpipe", "SwiftShader"}) {
        if (renderer.find(software) != std::string::npos) return true;
    }
    return false;
}

}  // namespace vorton::render
