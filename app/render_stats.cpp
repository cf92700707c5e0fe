#include "app/render_stats.h"

#include <cstdio>

namespace vorton {

void RenderStats::Add(const render::RenderTimings& t) {
    ++m_frames;
    if (t.splatMs > 0.0) {
        ++m_rebuilds;
        m_sum.splatMs += t.splatMs;
        m_sum.lightMs += t.lightMs;
        m_sum.uploadMs += t.uploadMs;
    }
    m_sum.marchMs += t.marchMs;
    m_sum.particlesMs += t.particlesMs;
    m_sum.drawMs += t.drawMs;
    m_last = t;
}

std::string RenderStats::Summary() const {
    const double frames = m_frames > 0 ? double(m_frames) : 1.0;
    const double rebuilds = m_rebuilds > 0 ? double(m_rebuilds) : 1.0;
    const render::VolumeGrid& g = m_last.grid;
    char text[320];
    std::snprintf(text, sizeof text,
                  "render: dye grid %dx%dx%d of %.1f mm; per rebuild (%d): splat %.1f ms, light %.1f ms, upload "
                  "%.1f ms; per frame: volume pass %.1f ms at %dx%d, particle pass %.1f ms, draw %.1f ms",
                  g.size.x, g.size.y, g.size.z, 1000.0 * g.spacing, m_rebuilds, m_sum.splatMs / rebuilds,
                  m_sum.lightMs / rebuilds, m_sum.uploadMs / rebuilds, m_sum.marchMs / frames, m_last.marchSize.x,
                  m_last.marchSize.y, m_sum.particlesMs / frames, m_sum.drawMs / frames);
    return text;
}

}  // namespace vorton
