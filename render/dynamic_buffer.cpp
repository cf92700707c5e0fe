#include "render/dynamic_buffer.h"

#include <glad/gl.h>

#include <algorithm>

namespace vorton::render {

DynamicBuffer::DynamicBuffer() {
    glGenBuffers(1, &m_id);
}

DynamicBuffer::~DynamicBuffer() {
    glDeleteBuffers(1, &m_id);
}

void DynamicBuffer::Upload(const void* data, std::size_t bytes) {
    glBindBuffer(GL_ARRAY_BUFFER, m_id);
    if (bytes == 0) return;
    if (bytes > m_capacity) m_capacity = std::max(bytes, m_capacity + m_capacity / 2);
    // Re-specifying the storage with no data orphans it (the old block lives on for draws
    // still in flight); the sub-upload then fills the fresh block.
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_capacity), nullptr, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), data);
}

}  // namespace vorton::render
