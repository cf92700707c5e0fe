#pragma once
/// \file
/// The renderer's timings summed over a run, for the line a headless run prints at its end.

#include <string>

#include "render/renderer.h"

namespace vorton {

/// Sums of render::RenderTimings over the frames of a run.
class RenderStats {
public:
    /// Adds one frame's timings; a frame that rebuilt the dye grid also counts as a rebuild.
    void Add(const render::RenderTimings& t);
    /// Means, e.g. "render: dye grid 96x96x80 of 6.1 mm; per rebuild: splat 4.1 ms, light
    /// 3.2 ms, upload 2.0 ms; per frame: volume pass 20.3 ms at 960x540, particle pass 0.0 ms,
    /// draw 41.0 ms". The volume and particle passes read 0 unless the renderer was profiling
    /// (headless runs are), and each reads 0 in the other's mode.
    std::string Summary() const;

private:
    render::RenderTimings m_sum;
    render::RenderTimings m_last;
    int m_frames = 0;
    int m_rebuilds = 0;
};

}  // namespace vorton
