#pragma once
/// \file
/// A vertex buffer whose whole contents are replaced every frame.

#include <cstddef>

namespace vorton::render {

/// Owns one GL_ARRAY_BUFFER that grows on demand. Not copyable; needs the creating context
/// current when constructed and destroyed.
class DynamicBuffer {
public:
    DynamicBuffer();
    DynamicBuffer(const DynamicBuffer&) = delete;
    DynamicBuffer& operator=(const DynamicBuffer&) = delete;
    ~DynamicBuffer();

    /// Binds the buffer to GL_ARRAY_BUFFER and replaces its contents with `bytes` bytes of
    /// `data`. Orphans the old storage so the driver need not wait for draws still reading it;
    /// grows by 1.5x when too small so steady growth costs few reallocations.
    void Upload(const void* data, std::size_t bytes);
    /// GL buffer name.
    unsigned Id() const { return m_id; }

private:
    unsigned m_id = 0;
    std::size_t m_capacity = 0;  // bytes
};

}  // namespace vorton::render
