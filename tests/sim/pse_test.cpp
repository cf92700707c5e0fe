// Viscous diffusion by particle strength exchange (docs/METHOD.md §8 "PSE").

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <tbb/task_arena.h>

#include "sim/particles/particles.h"
#include "sim/particles/pse.h"
#include "test_util.h"

namespace vorton {
namespace {

/// Vortons on a cubic lattice of spacing h, σ = h, V = h³, carrying
/// ω = (0, 0, exp(−|x|²/2s²)): a Gaussian blob of variance s² per axis.
/// (PSE acts on each component alone, so a non-solenoidal field is fine here.)
struct Lattice {
    std::vector<glm::vec3> position, vorticity;
    std::vector<float> radius, volume;
};

Lattice GaussianBlob(float h, float s, float extent) {
    Lattice l;
    const int n = int(std::ceil(extent / h));
    for (int k = -n; k <= n; ++k) {
        for (int j = -n; j <= n; ++j) {
            for (int i = -n; i <= n; ++i) {
                const glm::vec3 x = h * glm::vec3(i, j, k);
                l.position.push_back(x);
                l.vorticity.emplace_back(0.0f, 0.0f, std::exp(-glm::dot(x, x) / (2.0f * s * s)));
                l.radius.push_back(h);
                l.volume.push_back(h * h * h);
            }
        }
    }
    return l;
}

/// Σ x² α_z / Σ α_z: the blob's variance along x.
double VarianceX(const Lattice& l) {
    double m0 = 0.0, m2 = 0.0;
    for (std::size_t p = 0; p < l.position.size(); ++p) {
        const double a = double(l.vorticity[p].z) * l.volume[p];
        m0 += a;
        m2 += a * double(l.position[p].x) * l.position[p].x;
    }
    return m2 / m0;
}

/// `count` vortons at uniform random positions in [0, box], each vorticity
/// component uniform in [−1, 1], cores `radius` (times 1 + spread·u with u
/// uniform in [−1, 1] when `spread` > 0), volumes 2.2e-4 m³ ± 30 %, and with
/// `eddy` an eddy viscosity in [0, 4e-4] m²/s each. The same seed gives the
/// same cloud.
Lattice RandomCloud(int count, glm::vec3 box, unsigned seed, float radius, float spread,
                    std::vector<float>* eddy = nullptr) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), pos(0.0f, 1.0f);
    Lattice l;
    for (int p = 0; p < count; ++p) {
        const float x = pos(rng), y = pos(rng), z = pos(rng);
        l.position.push_back(box * glm::vec3(x, y, z));
        const float wx = u(rng), wy = u(rng), wz = u(rng);
        l.vorticity.emplace_back(wx, wy, wz);
        l.radius.push_back(spread > 0.0f ? radius * (1.0f + spread * u(rng)) : radius);
        l.volume.push_back(2.2e-4f * (1.0f + 0.3f * u(rng)));
        if (eddy != nullptr) eddy->push_back(2.0e-4f * (1.0f + u(rng)));
    }
    return l;
}

TEST(Pse, ConservesTotalStrength) {
    // The pair terms are antisymmetric to the bit, so Σ dα/dt vanishes up to
    // the round-off of each vorton's float sum of ~100 neighbour terms:
    // ~1e-7·√100 relative to Σ|dα/dt|; bound 1e-5. Random positions, cores,
    // volumes and vorticity: nothing symmetric to hide behind.
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), pos(0.0f, 1.0f);
    Lattice l;
    for (int p = 0; p < 3000; ++p) {
        l.position.emplace_back(pos(rng), pos(rng), pos(rng));
        l.vorticity.emplace_back(u(rng), u(rng), u(rng));
        l.radius.push_back(0.07f * (1.0f + 0.3f * u(rng)));
        l.volume.push_back(3.3e-4f * (1.0f + 0.3f * u(rng)));
    }
    std::vector<glm::vec3> rate(l.position.size());
    ParticleStrengthExchange pse;
    pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, 1.0e-3f, rate);
    glm::dvec3 sum(0.0);
    double magnitude = 0.0;
    for (const glm::vec3& r : rate) {
        sum += glm::dvec3(r);
        magnitude += glm::length(glm::dvec3(r));
    }
    ASSERT_GT(magnitude, 0.0);
    test::Measured("relative_sum_of_rates", glm::length(sum) / magnitude);
    EXPECT_LT(glm::length(sum), 1.0e-5 * magnitude);
}

TEST(Pse, PairwiseAndGatherPathsAgree) {
    // Equal cores take the pairwise path (each pair once), unequal ones the
    // gather. Random positions, vorticity, volumes and an eddy viscosity; once
    // with equal cores and once with every core one part in 1e6 larger but
    // one: the kernel then changes by ~1e-6, so the two must agree to 1e-5 of
    // the rates' RMS (a missed or doubled pair is ~1e-2). A unit cube has 12
    // layers of cells (the pairwise path in blocks with their own buffers); a
    // box 2.5 tall has 28 (in three phases of layers).
    for (const float height : {1.0f, 2.5f}) {
        std::vector<float> eddy;
        const Lattice l = RandomCloud(int(4000 * height), {1.0f, 1.0f, height}, 11, 0.06f, 0.0f, &eddy);
        ParticleStrengthExchange pse;
        std::vector<glm::vec3> pairwise(l.position.size()), gather(l.position.size());
        pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, 1.0e-3f, pairwise, eddy);
        std::vector<float> nearlyEqual(l.radius.size(), 0.06f * (1.0f + 1.0e-6f));
        nearlyEqual[0] = 0.06f;
        pse.ComputeRates(l.position, l.vorticity, nearlyEqual, l.volume, 1.0e-3f, gather, eddy);
        const double error = test::RelativeRms(pairwise, gather);
        test::Measured(height == 1.0f ? "pairwise_blocks_vs_gather" : "pairwise_phases_vs_gather", error);
        EXPECT_LT(error, 1.0e-5) << "box height " << height;
    }
}

TEST(Pse, PairwisePathsGiveTheSameBitsForAnyThreadCount) {
    // The pairwise path writes each pair's term to both vortons, in row
    // blocks with their own buffers (a unit cube, 12 layers of cells) or in
    // three phases of layers three apart (a box 2.5 tall, 28 layers), and
    // writes a run's last eight lanes whole where they are the task's own.
    // A task writing a rate another task owns, or an order that depends on
    // the threads, changes the bits between 1 and 2 threads.
    for (const float height : {1.0f, 2.5f}) {
        const Lattice l = RandomCloud(int(4000 * height), {1.0f, 1.0f, height}, 5, 0.06f, 0.0f);
        std::vector<std::vector<glm::vec3>> rates;
        for (const int threads : {1, 2}) {
            tbb::task_arena arena(threads);
            ParticleStrengthExchange pse;
            std::vector<glm::vec3> rate(l.position.size());
            arena.execute([&] { pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, 1.0e-3f, rate); });
            rates.push_back(rate);
        }
        std::size_t differing = 0;
        for (std::size_t p = 0; p < rates[0].size(); ++p) {
            if (std::memcmp(&rates[0][p], &rates[1][p], sizeof(glm::vec3)) != 0) ++differing;
        }
        EXPECT_EQ(differing, 0u) << "box height " << height;
    }
}

/// The rates of pse.h's formula summed over every pair in double precision
/// (the cutoff decided on the float distance, as the code does).
std::vector<glm::dvec3> DirectRates(const Lattice& l, float nu, const std::vector<float>& eddy) {
    const std::size_t n = l.position.size();
    const double norm = 4.0 / std::pow(3.14159265358979323846, 1.5);
    std::vector<glm::dvec3> rate(n, glm::dvec3(0.0));
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t q = 0; q < n; ++q) {
            const glm::vec3 d = l.position[p] - l.position[q];
            const float d2 = d.x * d.x + d.y * d.y + d.z * d.z;
            const double eps = 0.5 * (double(l.radius[p]) + l.radius[q]);
            if (!(d2 < float(9.0 * eps * eps))) continue;
            const double eta = norm / (eps * eps * eps) * std::exp(-double(d2) / (eps * eps));
            const double nuPair = double(nu) + 0.5 * (double(eddy[p]) + eddy[q]);
            const glm::dvec3 ap = glm::dvec3(l.vorticity[p]) * double(l.volume[p]);
            const glm::dvec3 aq = glm::dvec3(l.vorticity[q]) * double(l.volume[q]);
            rate[p] += (double(l.volume[p]) * aq - double(l.volume[q]) * ap) * nuPair * eta / (eps * eps);
        }
    }
    return rate;
}

/// ComputeRates at ν = 1e-3 m²/s into `rate`, the O(N²) sum into `direct`, and the RMS
/// of their difference relative to the sum's.
double ErrorAgainstEveryPair(const Lattice& l, const std::vector<float>& eddy, std::vector<glm::vec3>& rate,
                             std::vector<glm::dvec3>& direct) {
    rate.assign(l.position.size(), glm::vec3(0.0f));
    ParticleStrengthExchange pse;
    pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, 1.0e-3f, rate, eddy);
    direct = DirectRates(l, 1.0e-3f, eddy);
    const std::vector<glm::vec3> expected(direct.begin(), direct.end());
    return test::RelativeRms(rate, expected);
}

TEST(Pse, MatchesTheSumOverEveryPair) {
    // The cell list and its runs (cut to the chord through each row) must
    // find every pair within the cutoff: against the O(N²) sum in double,
    // on random positions in a box with 14 layers of cells, equal cores (the
    // pairwise path) and unequal ones (the gather). Float round-off of ~100
    // terms and the exponential's 3e-7 stay below 1e-5 (1.4e-7 measured);
    // runs cut at 0.8 of the chord, which miss only pairs near the cutoff
    // where the kernel is small, gave 5e-5 and 3e-4.
    for (const bool equal : {true, false}) {
        std::vector<float> eddy;
        const Lattice l = RandomCloud(2500, {1.0f, 0.8f, 1.2f}, 23, 0.06f, equal ? 0.0f : 0.2f, &eddy);
        std::vector<glm::vec3> rate;
        std::vector<glm::dvec3> direct;
        const double error = ErrorAgainstEveryPair(l, eddy, rate, direct);
        test::Measured(equal ? "pairwise_vs_every_pair" : "gather_vs_every_pair", error);
        EXPECT_LT(error, 1.0e-5) << (equal ? "equal cores" : "unequal cores");
    }
}

TEST(Pse, AFlowSpreadThinOverALargeBoxMatchesTheSumOverEveryPair) {
    // Two wakes far apart (two balls, one risen and one fallen): the cell
    // list over their box would be mostly empty, so the vortons are split in
    // slabs across gaps of at least the cutoff's reach, each with its own
    // cells. Three clouds: A; B, half a reach above A (pairs across that gap
    // interact, so A and B must stay together); C, 60 m above (alone). Both
    // paths (equal and unequal cores) against the O(N²) sum, to 1e-5 as above.
    for (const bool equal : {true, false}) {
        std::vector<float> eddy, eddyB, eddyC;
        Lattice l = RandomCloud(1200, {1.0f, 0.8f, 1.0f}, 31, 0.06f, equal ? 0.0f : 0.2f, &eddy);
        const float reach = 3.0f * 0.06f * (equal ? 1.0f : 1.2f);
        const Lattice b = RandomCloud(1200, {1.0f, 0.8f, 1.0f}, 32, 0.06f, equal ? 0.0f : 0.2f, &eddyB);
        const Lattice c = RandomCloud(600, {0.5f, 0.5f, 0.5f}, 33, 0.06f, equal ? 0.0f : 0.2f, &eddyC);
        const auto append = [&](const Lattice& from, const std::vector<float>& fromEddy, glm::vec3 shift) {
            for (std::size_t p = 0; p < from.position.size(); ++p) {
                l.position.push_back(from.position[p] + shift);
                l.vorticity.push_back(from.vorticity[p]);
                l.radius.push_back(from.radius[p]);
                l.volume.push_back(from.volume[p]);
                eddy.push_back(fromEddy[p]);
            }
        };
        append(b, eddyB, {0.0f, 0.0f, 1.0f + 0.5f * reach});
        append(c, eddyC, {0.2f, 0.1f, 60.0f});
        std::vector<glm::vec3> rate;
        std::vector<glm::dvec3> direct;
        const double error = ErrorAgainstEveryPair(l, eddy, rate, direct);
        test::Measured(equal ? "slabs_pairwise_vs_every_pair" : "slabs_gather_vs_every_pair", error);
        EXPECT_LT(error, 1.0e-5) << (equal ? "equal cores" : "unequal cores");
        // A's net gain, which is only its exchange with B across the half-reach gap
        // (A's own pairs cancel): B is seen, to 1 % of that exchange.
        glm::dvec3 sumA(0.0), expectedA(0.0);
        double scale = 0.0;
        for (std::size_t p = 0; p < 1200; ++p) {
            sumA += glm::dvec3(rate[p]);
            expectedA += direct[p];
            scale += glm::length(direct[p]);
        }
        test::Measured(equal ? "a_gain_from_b_over_a_rates" : "a_gain_from_b_over_a_rates_unequal",
                       glm::length(expectedA) / scale);
        EXPECT_GT(glm::length(expectedA), 1.0e-5 * scale);  // 3.4e-5 measured
        EXPECT_LT(glm::length(sumA - expectedA), 0.01 * glm::length(expectedA));
    }
}

TEST(Pse, NothingWithoutViscosity) {
    const Lattice l = GaussianBlob(0.1f, 0.3f, 0.6f);
    std::vector<glm::vec3> rate(l.position.size(), glm::vec3(1.0f));
    ParticleStrengthExchange pse;
    pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, 0.0f, rate);
    for (const glm::vec3& r : rate) ASSERT_EQ(r, glm::vec3(0.0f));
}

TEST(Pse, GaussianBlobSpreadsAtTwoNuPerAxis) {
    // Under ∂ω/∂t = ν∇²ω the variance of any blob grows as dVar/dt = 2ν per
    // axis. PSE reproduces this when its kernel's second moment is right
    // (∫ z_x² η_ε dz = 2ε²) and the lattice quadrature of that moment is
    // accurate: the Gaussian kernel sampled at spacing h = ε aliases at
    // ~exp(−π²) ≈ 5e-5, and the cut-off at 3ε drops ~0.3 % of the moment.
    // So the rate must be 2ν within 1 % (a wrong kernel normalisation is a
    // factor, a wrong ε definition ≥ 20 %).
    const float h = 0.05f, s = 0.2f, nu = 1.0e-3f;
    Lattice l = GaussianBlob(h, s, 5.0f * s);
    ParticleStrengthExchange pse;
    std::vector<glm::vec3> rate(l.position.size());
    pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, nu, rate);
    double m0 = 0.0, m2 = 0.0, dm0 = 0.0, dm2 = 0.0;
    for (std::size_t p = 0; p < l.position.size(); ++p) {
        const double x2 = double(l.position[p].x) * l.position[p].x;
        m0 += double(l.vorticity[p].z) * l.volume[p];
        m2 += double(l.vorticity[p].z) * l.volume[p] * x2;
        dm0 += rate[p].z;
        dm2 += rate[p].z * x2;
    }
    const double varianceRate = (dm2 - m2 / m0 * dm0) / m0;
    test::Measured("variance_rate_over_2nu", varianceRate / (2.0 * nu));
    EXPECT_NEAR(varianceRate / (2.0 * nu), 1.0, 0.01);

    // The same over a finite time, stepping α with forward Euler: after
    // T = 1.5 s the variance has grown by 2νT = 0.003 m² (7.5 % of s²). Euler's
    // error in the variance is zero to first order (the rate is constant for a
    // Gaussian), so the same 1 % holds for the growth.
    const double var0 = VarianceX(l);
    const float dt = 0.25f;
    for (int step = 0; step < 6; ++step) {
        pse.ComputeRates(l.position, l.vorticity, l.radius, l.volume, nu, rate);
        for (std::size_t p = 0; p < l.position.size(); ++p)
            l.vorticity[p] += dt * rate[p] / l.volume[p];
    }
    const double growth = VarianceX(l) - var0;
    test::Measured("variance_growth_over_2nuT", growth / (2.0 * nu * 6 * dt));
    EXPECT_NEAR(growth / (2.0 * nu * 6 * dt), 1.0, 0.01);
}

TEST(SubgridRate, HighPassVorticityIsWhatTheBoxFilterLeaves) {
    // HighPassVorticity: |ω − ω̄| with ω̄ the mean over the 3×3×3 lattice points around
    // the vorton. On a lattice of spacing h carrying ω = exp(−|x|²/a²) ẑ, the box filter
    // separates: at the centre ω̄ = [(1 + 2 e^{−(h/a)²})/3]³, so the rate is 1 − that,
    // 0.11635 at a = 4h, and the continuum's (h²/3)|∇²ω| = 2(h/a)² = 0.125 to within
    // its next term. A lone vorton keeps 26/27 of its |ω|: it is all high-pass. Float
    // sums in double: asserted to 1e-6.
    const float h = 0.05f, a = 4.0f * h;
    const glm::vec3 origin(0.0f);
    Vortons blob;
    const int n = 12;
    std::size_t centre = 0;
    for (int k = -n; k <= n; ++k)
        for (int j = -n; j <= n; ++j)
            for (int i = -n; i <= n; ++i) {
                const glm::vec3 x = h * glm::vec3(i, j, k);
                if (i == 0 && j == 0 && k == 0) centre = blob.Size();
                blob.Add(x, glm::vec3(0.0f, 0.0f, std::exp(-glm::dot(x, x) / (a * a))), h, h * h * h, 0);
            }
    std::vector<float> rate(blob.Size());
    HighPassVorticity(blob, origin, h, rate);
    const double e = std::exp(-double(h * h) / double(a * a));
    const double expected = 1.0 - std::pow((1.0 + 2.0 * e) / 3.0, 3.0);
    test::Measured("high_pass_rate_at_a_gaussian_core_centre_a_4h", rate[centre]);
    EXPECT_NEAR(rate[centre], expected, 1e-6);
    EXPECT_NEAR(rate[centre], 0.125, 0.125 * 0.1) << "the continuum's 2(h/a)^2";
    // Off the lattice points by less than h/2 (the drift between remeshes): the same points.
    Vortons moved = blob;
    for (glm::vec3& x : moved.position) x += glm::vec3(0.4f * h, -0.3f * h, 0.2f * h);
    std::vector<float> movedRate(moved.Size());
    HighPassVorticity(moved, origin, h, movedRate);
    EXPECT_EQ(movedRate, rate);
    // A lone vorton, and the same beside the blob but far enough away that the box of
    // points holds more than 64 per vorton (the sorted keys' path): the blob's rates are
    // the dense path's to the bit, and the lone vorton's is 26/27 of its |ω|.
    Vortons far = blob;
    far.Add(glm::vec3(5000.0f * h, 0.0f, 0.0f), glm::vec3(3.0f, 0.0f, 0.0f), h, h * h * h, 0);
    std::vector<float> farRate(far.Size());
    HighPassVorticity(far, origin, h, farRate);
    EXPECT_NEAR(farRate.back(), 3.0 * 26.0 / 27.0, 1e-6);
    farRate.pop_back();
    EXPECT_EQ(farRate, rate);
}

}  // namespace
}  // namespace vorton
