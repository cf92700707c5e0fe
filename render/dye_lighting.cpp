#include "render/dye_lighting.h"

#include <algorithm>
#include <cmath>

#include <tbb/parallel_for.h>

namespace vorton::render {
namespace {

std::uint32_t Byte(float value01) {
    return std::uint32_t(std::sqrt(std::clamp(value01, 0.0f, 1.0f)) * 255.0f + 0.5f);
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

std::size_t DyeLighting::LightIndex(glm::vec3 p) const {
    const glm::ivec3 v = glm::clamp(glm::ivec3(glm::floor((p - m_light.origin) / m_light.spacing)), glm::ivec3(0),
                                    m_light.size - 1);
    return (std::size_t(v.z) * m_light.size.y + v.y) * m_light.size.x + v.x;
}

glm::vec3 DyeLighting::KeyTransmittance(glm::vec3 p) const {
    const std::uint32_t packed = m_packed[LightIndex(p)];
    return {Unbyte(packed, 0), Unbyte(packed, 8), Unbyte(packed, 16)};
}

float DyeLighting::SkyVisibility(glm::vec3 p) const { return Unbyte(m_packed[LightIndex(p)], 24); }

void DyeLighting::Build(const DyeVolume& dye, const DyeOptics& optics) {
    const VolumeGrid& fine = dye.Grid();
    m_light = VolumeGrid{fine.origin, 2.0f * fine.spacing, (fine.size + 1) / 2};
    m_medium.resize(fine.Count());
    m_packed.resize(m_light.Count());
    if (fine.Empty()) return;
    Downsample(dye, optics);
    SweepSky(optics);
    SweepKey(optics);
    LightMedium(dye, optics);
}

void DyeLighting::Downsample(const DyeVolume& dye, const DyeOptics& optics) {
    const VolumeGrid& fine = dye.Grid();
    const glm::ivec3 n = m_light.size;
    const std::span<const glm::vec4> voxels = dye.Voxels();
    m_coarse.resize(m_light.Count());
    tbb::parallel_for(0, n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j) {
            for (int i = 0; i < n.x; ++i) {
                glm::vec4 sum(0.0f);
                for (int d = 0; d < 8; ++d) {
                    const glm::ivec3 f = 2 * glm::ivec3(i, j, k) + glm::ivec3(d & 1, (d >> 1) & 1, d >> 2);
                    if (f.x < fine.size.x && f.y < fine.size.y && f.z < fine.size.z) {
                        sum += optics.Shown(voxels[(std::size_t(f.z) * fine.size.y + f.y) * fine.size.x + f.x]);
                    }
                }
                m_coarse[(std::size_t(k) * n.y + j) * n.x + i] = 0.125f * sum;
            }
        }
    });
}

void DyeLighting::SweepSky(const DyeOptics& optics) {
    const glm::ivec3 n = m_light.size;
    const std::size_t plane = std::size_t(n.x) * n.y;
    m_sky.resize(m_light.Count());
    // Optical depth from the top of the grid down to each voxel centre, spread a little
    // sideways on the way down (a [1 2 1] filter per plane in x and y).
    std::vector<float> above(plane, 0.0f), spread(plane);
    const float step = optics.skyShare * optics.extinction * m_light.spacing;
    for (int k = n.z - 1; k >= 0; --k) {
        const glm::vec4* v = &m_coarse[std::size_t(k) * plane];
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
                const float depth = 0.25f * sum + half;  // down to this voxel's centre
                m_sky[std::size_t(k) * plane + at] = depth > 0.0f ? std::exp(-depth) : 1.0f;
                above[at] = depth + half;                // on to its bottom face
            }
        });
    }
}

void DyeLighting::SweepKey(const DyeOptics& optics) {
    const glm::ivec3 n = m_light.size;
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
    const float ds = m_light.spacing / along;  // path length between planes, m

    const int nb = n[b], nc = n[c];
    const std::size_t planeSize = std::size_t(nb) * nc;
    std::vector<glm::vec3> prevT(planeSize, glm::vec3(1.0f)), curT(planeSize);
    std::vector<glm::vec3> prevSigma(planeSize, glm::vec3(0.0f)), curSigma(planeSize);
    m_key.resize(m_light.Count());
    for (int step = 0; step < n[a]; ++step) {
        const int p = towardLight > 0 ? n[a] - 1 - step : step;
        const bool first = step == 0;
        tbb::parallel_for(0, nc, [&](int jc) {
            for (int jb = 0; jb < nb; ++jb) {
                const std::size_t at = std::size_t(p) * stride[a] + std::size_t(jb) * stride[b] +
                                       std::size_t(jc) * stride[c];
                const glm::vec3 sigma = optics.Extinction(m_coarse[at]);
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
                const glm::vec3 depth = 0.5f * (sigma + s) * ds;
                // Most of the grid is clear: no exp there.
                curT[here] = depth.r + depth.g + depth.b > 0.0f ? t * glm::exp(-depth) : t;
                const glm::vec3 key = curT[here];
                m_key[at] = key;
                m_packed[at] = Byte(key.r) | (Byte(key.g) << 8) | (Byte(key.b) << 16) | (Byte(m_sky[at]) << 24);
            }
        });
        prevT.swap(curT);
        prevSigma.swap(curSigma);
    }
}

void DyeLighting::LightMedium(const DyeVolume& dye, const DyeOptics& optics) {
    const VolumeGrid& fine = dye.Grid();
    const glm::ivec3 n = fine.size, nl = m_light.size;
    const std::span<const glm::vec4> voxels = dye.Voxels();
    const glm::vec3 l = glm::normalize(optics.toLight);
    tbb::parallel_for(0, n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j) {
            for (int i = 0; i < n.x; ++i) {
                const std::size_t at = (std::size_t(k) * n.y + j) * n.x + i;
                const glm::vec4 v = optics.Shown(voxels[at]);
                if (v.a <= 0.0f) {
                    m_medium[at] = glm::vec4(0.0f);
                    continue;
                }
                // Trilinear in the light grid: fine centre (i + 0.5) h is coarse (i + 0.5) / 2 - 0.5.
                const glm::vec3 g = (glm::vec3(i, j, k) + 0.5f) * 0.5f - 0.5f;
                const glm::vec3 lo = glm::floor(g), f = g - lo;
                const glm::ivec3 base(lo);
                glm::vec3 key(0.0f);
                float sky = 0.0f;
                for (int d = 0; d < 8; ++d) {
                    const glm::ivec3 o(d & 1, (d >> 1) & 1, d >> 2);
                    const glm::ivec3 q = glm::clamp(base + o, glm::ivec3(0), nl - 1);
                    const float w = (o.x ? f.x : 1.0f - f.x) * (o.y ? f.y : 1.0f - f.y) * (o.z ? f.z : 1.0f - f.z);
                    const std::size_t qi = (std::size_t(q.z) * nl.y + q.y) * nl.x + q.x;
                    key += w * m_key[qi];
                    sky += w * m_sky[qi];
                }
                const glm::vec3 centre = fine.origin + (glm::vec3(i, j, k) + 0.5f) * fine.spacing;
                const glm::vec3 light = optics.keyRadiance * key * SphereShadow(optics, centre, l) +
                                        optics.skyRadiance * sky;
                m_medium[at] = glm::vec4(optics.extinction * glm::vec3(v) * light, optics.extinction * v.a);
            }
        }
    });
}

}  // namespace vorton::render
