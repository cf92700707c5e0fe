#include "remesh.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <glm/geometric.hpp>

#include "aabb.h"

namespace vorton {

namespace {

/// M4′ interpolation kernel of Monaghan (1985), argument in lattice units.
float M4Prime(float x) {
    x = std::abs(x);
    if (x < 1.0f) return 1.0f - 2.5f * x * x + 1.5f * x * x * x;
    if (x < 2.0f) return 0.5f * (2.0f - x) * (2.0f - x) * (1.0f - x);
    return 0.0f;
}

}  // namespace

bool Remesh(const Lattice& lattice, float sigma, float threshold, std::size_t groupCount, std::size_t maxPoints,
            Vortons& vortons) {
    const std::size_t n = vortons.Size();
    if (n == 0 || lattice.spacing <= 0.0f) return false;
    const float h = lattice.spacing;
    const Aabb box = BoundsOf(vortons.position);
    const glm::ivec3 lo = glm::ivec3(glm::floor((box.min - lattice.origin) / h)) - 2;
    const glm::ivec3 hi = glm::ivec3(glm::floor((box.max - lattice.origin) / h)) + 3;
    const glm::ivec3 dims = hi - lo + 1;
    const std::size_t points = std::size_t(dims.x) * dims.y * dims.z;
    if (points > maxPoints) return false;

    // Groups present get a mass channel each (usually one or two).
    std::vector<int> channelOf(groupCount, -1);
    std::vector<std::uint16_t> groupOfChannel;
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint16_t g = vortons.group[k];
        if (g != kAmbientGroup && channelOf[g] < 0) {
            channelOf[g] = int(groupOfChannel.size());
            groupOfChannel.push_back(g);
        }
    }
    const std::size_t channels = groupOfChannel.size();
    std::vector<glm::vec3> alpha(points, glm::vec3(0.0f));
    std::vector<float> occupancy(points, 0.0f);
    std::vector<float> birth(points, 0.0f);  // Σ weight · birth height
    std::vector<float> mass(points * channels, 0.0f);

    auto index = [&](int i, int j, int k) {
        return (std::size_t(k - lo.z) * std::size_t(dims.y) + std::size_t(j - lo.y)) * std::size_t(dims.x) +
               std::size_t(i - lo.x);
    };
    for (std::size_t p = 0; p < n; ++p) {
        const glm::vec3 u = (vortons.position[p] - lattice.origin) / h;
        const glm::ivec3 base = glm::ivec3(glm::floor(u));
        float w[3][4];
        for (int a = 0; a < 3; ++a) {
            for (int o = 0; o < 4; ++o) w[a][o] = M4Prime(u[a] - float(base[a] - 1 + o));
        }
        const glm::vec3 a = vortons.vorticity[p] * vortons.volume[p];
        const std::uint16_t g = vortons.group[p];
        const int channel = g == kAmbientGroup ? -1 : channelOf[g];
        const float m = channel < 0 ? 0.0f : vortons.massFraction[p] * vortons.volume[p];
        for (int k = 0; k < 4; ++k) {
            for (int j = 0; j < 4; ++j) {
                const float wzy = w[2][k] * w[1][j];
                if (wzy == 0.0f) continue;
                for (int i = 0; i < 4; ++i) {
                    const float weight = wzy * w[0][i];
                    if (weight == 0.0f) continue;
                    const std::size_t idx = index(base.x - 1 + i, base.y - 1 + j, base.z - 1 + k);
                    alpha[idx] += weight * a;
                    occupancy[idx] += weight;
                    birth[idx] += weight * vortons.birthHeight[p];
                    if (channel >= 0) mass[idx * channels + std::size_t(channel)] += weight * m;
                }
            }
        }
    }

    float maxAlpha = 0.0f, maxMass = 0.0f;
    for (std::size_t i = 0; i < points; ++i) {
        maxAlpha = std::max(maxAlpha, glm::length(alpha[i]));
        for (std::size_t c = 0; c < channels; ++c) maxMass = std::max(maxMass, std::abs(mass[i * channels + c]));
    }
    const float volume = h * h * h;
    Vortons out;
    for (int k = lo.z; k <= hi.z; ++k) {
        for (int j = lo.y; j <= hi.y; ++j) {
            for (int i = lo.x; i <= hi.x; ++i) {
                const std::size_t idx = index(i, j, k);
                int best = -1;
                float bestMass = 0.0f;
                for (std::size_t c = 0; c < channels; ++c) {
                    const float m = mass[idx * channels + c];
                    if (std::abs(m) > std::abs(bestMass)) {
                        bestMass = m;
                        best = int(c);
                    }
                }
                const bool keep = occupancy[idx] >= 0.5f || glm::length(alpha[idx]) > threshold * maxAlpha ||
                                  std::abs(bestMass) > threshold * maxMass;
                if (!keep) continue;
                const glm::vec3 x = lattice.origin + h * glm::vec3(i, j, k);
                const std::uint16_t group = best < 0 ? kAmbientGroup : groupOfChannel[std::size_t(best)];
                // Birth height (the stratified density it carries) as a weighted mean.
                const float z0 = std::abs(occupancy[idx]) > 1.0e-6f ? birth[idx] / occupancy[idx] : x.z;
                out.Add(x, alpha[idx] / volume, sigma, volume, group, best < 0 ? 0.0f : bestMass / volume, z0);
            }
        }
    }
    vortons = std::move(out);
    return true;
}

}  // namespace vorton
