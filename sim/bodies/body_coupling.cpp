// The rigid spheres' boundary conditions and their motion (issue 12):
// no-through by image sources, no-slip by a vortex sheet released each step
// (every SheetStride steps for a slow body or a small dt),
// and the fluid's force from the impulse the body gives the vorticity.
//
// Sources: Cottet & Koumoutsakos, *Vortex Methods* (2000), ch. 4 (the
// potential-flow correction) and ch. 6 (vorticity flux at walls);
// Koumoutsakos, Leonard & Pépin (1994), J. Comput. Phys. 113, 52–61;
// Wu (1981), AIAA J. 19, 432–441 (force from the vortical impulse).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/numerics/step_helpers.h"
#include "sim/simulation.h"
#include "sim/simulation_internals.h"
#include "sim/solvers/biot_savart.h"
#include "sim/solvers/vorton_sources.h"

namespace vorton {

namespace {

constexpr double kPi = std::numbers::pi;
/// New vortons of the sheet are released this many spacings off the surface;
/// vortons closer than kPushSpacings are moved out to the same shell.
constexpr float kReleaseSpacings = 0.5f;
constexpr float kPushSpacings = 0.25f;
/// ForgetFarWake keeps the vorticity within this many cells of side h
/// (Chebyshev) of a layer's or buoyant fluid: the reach of the receivers a remesh keeps
/// around it, where its density gradient is.
constexpr int kFluidHaloCells = RemeshSettings{}.receiverReach;
/// The wall layer: vortons within this many spacings of the surface.
constexpr float kWallLayerSpacings = 2.0f;
/// The vortons that carry a body's sheet, and the vorticity a remesh spread
/// inside a body once moved out, hold this fraction of a lattice cell of
/// fluid. A sheet is strength on a surface, not fluid: the fluid around the
/// wall is the lattice's vortons', and PSE passes the sheet's strength on to
/// them. Released with a cell's volume each, the sheets of the steps between
/// two remeshes piled up k cells of "fluid" on one cell (k = steps per remesh),
/// PSE's quadrature counted each, and the wall layer diffused up to k times
/// too fast: the fixed ball's drag grew as dt shrank (Re 100, R/h 6: Cd 1.04,
/// 1.47 at dt 0.02, 0.01, remeshing every 0.2 s) and the flow never separated
/// (it does at 130–140° with this, Cd 0.90, 0.91; docs/BODIES.md). Results do not
/// change between 1e-2 and 1e-3 (measured); 1e-3 keeps the pile-up of even
/// 40 steps per remesh at 4 %.
constexpr float kSheetVolumeFraction = 1.0e-3f;

/// In a step taken in substeps (Simulation::Substeps), a later substep's sheet
/// at a surface point joins the vorton an earlier substep of the same step
/// released there, if it is still within this many spacings of where the new
/// one goes (SheetMerger), rather than making one more: a step's substeps
/// release one sheet per surface point, as the step would. The wall layer's
/// fluid moves with the body, so the k substeps' sheets piled up where they
/// were released: 70 % of a substepped ball's within h/8 of the last one at
/// the same point (groove.json, docs/BODIES.md, stop 101). That pile slowed
/// a ball thrown at 8 spacings a step to 0.23 of the drag law's speed along
/// x by 0.5 s (0.77 merged); substeps of half a spacing mended it too, at
/// twice the cost (stop 100). Particles this close under cores of 1.5 h are one to the
/// solver; PSE's exchange ν/σ² Σ (V_i ω_j − V_j ω_i) η is linear in the
/// strengths but for the V_i ω_j term, 10⁻³ of the rest at the sheets' volume
/// (kSheetVolumeFraction). The flux onto the particles already at the wall:
/// Ploumhans et al. (2002), J. Comput. Phys. 178. Merging across steps too
/// was tried and not kept (stop 101): it changes every scene with a body.
constexpr float kSheetMergeSpacings = 0.25f;

/// The slip's sheet is released once the flow past the body has carried the
/// last one this fraction of a spacing, speed·interval ≥ kSheetCourant·h
/// (SheetStride). Released more often, the wall layer grows at the rear
/// until the run blows up. A fixed ball at Re 300, R/h 6, 0.6 m/s grew from
/// 2.7 s at dt 0.005 s (U·dt/h 0.15) and held for 12 s at dt 0.0075 and
/// 0.01 s (0.225, 0.3; stops 64–65); released every 2 steps at dt 0.005 s,
/// every 3 or 4 at 0.0025 s, or every 2 at R/h 8, it holds for 8–10 s. The
/// same flow at half the speed and twice the time step (the same discrete
/// problem) grew from 5.6 s, and holds for 10 s released every 2 steps
/// (stops 69–70, docs/BODIES.md). So the limit is this Courant number, not a time.
constexpr float kSheetCourant = 0.25f;

/// s: the longest interval between two releases, for a body at rest or
/// nearly (the criterion above would never release): the slip a flow brings
/// to a still body is then cancelled within this time (a viscous reach
/// √(2ν·0.2 s) of 0.01 m at ν 3e-4 m²/s, about half a scene's spacing).
constexpr float kLongestSheetInterval = 0.2f;

/// Spacings h from a surface point within which the slip is read with the
/// cores slip_read_core·σ (SimParams::slipReadCore, ThinCoreSlipCorrection):
/// each vorton's K_σ (the solver's) is replaced there by K_{fσ}. Read with
/// the full cores, a sheet released h/2 off the wall cancels only part of
/// the slip it was made for (0.58 of the l = 1 slip at R/h 5, σ 1.5 h: the
/// sheet test's gain_poloidal_x), and the releases go on until the slip
/// read at the wall is nil: about twice the sheet, so a ball carries about
/// twice the fluid it should (stop 80, docs/BODIES.md). The vortons' own velocities
/// keep the solver's cores. At 4 h (σ = h, f = 1/4) the two kernels differ
/// by 9 % of the vorton's far field there, about 0.1 % of the velocity of a
/// vorton one spacing from the point, so the cut moves the slip little.
constexpr float kSlipReadReachSpacings = 4.0f;

glm::dvec3 D(glm::vec3 v) { return glm::dvec3(v); }

/// The sheet vortons (volume sheetVolume) from index `first` on within
/// 2·`reach` (m) of one body's release sphere (centre, radius `release`, m),
/// binned by cells of side `reach`. Merge adds a new sheet's strength α (m³/s)
/// at x to the nearest of them within `reach` whose strength has the same
/// sense (α·α_q > 0), at their strength-weighted centre, which keeps Σα and,
/// for parallel strengths, the impulse ½Σx×α. What it does not keep
/// (non-parallel strengths, rounding) is added to `moved`: the change of the
/// fluid's impulse ½Σx×α, m⁴/s (times ρ, momentum), charged to the body.
class SheetMerger {
public:
    SheetMerger(const Vortons& vortons, std::size_t first, float sheetVolume, glm::vec3 center, float release,
                float reach)
        : m_sheetVolume(sheetVolume), m_reach(reach) {
        if (!(reach > 0.0f)) return;
        for (std::size_t k = first; k < vortons.Size(); ++k) {
            if (vortons.volume[k] != sheetVolume) continue;
            const float r = glm::length(vortons.position[k] - center);
            if (std::abs(r - release) > 2.0f * reach) continue;
            m_cells.push_back({CellKey(Cell(vortons.position[k])), std::uint32_t(k)});
        }
        std::sort(m_cells.begin(), m_cells.end());
    }

    bool Merge(Vortons& vortons, glm::vec3 x, const glm::dvec3& alpha, glm::dvec3& moved) const {
        if (m_cells.empty()) return false;
        const glm::ivec3 c = Cell(x);
        std::uint32_t best = 0;
        float bestDistance = m_reach;
        bool found = false;
        for (int dk = -1; dk <= 1; ++dk) {
            for (int dj = -1; dj <= 1; ++dj) {
                for (int di = -1; di <= 1; ++di) {
                    const std::uint64_t key = CellKey(c + glm::ivec3(di, dj, dk));
                    auto it = std::lower_bound(m_cells.begin(), m_cells.end(), std::pair{key, std::uint32_t(0)});
                    for (; it != m_cells.end() && it->first == key; ++it) {
                        const std::uint32_t q = it->second;
                        const float d = glm::length(vortons.position[q] - x);
                        if (d > bestDistance || (d == bestDistance && found)) continue;
                        const glm::dvec3 aq = D(vortons.vorticity[q]) * double(m_sheetVolume);
                        if (!(glm::dot(aq, alpha) > 0.0)) continue;
                        best = q, bestDistance = d, found = true;
                    }
                }
            }
        }
        if (!found) return false;
        const glm::dvec3 xq = D(vortons.position[best]);
        const glm::dvec3 aq = D(vortons.vorticity[best]) * double(m_sheetVolume);
        const double wq = glm::length(aq), wa = glm::length(alpha);
        const glm::vec3 xm = glm::vec3((wq * xq + wa * D(x)) / (wq + wa));
        const glm::vec3 omega = glm::vec3((aq + alpha) / double(m_sheetVolume));
        // The impulse the fluid has, less what it had and the sheet's own at x.
        moved += 0.5 * (glm::cross(D(xm), D(omega) * double(m_sheetVolume)) - glm::cross(xq, aq) -
                        glm::cross(D(x), alpha));
        vortons.position[best] = xm;
        vortons.vorticity[best] = omega;
        return true;
    }

private:
    glm::ivec3 Cell(glm::vec3 x) const { return glm::ivec3(glm::floor(x / m_reach)); }

    float m_sheetVolume;
    float m_reach;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> m_cells;
};

}  // namespace

int SheetStride(float dt, float speed, float spacing) {
    if (!(dt > 0.0f) || !(spacing > 0.0f)) return 1;
    const int longest = std::max(1, int(std::floor(kLongestSheetInterval / dt + 1.0e-3f)));
    const float courant = speed * dt / spacing;
    if (courant >= kSheetCourant) return 1;
    if (!(courant > 0.0f)) return longest;
    return std::min(longest, int(std::ceil(kSheetCourant / courant - 1.0e-3f)));
}

void Simulation::UpdateBodyImages(
    const std::function<void(std::span<const glm::vec3>, std::span<glm::vec3>)>& evaluate, const VortonSources& sources) {
    Internals& in = *m_internals;
    const std::size_t nb = m_bodies.size();
    in.stencils.resize(nb);
    in.images.resize(nb);
    in.surfaceVelocity.resize(nb);
    if (nb == 0) return;
    const float h = Spacing();
    std::vector<glm::vec3> points;
    for (std::size_t b = 0; b < nb; ++b) {
        const float radius = m_setup.bodies[b].radius;
        const std::size_t m = SurfacePointsFor(radius, h);
        if (in.stencils[b].Points() != m) in.stencils[b] = MakeSurfaceStencil(m);
        const glm::vec3 center = BodyCentreAhead(b, m_bodyImageLead);
        for (const glm::vec3& n : in.stencils[b].normal) points.push_back(center + radius * n);
    }
    std::vector<glm::vec3> fluid(points.size(), glm::vec3(0.0f));
    if (m_vortons.Size() > 0) evaluate(points, fluid);
    std::size_t offset = 0;
    for (std::size_t b = 0; b < nb; ++b) {
        const SurfaceStencil& stencil = in.stencils[b];
        const std::size_t m = stencil.Points();
        BodyImage& image = in.images[b];
        image.center = BodyCentreAhead(b, m_bodyImageLead);
        image.radius = m_setup.bodies[b].radius;
        image.relative = m_bodies[b].velocity - m_setup.params.freeStream;
        image.rigidVelocity = image.relative;
        image.angularVelocity = m_bodies[b].angularVelocity;
        const std::span<const glm::vec3> u(fluid.data() + offset, m);
        FitImageSources(stencil, u, image);
        std::vector<glm::vec3>& surface = in.surfaceVelocity[b];
        surface.resize(m);
        for (std::size_t j = 0; j < m; ++j) {
            glm::vec3 v = u[j], unused(0.0f);
            image.Add<false>(points[offset + j], glm::vec3(0.0f), &v, &unused);
            surface[j] = v;
        }
        if (BodySheets()) ThinCoreSlipCorrection(sources, image.center, image.radius, points.data() + offset, surface);
        offset += m;
    }
}

void Simulation::ThinCoreSlipCorrection(const VortonSources& sources, glm::vec3 center, float radius,
                                        const glm::vec3* points, std::span<glm::vec3> surface) const {
    const float fraction = m_setup.params.slipReadCore;
    const std::size_t n = sources.position.size();
    if (n == 0 || !(fraction < 1.0f)) return;
    const float reach = kSlipReadReachSpacings * Spacing();
    const float shell = radius + reach, inner = std::max(0.0f, radius - reach);
    // The vortons within `reach` of the surface, binned in cubes of reach/2
    // about the centre (a counting sort that keeps vorton order within a
    // cube): each point then visits the 5³ cubes around its own, in a fixed
    // order, so its sum does not depend on the thread count.
    const float cube = 0.5f * reach;
    const int cubes = int(std::ceil(2.0f * shell / cube));
    const glm::vec3 corner = center - glm::vec3(shell);
    auto cubeOf = [&](glm::vec3 x) { return glm::clamp(glm::ivec3(glm::floor((x - corner) / cube)), 0, cubes - 1); };
    auto indexOf = [&](glm::ivec3 c) { return std::size_t((c.z * cubes + c.y) * cubes + c.x); };
    std::vector<std::uint32_t> start(std::size_t(cubes) * cubes * cubes + 1, 0), near;
    std::vector<std::uint32_t> cubeIndex;
    for (std::size_t k = 0; k < n; ++k) {
        const glm::vec3 y = sources.position[k] - center;
        const float r2 = glm::dot(y, y);
        if (r2 >= shell * shell || r2 < inner * inner) continue;
        near.push_back(std::uint32_t(k));
        cubeIndex.push_back(std::uint32_t(indexOf(cubeOf(sources.position[k]))));
        ++start[cubeIndex.back() + 1];
    }
    if (near.empty()) return;
    for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
    std::vector<std::uint32_t> sorted(near.size());
    {
        std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
        for (std::size_t i = 0; i < near.size(); ++i) sorted[fill[cubeIndex[i]]++] = near[i];
    }
    const float thin2 = fraction * fraction;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, surface.size(), 16), [&](const auto& range) {
        for (std::size_t j = range.begin(); j != range.end(); ++j) {
            glm::vec3 thin(0.0f), full(0.0f), unused(0.0f);
            const glm::ivec3 home = cubeOf(points[j]);
            const glm::ivec3 lo = glm::max(home - 2, glm::ivec3(0)), hi = glm::min(home + 2, glm::ivec3(cubes - 1));
            for (int cz = lo.z; cz <= hi.z; ++cz) {
                for (int cy = lo.y; cy <= hi.y; ++cy) {
                    for (int cx = lo.x; cx <= hi.x; ++cx) {
                        const std::size_t c = indexOf(glm::ivec3(cx, cy, cz));
                        for (std::uint32_t i = start[c]; i < start[c + 1]; ++i) {
                            const std::uint32_t k = sorted[i];
                            const glm::vec3 r = points[j] - sources.position[k];
                            if (glm::dot(r, r) >= reach * reach) continue;
                            AccumulateVorton<false>(r, sources.alpha[k], thin2 * sources.sigma2[k], glm::vec3(0.0f),
                                                    &thin, &unused);
                            AccumulateVorton<false>(r, sources.alpha[k], sources.sigma2[k], glm::vec3(0.0f), &full,
                                                    &unused);
                        }
                    }
                }
            }
            surface[j] += kOneOverFourPi * (thin - full);
        }
    });
}

void Simulation::AddBodyVelocity(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                                 std::span<const glm::vec3> vorticity, std::span<glm::vec3> stretch) const {
    if (!BodySheets()) {
        AddSkinBodyVelocity(points, velocity, vorticity, stretch);
        return;
    }
    const std::vector<BodyImage>& images = m_internals->images;
    if (images.empty()) return;
    const bool withStretch = !vorticity.empty();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 512), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            const glm::vec3 x = points[i];
            glm::vec3 v(0.0f), s(0.0f);
            bool inside = false;
            for (const BodyImage& image : images) {
                if (image.Inside(x)) {
                    // Inside a body the fluid is the body: its rigid motion.
                    velocity[i] = image.rigidVelocity + glm::cross(image.angularVelocity, x - image.center);
                    inside = true;
                    break;
                }
                if (withStretch) {
                    image.Add<true>(x, vorticity[i], &v, &s);
                } else {
                    image.Add<false>(x, glm::vec3(0.0f), &v, &s);
                }
            }
            if (inside) continue;
            velocity[i] += v;
            if (withStretch) stretch[i] += s;

        }
    });
}

glm::vec3 Simulation::BodyCentreAhead(std::size_t b, float lead) const {
    return m_bodies[b].position + lead * m_bodies[b].velocity;
}

void Simulation::PushVortonsOutOfBodies(std::vector<glm::dvec3>* impulse, float lead) {
    const std::size_t nb = m_bodies.size();
    impulse->resize(nb, glm::dvec3(0.0));
    if (nb == 0) return;
    const float h = Spacing();
    // Serial, in vorton order: the sums do not depend on the thread count.
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
        const glm::vec3 x = m_vortons.position[k];
        for (std::size_t b = 0; b < nb; ++b) {
            const float radius = m_setup.bodies[b].radius;
            const glm::vec3 c = BodyCentreAhead(b, lead);
            const glm::vec3 y = x - c;
            const float r2 = glm::dot(y, y);
            const float layer = radius + kWallLayerSpacings * h;
            if (r2 >= layer * layer) continue;
            const float r = std::sqrt(r2);
            const glm::vec3 n = r > 0.0f ? y / r : glm::vec3(0.0f, 0.0f, 1.0f);
            // The sheet only ever adds tangential vorticity; what tilting
            // gives the wall layer along n would, unchecked, be stretched
            // without bound where the flow leaves the wall (the rear
            // stagnation point), so the layer keeps none. On a still wall
            // no-slip makes ω·n vanish there (it involves only tangential
            // derivatives of the wall's velocity); on a turning wall it is
            // 2Ω·n, which the body's own vorticity 2Ω carries up to the wall
            // (BodyImage): setting it in the layer as well made a free
            // ball's spin and a spinning ball's flow run away (measured).
            // Removing it changes neither impulse nor angular impulse about
            // the centre; Σα's change is the Kelvin term's (CoupleBodies).
            m_vortons.vorticity[k] -= glm::dot(m_vortons.vorticity[k], n) * n;
            const float limit = radius + kPushSpacings * h;
            if (r2 >= limit * limit) break;
            const glm::vec3 y1 = (radius + kReleaseSpacings * h) * n;
            const glm::dvec3 alpha = D(m_vortons.vorticity[k]) * double(m_vortons.volume[k]);
            (*impulse)[b] += 0.5 * glm::cross(D(y1) - D(y), alpha);
            m_vortons.position[k] = c + y1;
            // From inside the body (what a remesh spread there): vorticity the
            // wall made, not fluid; it keeps its strength α and, like the
            // sheet, almost no volume (kSheetVolumeFraction).
            const float sliver = kSheetVolumeFraction * h * h * h;
            if (r < radius && m_vortons.volume[k] > sliver) {
                m_vortons.vorticity[k] *= m_vortons.volume[k] / sliver;
                m_vortons.volume[k] = sliver;
            }
            break;
        }
    }
}

void Simulation::ForgetFarWake() {
    const float reach = m_setup.params.wakeLength;
    if (!(reach > 0.0f) || m_bodies.empty() || m_vortons.Size() == 0) return;
    const std::size_t n = m_vortons.Size();
    m_keep.assign(n, 0);
    // A vorton holding a group's fluid (dye with a density, a layer) is the
    // fluid itself, not wake: it stays wherever the bodies are. So does the
    // vorticity within kFluidHaloCells cells of such fluid that is buoyant (a
    // density deviation from the ambient profile where it is) or a layer's (its
    // deviation is the profile's, 0 where a parcel has left the layers far
    // behind: the profile is flat there): baroclinic generation puts
    // vorticity there, and diffusion passes the fluid's own vorticity on to
    // it. Without that halo a parcel of a layer left far from the ball kept
    // its vorticity alone, its core overlapping no other vorton's, and the
    // flow's strain stretched it without bound (issue 10: stratified_ball with
    // gravity flipped, max|ω| 552 1/s against a 99th percentile of 34 at
    // 120 s; with the halo around buoyant fluid only, parcels at the
    // profile's flat ends did the same from 380 s, 789 against 13 at 420 s).
    // The remesh's receivers (RemeshVortons) go around buoyant groups only:
    // they answer where baroclinic generation needs room, not what to keep.
    const float h = Spacing();
    std::vector<std::uint64_t>& fluidCells = m_fluidCells;
    fluidCells.clear();
    auto cellOf = [&](glm::vec3 x) { return glm::ivec3(glm::floor(x / h)); };
    for (std::size_t k = 0; k < n; ++k) {
        m_keep[k] = m_vortons.group[k] != kAmbientGroup;
        if (m_keep[k] && h > 0.0f && (m_setup.groups[m_vortons.group[k]].layer || VortonDensityDeviation(k) != 0.0f))
            fluidCells.push_back(CellKey(cellOf(m_vortons.position[k])));
    }
    std::sort(fluidCells.begin(), fluidCells.end());
    fluidCells.erase(std::unique(fluidCells.begin(), fluidCells.end()), fluidCells.end());
    auto nearFluid = [&](glm::vec3 x) {
        if (fluidCells.empty() || !(h > 0.0f)) return false;
        const glm::ivec3 c = cellOf(x);
        for (int dk = -kFluidHaloCells; dk <= kFluidHaloCells; ++dk) {
            for (int dj = -kFluidHaloCells; dj <= kFluidHaloCells; ++dj) {
                for (int di = -kFluidHaloCells; di <= kFluidHaloCells; ++di) {
                    if (std::binary_search(fluidCells.begin(), fluidCells.end(), CellKey(c + glm::ivec3(di, dj, dk))))
                        return true;
                }
            }
        }
        return false;
    };
    bool anyGone = false;
    glm::dvec3 lost(0.0);
    for (std::size_t k = 0; k < n; ++k) {
        float nearest = std::numeric_limits<float>::max();
        for (std::size_t b = 0; b < m_bodies.size(); ++b) {
            nearest = std::min(nearest, glm::length(m_vortons.position[k] - m_bodies[b].position));
        }
        const bool withinReach = nearest <= reach;
        if (!m_keep[k]) m_keep[k] = withinReach;
        if (!m_keep[k]) m_keep[k] = nearFluid(m_vortons.position[k]);
        if (!m_keep[k]) {
            anyGone = true;
            lost += D(m_vortons.vorticity[k]) * double(m_vortons.volume[k]);
        }
    }
    // The cut wake takes its net vorticity with it (m_kelvinStrength), as the
    // far wake of a real flow carries it downstream for ever: what crossed
    // the cut since the start is the starting vortex of the body's lift and
    // the net of every vortex it shed. From 132129b to stop 57 it went back, in equal
    // shares, to the kept vortons of the 2h rim inside the cut (and a remesh's
    // drops to the outermost shell); the rim then held all of it for ever at
    // wake_length from the body, and that pinned starting vortex changed the
    // near wake: a fixed ball at Re 480, R/h 5 with wake_length 1.5 m kept a
    // wandering oblique wake (20 % of the side force's power at St 0.1–0.25),
    // where with wake_length 3 m, or letting the net go at 1.5 m, it sheds at
    // St 0.20 (77–79 %) about the same mean side force (C_y 0.123, 0.127).
    if (anyGone) {
        m_kelvinStrength -= lost;
        m_vortons.Compact(m_keep);
        m_cacheValid = false;
    }
}

glm::dvec3 Simulation::TotalStrength() const {
    glm::dvec3 sum(0.0);
    for (std::size_t k = 0; k < m_vortons.Size(); ++k) sum += D(m_vortons.vorticity[k]) * double(m_vortons.volume[k]);
    return sum;
}

void Simulation::CoupleBodies(const StepContext& c) {
    const float dt = c.dt;
    const SimParams& p = m_setup.params;
    const std::size_t nb = m_bodies.size();
    const double rho = p.ambientDensity;
    const float h = Spacing();
    Internals& in = *m_internals;
    std::vector<glm::dvec3> pushI = std::move(m_pendingPushImpulse);
    m_pendingPushImpulse.clear();
    pushI.resize(nb, glm::dvec3(0.0));
    if (p.chargeDiffusion && m_diffusion.size() == m_vortons.Size()) {
        // Diffusion's change of the fluid's impulse this step (the
        // corrector's dt·dα/dt at the vortons' new places, as the impulse
        // budget counts it), each vorton's about the centre of the body
        // nearest its surface: serial, in vorton order. Charged with the
        // push's impulse (charge_diffusion, SimParams::chargeDiffusion).
        for (std::size_t k = 0; k < m_vortons.Size(); ++k) {
            const glm::vec3 x = m_vortons.position[k];
            std::size_t nearest = 0;
            float gap = std::numeric_limits<float>::max();
            for (std::size_t b = 0; b < nb; ++b) {
                const float d = glm::length(x - m_bodies[b].position) - m_setup.bodies[b].radius;
                if (d < gap) gap = d, nearest = b;
            }
            pushI[nearest] += 0.5 * glm::cross(D(x) - D(m_bodies[nearest].position), double(dt) * D(m_diffusion[k]));
        }
    }
    {
        std::vector<glm::dvec3> i1;
        // The vortons are at t + dt: pushed out of where the body will be
        // (x_b + dt·V_b, as for the predictor's image flow), not where it was.
        PushVortonsOutOfBodies(&i1, dt);
        for (std::size_t b = 0; b < nb; ++b) pushI[b] += i1[b];
    }
    if (in.images.size() != nb) {
        // No velocity evaluated yet with these bodies: the image flow of the bodies alone.
        UpdateBodyImages([](std::span<const glm::vec3>, std::span<glm::vec3>) {}, VortonSources{});
    }
    const float sigma = m_vortons.Size() > 0 ? m_vortons.radius[0] : p.coreOverlap * h;
    const float sheetVolume = kSheetVolumeFraction * h * h * h;
    m_collisionImpulse = glm::dvec3(0.0);

    // Each body's sheet for its slip and the fluid's spin at the body. The
    // slip's sheet is released every SheetStride steps for the body's speed
    // through the fluid, |V − U∞| + |Ω|R; the slip left between accumulates.
    // Kelvin's sheet and that of the bodies' own change of velocity (added
    // mass) go every step.
    std::vector<char> releaseSlip(nb);
    for (std::size_t b = 0; b < nb; ++b) {
        const float speed = glm::length(m_bodies[b].velocity - p.freeStream) +
                            glm::length(m_bodies[b].angularVelocity) * m_setup.bodies[b].radius;
        // In substeps (Substeps) the cadence restarts each step, and what is
        // left goes at its end: the next step may take another dt.
        const std::int64_t tick = c.substeps == 1 ? m_steps : c.substep;
        releaseSlip[b] = (tick + 1) % SheetStride(dt, speed, h) == 0 || (c.substeps > 1 && c.LastSubstep());
    }
    std::vector<std::vector<glm::dvec3>> sheets(nb);
    std::vector<glm::dvec3> fluidSpin(nb);
    glm::dvec3 missing = m_kelvinStrength - TotalStrength();
    // Each body's share of Kelvin's difference (below): by the strength Σ|α_j| of the sheet
    // its slip asks for, or by area when no body's asks for any.
    std::vector<double> share(nb, 0.0);
    double shareTotal = 0.0, areaTotal = 0.0;
    for (std::size_t b = 0; b < nb; ++b) {
        const double radius = m_setup.bodies[b].radius;
        const BodyState& body = m_bodies[b];
        SurfaceStencil& stencil = in.stencils[b];
        const std::vector<glm::vec3>& surface = in.surfaceVelocity[b];
        const std::size_t m = stencil.Points();
        const glm::dvec3 w0 = D(body.angularVelocity);
        std::vector<glm::dvec3>& slip = sheets[b];
        slip.resize(m);
        // Slip on the surface: the fluid's velocity minus the surface's.
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(stencil.normal[j]);
            slip[j] = D(surface[j]) + D(p.freeStream) - D(body.velocity) - glm::cross(w0, radius * n);
        }
        // The sheet for the slip, less its rigid rotation ω_s (SheetForSlip);
        // the fluid at the wall turns at ω_s + Ω less the ⅔Ω of the body's
        // own field, which gives the torque (Faxén).
        fluidSpin[b] = SheetForSlip(stencil, radius, h, slip) + w0 / 3.0;
        for (std::size_t j = 0; j < m; ++j) share[b] += glm::length(slip[j]);
        shareTotal += share[b];
        if (!releaseSlip[b]) std::fill(slip.begin(), slip.end(), glm::dvec3(0.0));
        for (std::size_t j = 0; j < m; ++j) missing -= slip[j];
        missing -= 2.0 * SphereVolume(m_setup.bodies[b].radius) * w0;
        areaTotal += radius * radius;
    }
    if (!(shareTotal > 0.0)) {
        for (std::size_t b = 0; b < nb; ++b) share[b] = double(m_setup.bodies[b].radius) * m_setup.bodies[b].radius;
        shareTotal = areaTotal;
    }
    // Kelvin: the vorticity of fluid and bodies together sums to what it was
    // at the start (∫ω dV = ∮n×u dA → 0 over a sphere at infinity: 0 for a
    // flow started from rest), less what remeshing, emitters, the far wake
    // and the layers' sponge deliberately let go (m_kelvinStrength). The
    // particles do not keep it on their own (the wall layer's normal
    // vorticity is removed, the image flow stretches vortons with no
    // reaction), so each body's sheet takes up its share of the difference
    // as a rigid-rotation sheet n × (c × Rn), whose net is 2V_b c. The share
    // goes by the strength of the sheet each body releases, as the losses do
    // (they are made where a body makes vorticity): a body at rest in still
    // water far from another that moves would otherwise be fed half of the
    // mover's difference as a swirl of its own, step after step (a fixed ball
    // 31 m above a falling one: its force grew from 0.02 N to 227 N in 20 s).
    for (std::size_t b = 0; b < nb; ++b) {
        const double radius = m_setup.bodies[b].radius;
        const std::size_t m = sheets[b].size();
        const double area = 4.0 * kPi * radius * radius / double(m);
        const glm::dvec3 c = missing * (share[b] / shareTotal) / (2.0 * SphereVolume(float(radius)));
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(in.stencils[b].normal[j]);
            sheets[b][j] += area * glm::cross(n, glm::cross(c, radius * n));
        }
    }

    // What the sheets' merges moved of the fluid's impulse (SheetMerger),
    // charged to each body at its next step, as the remesh's push-out is.
    std::vector<glm::dvec3> mergeImpulse(nb, glm::dvec3(0.0));
    for (std::size_t b = 0; b < nb; ++b) {
        const BodySpec& spec = m_setup.bodies[b];
        BodyState& body = m_bodies[b];
        const SurfaceStencil& stencil = in.stencils[b];
        const std::size_t m = stencil.Points();
        const double radius = spec.radius;
        const double volume = SphereVolume(spec.radius);
        const double mass = BodyMass(spec);
        const double inertia = BodyInertia(spec);
        body.fluidDensity = FluidDensityAround(b);
        body.weightForce = p.gravity * (float(mass) - body.fluidDensity * float(volume));
        const double area = 4.0 * kPi * radius * radius / double(m);
        const double release = radius + double(kReleaseSpacings * h);
        const glm::dvec3 v0 = D(body.velocity), w0 = D(body.angularVelocity);
        std::vector<glm::dvec3>& sheet = sheets[b];
        // The sheet α_j + dA n_j × (−3/2 ΔV − ΔΩ × R n_j) at x_j = c + (R + d) n_j.
        // A new velocity changes the body's own dipole's slip by −½ΔV and its
        // surface's by −ΔV: the sheet −(3/2) n × ΔV is the whole jump of the
        // potential flow of a translating sphere. The sheet −n × (ΔΩ × Rn) of
        // a turning sphere carries Kelvin's −2ΔΩV. Impulse ½Σx×α = I0 + L ΔV
        // about the body's centre: the sheet's net vorticity Σα is what the
        // body's own (2Ω over its volume) loses, whose impulse about any
        // point cancels ½c×Σα; about the centre neither appears (and the
        // result does not depend on the origin).
        glm::dvec3 i0(0.0);
        glm::dmat3 lin(0.0);
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(stencil.normal[j]);
            const glm::dvec3 y = release * n;
            i0 += 0.5 * glm::cross(y, sheet[j]);
            for (int k = 0; k < 3; ++k) {
                glm::dvec3 e(0.0);
                e[k] = 1.0;
                lin[k] += 0.5 * glm::cross(y, area * glm::cross(n, -1.5 * e));
            }
        }
        glm::dvec3 bound(0.0);
        if (m_bodyFresh[b] && releaseSlip[b]) {
            bound = i0;
            m_bodyFresh[b] = 0;
        }
        // The torque of the fluid turning at the body relative to it (Faxén's
        // law for a sphere, Happel & Brenner 1965 §3.2: 8πμR³(Ω_fluid − Ω)),
        // implicit in Ω so any time step is stable.
        const double friction = 8.0 * kPi * rho * double(p.viscosity) * radius * radius * radius;
        glm::dvec3 dv(0.0), dw(0.0);
        if (const std::optional<glm::vec3> kinematic = KinematicVelocity(b, c.StepLeft(), m_time + double(dt))) {
            // Prescribed (held, fixed, oscillating): its change releases the sheet and
            // accelerates the displaced fluid as a free body's does, so fluidForce is
            // the whole force the body feels.
            dv = D(*kinematic) - v0;
        } else if (spec.density > 0.0f) {
            // Momentum of body and fluid (Wu 1981): m ΔV = F dt − ρ ΔI + ρ V_b ΔV,
            // with ΔI = ΔI_push + I0 + L ΔV.
            const glm::dmat3 a = glm::dmat3(mass - rho * volume) + rho * lin;
            dv = glm::inverse(a) * (D(body.weightForce) * double(dt) - rho * (pushI[b] + i0 - bound));
            dw = friction * double(dt) * (fluidSpin[b] - w0) / (inertia + friction * double(dt));
        }
        body.velocity = glm::vec3(v0 + dv);
        body.angularVelocity = glm::vec3(w0 + dw);
        if (!body.grabbed) body.velocityBeforeGrab = body.velocity;
        body.position += dt * body.velocity;
        const float spin = glm::length(body.angularVelocity);
        if (spin > 0.0f) {
            body.orientation = glm::normalize(glm::angleAxis(spin * dt, body.angularVelocity / spin) * body.orientation);
        }
        // Release the sheet around the moved body; its impulse is the fluid's gain.
        glm::dvec3 gained = pushI[b] - bound;
        const glm::dvec3 c2 = D(body.position);
        // A step's substeps release one sheet at each surface point, as the step would:
        // the later substeps' strength joins the earlier ones' vortons (SheetMerger).
        const std::size_t mergeFrom = c.substep > 0 ? c.stepVortons : m_vortons.Size();
        SheetMerger merger(m_vortons, mergeFrom, sheetVolume, body.position, float(release), kSheetMergeSpacings * h);
        for (std::size_t j = 0; j < m; ++j) {
            const glm::dvec3 n = D(stencil.normal[j]);
            const glm::dvec3 alpha = sheet[j] + area * glm::cross(n, -1.5 * dv - glm::cross(dw, radius * n));
            if (glm::dot(alpha, alpha) == 0.0) continue;
            const glm::dvec3 y = release * n;
            gained += 0.5 * glm::cross(y, alpha);
            const glm::vec3 x = glm::vec3(c2 + y);
            if (merger.Merge(m_vortons, x, alpha, mergeImpulse[b])) continue;
            m_vortons.Add(x, glm::vec3(alpha / double(sheetVolume)), sigma, sheetVolume, kAmbientGroup, 0.0f, x.z);
        }
        const glm::dvec3 fluidMomentum = rho * gained - rho * volume * dv;
        body.fluidForce = glm::vec3(-fluidMomentum / double(dt));
        body.fluidTorque = glm::vec3(friction * (fluidSpin[b] - D(body.angularVelocity)));
        m_collisionImpulse += fluidMomentum;
    }
    if (std::any_of(mergeImpulse.begin(), mergeImpulse.end(), [](const glm::dvec3& i) { return i != glm::dvec3(0.0); })) {
        m_pendingPushImpulse.resize(nb, glm::dvec3(0.0));
        for (std::size_t b = 0; b < nb; ++b) m_pendingPushImpulse[b] += mergeImpulse[b];
    }
}

}  // namespace vorton
