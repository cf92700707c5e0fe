// The demo's drawing: the snapshot and the view settings as the renderer's frame input
// (DemoApp's drawing half).
#include "app/demo_app.h"

#include <glm/gtc/quaternion.hpp>

#include "app/display_look.h"
#include "sim/particles/seeding.h"

namespace vorton {

namespace {

// The fluid volume one tracer stands for: the groups' volume shared among the tracers (they
// are seeded in proportion to volume), m³; 0 without tracers.
float TracerVolume(const SceneSetup& setup) {
    double volume = 0.0;
    for (const DensityGroup& g : setup.groups) volume += ShapeVolume(g);
    return setup.params.tracerCount > 0 ? float(volume / setup.params.tracerCount) : 0.0f;
}

}  // namespace

void DemoApp::DrawScene() {
    const SimSnapshot& sim = m_front;
    const SceneSetup& setup = DrawnSetup();
    const auto& groups = setup.groups;
    m_palette.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) m_palette[g] = glm::vec4(groups[g].dye, 1.0f);

    render::FrameInput input;
    input.view = m_camera.MakeView(m_context->FramebufferSize());
    // Uploaded straight from the snapshot, and only when it is a new one.
    input.tracerPositions = sim.tracerPositions;
    input.tracerPositionsVersion = sim.serial;
    input.tracerGroups = sim.tracerGroups;
    input.tracerGroupsVersion = sim.tracerGroupsVersion;
    // On the GPU: the dye volume reads the positions read back, the particles their buffer.
    if (sim.tracersOnGpu && m_gpuTracers && m_gpuTracers->Count() == sim.tracerPositions.size()) {
        input.tracerPositionBuffer = m_gpuTracers->PositionBuffer();
    }
    input.groupColors = m_palette;
    // Coloured by a field: the speed's bins stand in for the groups (a new set every step).
    if (m_fieldColours.Update(m_view.display, sim, setup)) {
        input.groupColors = m_fieldColours.Palette();
        if (!m_fieldColours.Groups().empty()) {
            input.tracerGroups = m_fieldColours.Groups();
            input.tracerGroupsVersion = (std::uint64_t(1) << 63) | sim.serial;
        }
    }
    input.look = MakeLook(m_view.display, m_floorHeight);
    input.tracerVolume = TracerVolume(setup);
    input.showVortons = m_view.showVortons && sim.hasVortons;
    if (input.showVortons) {
        input.vortonPositions = sim.vortonPositions;
        input.vortonStrength = sim.vortonStrength;
        input.vortonSize = sim.vortonSize;
    }
    const auto& bodies = sim.bodies;
    m_spheres.clear();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const BodySpec* spec = DrawnBodySpec(i);
        if (!spec) continue;  // removed: gone from the next step
        render::SphereInstance sphere;
        sphere.center = bodies[i].position;
        // Paused, the held body does not step to the cursor: it is drawn where it will go when
        // the run goes on (DrawGrabFeedback says so beside the cursor).
        if (m_paused && int(i) == GrabbedBody() && m_postedTarget) sphere.center = *m_postedTarget;
        sphere.radius = spec->radius;
        sphere.rotation = glm::mat3_cast(bodies[i].orientation);
        sphere.color = spec->color;
        sphere.highlight = int(i) == m_hoveredBody || int(i) == GrabbedBody() || bodies[i].grabbed;
        m_spheres.push_back(sphere);
    }
    input.spheres = m_spheres;
    input.showBounds = m_view.showBounds;
    input.boundsMin = sim.bounds.min;
    input.boundsMax = sim.bounds.max;
    m_renderer->Draw(input);
    m_renderStats.Add(m_renderer->Timings());
}

}  // namespace vorton
