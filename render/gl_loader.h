#pragma once
/// \file
/// Loads the OpenGL function pointers (glad) for the context that is current.

#include "sim/result.h"

namespace vorton::render {

/// A platform's "look up a GL function by name" (wrap glfwGetProcAddress or eglGetProcAddress).
using GetProcAddressFn = void* (*)(const char* name);

/// Loads GL through glad for the current context. Error if no context is current, loading
/// fails, or the context is older than OpenGL 3.3 (the message gives the version found).
/// glad's function pointers are process-wide: call again after making another context current.
Status LoadGl(GetProcAddressFn getProcAddress);

/// True when the current context draws on the CPU (Mesa's llvmpipe or softpipe, SwiftShader):
/// the renderer's GL_RENDERER string names one.
bool IsSoftwareRenderer();

}  // namespace vorton::render
