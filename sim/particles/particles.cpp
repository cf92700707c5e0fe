#include "sim/particles/particles.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "sim/numerics/step_helpers.h"

namespace vorton {

void Vortons::Clear() {
    position.clear();
    vorticity.clear();
    radius.clear();
    volume.clear();
    group.clear();
    massFraction.clear();
    birthHeight.clear();
}

void Vortons::Add(glm::vec3 x, glm::vec3 omega, float sigma, float v, std::uint16_t g, float fraction) {
    Add(x, omega, sigma, v, g, fraction, x.z);
}

void Vortons::Add(glm::vec3 x, glm::vec3 omega, float sigma, float v, std::uint16_t g, float fraction, float birthZ) {
    birthHeight.push_back(birthZ);
    position.push_back(x);
    vorticity.push_back(omega);
    radius.push_back(sigma);
    volume.push_back(v);
    group.push_back(g);
    massFraction.push_back(g == kAmbientGroup ? 0.0f : fraction);
}

std::size_t Vortons::Compact(std::span<const std::uint8_t> keep) {
    std::size_t out = 0;
    for (std::size_t k = 0; k < Size(); ++k) {
        if (!keep[k]) continue;
        position[out] = position[k];
        vorticity[out] = vorticity[k];
        radius[out] = radius[k];
        volume[out] = volume[k];
        group[out] = group[k];
        massFraction[out] = massFraction[k];
        birthHeight[out] = birthHeight[k];
        ++out;
    }
    const std::size_t removed = Size() - out;
    for (auto* v : {&position, &vorticity}) v->resize(out);
    for (auto* v : {&radius, &volume, &massFraction, &birthHeight}) v->resize(out);
    group.resize(out);
    return removed;
}

void Tracers::Clear() {
    position.clear();
    velocity.clear();
    group.clear();
}

void Tracers::Add(glm::vec3 x, std::uint16_t g) {
    position.push_back(x);
    velocity.push_back(glm::vec3(0.0f));
    group.push_back(g);
}

glm::vec3 CellVorticity(const Vortons& vortons, std::size_t k, float cellVolume) {
    const float v = vortons.volume[k];
    return v < cellVolume ? vortons.vorticity[k] * (v / cellVolume) : vortons.vorticity[k];
}

void HighPassVorticity(const Vortons& vortons, glm::vec3 origin, float h, std::span<float> rate) {
    const std::size_t n = vortons.Size();
    if (n == 0) return;
    if (!(h > 0.0f)) {  // no lattice to filter on: all of |ω| is the rate, as the |ω| model's
        for (std::size_t k = 0; k < n; ++k) rate[k] = glm::length(vortons.vorticity[k]);
        return;
    }
    const double cell = double(h) * double(h) * double(h);
    std::vector<glm::ivec3> point(n);
    glm::ivec3 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
    for (std::size_t k = 0; k < n; ++k) {
        point[k] = glm::ivec3(glm::round((vortons.position[k] - origin) / h));
        lo = glm::min(lo, point[k]);
        hi = glm::max(hi, point[k]);
    }
    // Σα at each lattice point, summed in vorton order (deterministic), on a dense box of
    // points with a margin of one: at most the solver grid's size where the caps hold it
    // (one point per h). A flow spread so thin that the box would hold more than 64 points
    // per vorton (two wakes far apart) takes sorted keys and binary searches instead.
    const glm::ivec3 dims = hi - lo + 3;
    const std::size_t points = std::size_t(dims.x) * std::size_t(dims.y) * std::size_t(dims.z);
    if (points <= std::max<std::size_t>(64 * n, std::size_t(1) << 16)) {
        std::vector<glm::dvec3> alpha(points, glm::dvec3(0.0));
        const auto index = [&](glm::ivec3 c) {
            const glm::ivec3 l = c - lo + 1;
            return (std::size_t(l.z) * std::size_t(dims.y) + std::size_t(l.y)) * std::size_t(dims.x) + std::size_t(l.x);
        };
        for (std::size_t k = 0; k < n; ++k) alpha[index(point[k])] += glm::dvec3(vortons.vorticity[k]) * double(vortons.volume[k]);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 512), [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t k = r.begin(); k != r.end(); ++k) {
                glm::dvec3 box(0.0);
                for (int dk = -1; dk <= 1; ++dk)
                    for (int dj = -1; dj <= 1; ++dj)
                        for (int di = -1; di <= 1; ++di) box += alpha[index(point[k] + glm::ivec3(di, dj, dk))];
                rate[k] = float(glm::length(alpha[index(point[k])] - box / 27.0) / cell);
            }
        });
        return;
    }
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order(n);
    for (std::size_t k = 0; k < n; ++k) order[k] = {CellKey(point[k]), std::uint32_t(k)};
    std::sort(order.begin(), order.end());
    std::vector<std::uint64_t> keys;
    std::vector<glm::dvec3> alpha;
    for (const auto& [key, k] : order) {
        const glm::dvec3 a = glm::dvec3(vortons.vorticity[k]) * double(vortons.volume[k]);
        if (keys.empty() || keys.back() != key) {
            keys.push_back(key);
            alpha.push_back(a);
        } else {
            alpha.back() += a;
        }
    }
    const auto sumAt = [&](glm::ivec3 c) {
        const auto it = std::lower_bound(keys.begin(), keys.end(), CellKey(c));
        return it != keys.end() && *it == CellKey(c) ? alpha[std::size_t(it - keys.begin())] : glm::dvec3(0.0);
    };
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 512), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) {
            glm::dvec3 box(0.0);
            for (int dk = -1; dk <= 1; ++dk)
                for (int dj = -1; dj <= 1; ++dj)
                    for (int di = -1; di <= 1; ++di) box += sumAt(point[k] + glm::ivec3(di, dj, dk));
            rate[k] = float(glm::length(sumAt(point[k]) - box / 27.0) / cell);
        }
    });
}

}  // namespace vorton
