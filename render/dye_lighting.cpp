#include "render/dye_lighting.h"

#include <algorithm>
#include <cmath>

#include <tbb/parallel_for.h>

namespace vorton::render {
namespace {

std::uint32_t Byte(float value01) {
    return std::uint32_t(std::lround(std::sqrt(std::clamp(value01, 0.0f, 1.0f)) * 255.0f));
}

// Share of the key light the spheres let reach p (their shadows, with a soft edge a few
// millimetres wide per metre behind the sphere, as in lighting.glsl).
float SphereShadow(const DyeOptics& optics, const glm::vec3& p, const glm::vec3& toLight) {
    float visible = 1.0f;
    for (const glm::vec4& sphere : optics.spheres) {
        const glm::vec3 c = glm::vec3(sphere) - p;
        const float along = glm::dot(c, toLight);
        if (along <= 0.0f) continue;
        const float miss = glm::length(c - along * toLight);
        const float w = 0.04f * along + 0.002f;
        const float t = std::clamp((miss - (sphere.w - w)) / (2.0f * w), 0.0f, 1.0f);
        visible *= t * t * (3.0f - 2.0f * t);
    }
    return visible;
}

float Unbyte(std::uint32_t packed, int shift) {
    const float v = float((packed >> shift) & 0xffu) / 255.0f;
    return v * v;
}

}  // namespace

glm::vec3 DyeLighting::KeyTransmittance(glm::ivec3 v) const {
    const std::uint32_t p = m_packed[(std::size_t(v.z) * m_grid.size.y + v.y) * m_grid.size.x + v.x];
    return {Unbyte(p, 0), Unbyte(p, 8), Unbyte(p, 16)};
}

float DyeLighting::SkyVisibility(glm::ivec3 v) const {
    return Unbyte(m_packed[(std::size_t(v.z) * m_grid.size.y + v.y) * m_grid.size.x + v.x], 24);
}

void DyeLighting::Build(const DyeVolume& dye, const DyeOptics& optics) {
    m_grid = dye.Grid();
    m_packed.resize(m_grid.Count());
    m_medium.resize(m_grid.Count());
    if (m_grid.Empty()) return;
    SweepSky(dye, optics);
    SweepKey(dye, optics);
}

void DyeLighting::SweepSky(const DyeVolume& dye, const DyeOptics& optics) {
    const glm::ivec3 n = m_grid.size;
    const std::size_t plane = std::size_t(n.x) * n.y;
    const std::span<const glm::vec4> voxels = dye.Voxels();
    m_sky.resize(m_grid.Count());
    // Optical depth from the top of the grid down to each voxel centre, spread a little
    // sideways on the way down (a [1 2 1] filter per plane in x and y).
    std::vector<float> above(plane, 0.0f), spread(plane), blurred(plane);
    const float step = optics.skyShare * optics.extinction * m_grid.spacing;
    for (int k = n.z - 1; k >= 0; --k) {
        const glm::vec4* v = &voxels[std::size_t(k) * plane];
        tbb::parallel_for(0, n.y, [&](int j) {
            for (int i = 0; i < n.x; ++i) {
                const std::size_t at = std::size_t(j) * n.x + i;
                float sum = 2.0f * above[at];
                sum += i > 0 ? above[at - 1] : 0.0f;
                sum += i + 1 < n.x ? above[at + 1] : 0.0f;
                spread[at] = 0.25f * sum;
            }
        });
        tbb::parallel_for(0, n.y, [&](int j) {
            for (int i = 0; i < n.x; ++i) {
                const std::size_t at = std::size_t(j) * n.x + i;
                float sum = 2.0f * spread[at];
                sum += j > 0 ? spread[at - n.x] : 0.0f;
                sum += j + 1 < n.y ? spread[at + n.x] : 0.0f;
                const float half = 0.5f * step * v[at].a;
                blurred[at] = 0.25f * sum + half;  // down to this voxel's centre
                m_sky[std::size_t(k) * plane + at] = std::exp(-blurred[at]);
                above[at] = blurred[at] + half;    // on to its bottom face
            }
        });
    }
}

void DyeLighting::SweepKey(const DyeVolume& dye, const DyeOptics& optics) {
    const glm::ivec3 n = m_grid.size;
    const glm::vec3 l = glm::normalize(optics.toLight);
    // Sweep along the axis the light is most nearly parallel to, starting on its side.
    int a = 0;
    for (int axis = 1; axis < 3; ++axis) {
        if (std::abs(l[axis]) > std::abs(l[a])) a = axis;
    }
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    const std::size_t stride[3] = {1, std::size_t(n.x), std::size_t(n.x) * n.y};
    const float along = std::max(std::abs(l[a]), 1e-6f);
    const int towardLight = l[a] > 0.0f ? 1 : -1;
    // Where a ray through a voxel centre, followed towards the light, crosses the previous
    // plane: offsets ob, oc (|o| ≤ 1) in voxels, split into whole voxels and fractions.
    const float ob = l[b] / along, oc = l[c] / along;
    const int ib = int(std::floor(ob)), ic = int(std::floor(oc));
    const float fb = ob - float(ib), fc = oc - float(ic);
    const float ds = m_grid.spacing / along;  // path length between planes, m

    const int nb = n[b], nc = n[c];
    const std::size_t planeSize = std::size_t(nb) * nc;
    std::vector<glm::vec3> prevT(planeSize, glm::vec3(1.0f)), curT(planeSize);
    std::vector<glm::vec3> prevSigma(planeSize, glm::vec3(0.0f)), curSigma(planeSize);
    const std::span<const glm::vec4> voxels = dye.Voxels();
    // Voxel (i, j, k) from its coordinates along the sweep's axes.
    auto index = [a, b, c](int pa, int pb, int pc) {
        glm::ivec3 v;
        v[a] = pa;
        v[b] = pb;
        v[c] = pc;
        return v;
    };
    for (int step = 0; step < n[a]; ++step) {
        const int p = towardLight > 0 ? n[a] - 1 - step : step;
        const bool first = step == 0;
        tbb::parallel_for(0, nc, [&](int jc) {
            for (int jb = 0; jb < nb; ++jb) {
                const std::size_t at = std::size_t(p) * stride[a] + std::size_t(jb) * stride[b] +
                                       std::size_t(jc) * stride[c];
                const glm::vec3 sigma = optics.Extinction(voxels[at]);
                // Bilinear in the previous plane; outside the grid there is no dye: T = 1.
                glm::vec3 t(0.0f), s(0.0f);
                for (int dc = 0; dc < 2; ++dc) {
                    for (int db = 0; db < 2; ++db) {
                        const float w = (db ? fb : 1.0f - fb) * (dc ? fc : 1.0f - fc);
                        const int qb = jb + ib + db, qc = jc + ic + dc;
                        if (first || qb < 0 || qb >= nb || qc < 0 || qc >= nc) {
                            t += w;
                        } else {
                            const std::size_t q = std::size_t(qc) * nb + qb;
                            t += w * prevT[q];
                            s += w * prevSigma[q];
                        }
                    }
                }
                const std::size_t here = std::size_t(jc) * nb + jb;
                curSigma[here] = sigma;
                curT[here] = t * glm::exp(-0.5f * (sigma + s) * ds);
                const glm::vec3 key = curT[here];
                m_packed[at] = Byte(key.r) | (Byte(key.g) << 8) | (Byte(key.b) << 16) | (Byte(m_sky[at]) << 24);
                const glm::vec4 v = voxels[at];
                const glm::vec3 centre = m_grid.origin + (glm::vec3(index(p, jb, jc)) + 0.5f) * m_grid.spacing;
                const glm::vec3 light = optics.keyRadiance * key * SphereShadow(optics, centre, l) +
                                        optics.skyRadiance * m_sky[at];
                m_medium[at] = glm::vec4(optics.extinction * glm::vec3(v) * light, optics.extinction * v.a);
            }
        });
        prevT.swap(curT);
        prevSigma.swap(curSigma);
    }
}

}  // namespace vorton::render
