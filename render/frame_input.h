#pragma once
/// \file
/// What the renderer draws in one frame: the camera, the tracers, the spheres, and the look
/// (how the dye is shown, the light, the floor, the backdrop, the exposure).

#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/glm.hpp>

namespace vorton::render {

/// Most dye groups FrameInput::groupColors can hold; extra entries are ignored.
inline constexpr std::size_t kMaxGroups = 64;
/// Most spheres that cast shadows (all are drawn; the first kMaxShadowSpheres cast shadows).
inline constexpr std::size_t kMaxShadowSpheres = 16;

/// Camera matrices for one frame.
struct SceneView {
    glm::mat4 view{1.0f};        ///< world -> view
    glm::mat4 projection{1.0f};  ///< view -> clip (perspective; projection[1][1] sets sprite size)
    glm::vec3 eye{0.0f};         ///< camera position, m
    glm::ivec2 viewport{1, 1};   ///< pixels; Draw() renders into (0,0)..viewport
};

/// A rigid sphere to draw: lit, opaque, with a surface pattern fixed in the
/// body so that its rotation shows.
struct SphereInstance {
    glm::vec3 center{0.0f};    ///< m, world space
    float radius = 0.1f;       ///< m
    glm::mat3 rotation{1.0f};  ///< body → world
    glm::vec3 color{0.9f};     ///< linear RGB 0..1
    bool highlight = false;    ///< hovered or grabbed: drawn brighter with a rim
};

/// How the dye is drawn.
enum class DyeStyle : std::uint8_t {
    Volume,     ///< splatted into a 3D texture and ray-marched: absorbing, lit, self-shadowed
    Particles,  ///< one soft sprite per tracer, lit by the same key light and dye shadows
};

/// The backdrop behind everything.
enum class Backdrop : std::uint8_t {
    Gradient,  ///< dark blue-grey at the top to near black at the bottom (the default)
    Dark,      ///< flat near black
    Light,     ///< pale grey, lighter at the top (a studio cyclorama)
};

/// The look of a frame: everything that is not the simulation's state. Defaults are the
/// demo's default look.
struct Look {
    DyeStyle dye = DyeStyle::Volume;
    Backdrop backdrop = Backdrop::Gradient;
    /// Multiplies the scene's linear radiance before tone mapping (1: as lit).
    float exposure = 1.0f;
    /// Extinction of dye at the concentration it was seeded with, 1/m: the optical depth of a
    /// path of length s through such dye is dyeExtinction·s (Beer–Lambert).
    float dyeExtinction = 25.0f;
    /// Absorption relative to scattering for the colours a dye does not show (≥ 1): 1 gives
    /// grey extinction (the dye's colour is its single-scattering albedo); larger values make
    /// light that passes through a dye take on its colour, so dyes mix by absorption.
    float dyeAbsorption = 2.0f;
    /// Thin dye shown as if denser: concentration C drawn as C^thinDyeGamma (1: as is; 0.5
    /// shows dye at 4 % as if at 20 %), so wakes and tendrils show.
    float thinDyeGamma = 0.85f;
    /// Direction the key light comes from (fixed in the world): azimuth in the xy plane from
    /// +x towards +y, and elevation above it, degrees.
    float lightAzimuth = -30.0f;
    float lightElevation = 55.0f;
    /// Key light radiance (linear, 1 = white of unit intensity) and the sky's ambient light.
    float lightIntensity = 2.4f;
    float ambientIntensity = 0.25f;
    /// A ground plane with a 0.25 m grid, fixed in the world at height floorHeight (m, z).
    bool floor = true;
    float floorHeight = -1.0f;
    /// Depth fog towards the backdrop: density per m beyond the target's distance (0: none).
    float fog = 0.0f;
    /// Voxels of the dye volume (at most), e.g. 128³; the grid fits the dye's box.
    int volumeVoxels = 128 * 128 * 128;
    /// Ray-march step, in voxels (smaller: finer, slower).
    float marchStep = 0.8f;
    /// March at half the frame's width and height, then upsample (about 4x less work).
    bool halfResolution = false;
    /// Particle mode: sprite diameter where tracers are dense, m (sprites grow with the local
    /// tracer spacing, up to 6 times, fading so their coverage is kept), and the opacity of
    /// one such sprite, 0..1.
    float tracerSize = 0.006f;
    float tracerOpacity = 0.35f;
};

/// What to draw; spans are read during Draw() only (no ownership).
struct FrameInput {
    SceneView view;
    Look look;
    /// m, world space, z up.
    std::span<const glm::vec3> tracerPositions;
    /// Per tracer, index into groupColors (same length as tracerPositions). If empty or shorter,
    /// every tracer uses group 0. Indices past the palette use its last colour.
    std::span<const std::uint16_t> tracerGroups;
    /// Names the contents of tracerPositions (and of tracerGroups): when non-zero and equal to
    /// the previous Draw's, with the same length, the buffer uploaded then is drawn again and
    /// the span is not read (nor the dye volume rebuilt, unless the look's dye settings
    /// changed). 0: upload every Draw.
    std::uint64_t tracerPositionsVersion = 0;
    std::uint64_t tracerGroupsVersion = 0;
    /// A GL buffer that already holds tracerPositions (3 floats per tracer, tightly packed:
    /// GpuTracers::PositionBuffer): particle mode draws from it and uploads nothing. 0: none.
    unsigned tracerPositionBuffer = 0;
    /// RGBA dye colour per group, up to kMaxGroups entries; alpha scales the amount of dye
    /// (volume) or the opacity (particles). Empty: pale grey.
    std::span<const glm::vec4> groupColors;
    /// Volume of fluid one tracer stands for, m³ (the seeded dye's volume / tracer count): a
    /// region holding one tracer per tracerVolume has concentration 1. 0: estimated from the
    /// tracers themselves (their mean spacing inside the dye).
    float tracerVolume = 0.0f;
    bool showVortons = false;
    std::span<const glm::vec3> vortonPositions;  ///< m
    /// |vorticity| per vorton, 1/s, coloured relative to the largest (may be empty: one colour).
    std::span<const float> vortonStrength;
    float vortonSize = 0.02f;  ///< m
    /// Rigid spheres; they hide the dye behind them, and the first kMaxShadowSpheres cast
    /// shadows on the dye, the floor and each other.
    std::span<const SphereInstance> spheres;
    bool showBounds = false;
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};  ///< axis-aligned box drawn as 12 lines, m
};

/// The unit vector towards the key light of `look`, world space.
glm::vec3 ToLight(const Look& look);
/// The key light's radiance (a little warm) and the sky's (a little blue), linear RGB.
glm::vec3 KeyRadiance(const Look& look);
glm::vec3 SkyRadiance(const Look& look);

}  // namespace vorton::render
