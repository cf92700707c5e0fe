// The solenoidal projection of the lattice vorticity (particles/projection.h).
// Central differences commute, so the central-difference divergence of a
// central-difference curl δ×A is exactly zero and δ×A + δψ splits exactly
// into the two on the periodic box: the projection must return δ×A to the
// round-off of single-precision FFTs (about 1e-6 of the field per transform
// for these sizes; 1e-4 leaves a margin and is still far below the 0.1–1 the
// gradient part makes up).

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <tbb/task_arena.h>

#include "sim/particles/particles.h"
#include "sim/particles/projection.h"
#include "sim/particles/remesh.h"

namespace vorton {
namespace {

constexpr float kH = 0.05f;  // lattice spacing, m

glm::vec3 At(glm::ivec3 i) { return kH * glm::vec3(i); }

/// Central-difference curl of A at lattice point i.
glm::vec3 Curl(const std::function<glm::vec3(glm::ivec3)>& A, glm::ivec3 i) {
    const glm::ivec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const float s = 1.0f / (2.0f * kH);
    return s * glm::vec3((A(i + y).z - A(i - y).z) - (A(i + z).y - A(i - z).y),
                         (A(i + z).x - A(i - z).x) - (A(i + x).z - A(i - x).z),
                         (A(i + x).y - A(i - x).y) - (A(i + y).x - A(i - y).x));
}

/// Central-difference gradient of ψ at lattice point i.
glm::vec3 Gradient(const std::function<float(glm::ivec3)>& psi, glm::ivec3 i) {
    const glm::ivec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const float s = 1.0f / (2.0f * kH);
    return s * glm::vec3(psi(i + x) - psi(i - x), psi(i + y) - psi(i - y), psi(i + z) - psi(i - z));
}

/// A smooth bump of width w about c, cut to zero at Chebyshev distance `reach` lattice steps from the origin.
float Bump(glm::ivec3 i, glm::vec3 c, float w, int reach) {
    if (std::max({std::abs(i.x), std::abs(i.y), std::abs(i.z)}) >= reach) return 0.0f;
    const glm::vec3 d = At(i) - c;
    return std::exp(-glm::dot(d, d) / (w * w));
}

double MaxDifference(const Vortons& v, const std::vector<glm::vec3>& expected) {
    double worst = 0.0;
    for (std::size_t k = 0; k < v.Size(); ++k) worst = std::max(worst, double(glm::length(v.vorticity[k] - expected[k])));
    return worst;
}

double MaxMagnitude(const std::vector<glm::vec3>& f) {
    double m = 0.0;
    for (const glm::vec3& w : f) m = std::max(m, double(glm::length(w)));
    return m;
}

/// Vortons on every lattice point within Chebyshev distance reach + 1 of
/// `shift` (lattice steps) holding δ×A + δψ, A and ψ smooth bumps that vanish
/// from distance `reach` on; `curl` and `gradient` get the two parts.
Vortons CurlPlusGradient(int reach, glm::ivec3 shift, std::vector<glm::vec3>& curl, std::vector<glm::vec3>& gradient) {
    const auto A = [&](glm::ivec3 i) {
        i -= shift;
        return glm::vec3(Bump(i, {0.05f, 0.0f, 0.0f}, 0.15f, reach), 0.5f * Bump(i, {0.0f, -0.1f, 0.05f}, 0.12f, reach),
                         -0.8f * Bump(i, {-0.05f, 0.05f, 0.0f}, 0.18f, reach));
    };
    const auto psi = [&](glm::ivec3 i) { return Bump(i - shift, {0.02f, 0.03f, -0.04f}, 0.15f, reach); };
    Vortons v;
    curl.clear();
    gradient.clear();
    for (int a = -reach - 1; a <= reach + 1; ++a) {
        for (int b = -reach - 1; b <= reach + 1; ++b) {
            for (int c = -reach - 1; c <= reach + 1; ++c) {
                const glm::ivec3 i = shift + glm::ivec3(a, b, c);
                curl.push_back(Curl(A, i));
                gradient.push_back(Gradient(psi, i));
                v.Add(At(i), curl.back() + gradient.back(), 1.5f * kH, kH * kH * kH, kAmbientGroup);
            }
        }
    }
    return v;
}

TEST(SolenoidalProjection, KeepsACurlAndTakesAGradientOut) {
    // A and ψ vanish at Chebyshev distance ≥ 9, so δ×A and δψ vanish beyond
    // 10 and every point where they are not zero holds a vorton.
    std::vector<glm::vec3> curl, gradient;
    Vortons v = CurlPlusGradient(9, glm::ivec3(0), curl, gradient);
    const double scale = MaxMagnitude(curl);
    ASSERT_GT(MaxMagnitude(gradient), 0.3 * scale);  // the gradient part is no small perturbation

    ProjectionReport report;
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {}, v, &report);
    EXPECT_EQ(report.projected, v.Size());
    EXPECT_GT(report.divergenceBefore, 0.1);
    EXPECT_LT(MaxDifference(v, curl), 1.0e-4 * scale);
    // Σα is that of the curl: the gradient of a compact ψ sums to zero, and so does the change.
    EXPECT_LT(glm::length(report.netChange), 1.0e-4 * scale * double(v.Size()) * kH * kH * kH);

    // A field that is already a curl comes back as it was.
    for (std::size_t k = 0; k < v.Size(); ++k) v.vorticity[k] = curl[k];
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {}, v, &report);
    EXPECT_LT(report.divergenceBefore, 1.0e-5);
    EXPECT_LT(MaxDifference(v, curl), 1.0e-4 * scale);
}

TEST(SolenoidalProjection, GroupsFarApartAreProjectedEachOnItsOwnBoxToTheSameAnswer) {
    // Two wakes far apart (two balls): one box over both would grow with the
    // space between them (and pass kMaxProjectionPoints at 33 m of two balls'
    // wakes). Three groups of δ×A + δψ, two of them 200 spacings from the
    // first along z and x: each comes back as its δ×A, as one group alone does
    // (KeepsACurlAndTakesAGradientOut), and the boxes are each a group's.
    std::vector<glm::vec3> curl, gradient, curl2, gradient2, curl3, gradient3;
    Vortons v = CurlPlusGradient(9, glm::ivec3(0), curl, gradient);
    const Vortons far = CurlPlusGradient(9, glm::ivec3(0, 0, 200), curl2, gradient2);
    const Vortons farther = CurlPlusGradient(9, glm::ivec3(200, 0, 200), curl3, gradient3);
    for (const Vortons* w : {&far, &farther}) {
        for (std::size_t k = 0; k < w->Size(); ++k) {
            v.Add(w->position[k], w->vorticity[k], w->radius[k], w->volume[k], kAmbientGroup);
        }
    }
    curl.insert(curl.end(), curl2.begin(), curl2.end());
    curl.insert(curl.end(), curl3.begin(), curl3.end());
    const double scale = MaxMagnitude(curl);
    ProjectionReport report;
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {}, v, &report);
    EXPECT_EQ(report.projected, v.Size());
    EXPECT_LT(MaxDifference(v, curl), 1.0e-4 * scale);
    EXPECT_LT(report.box.z, 100);  // one group's box (one over all would be over 400 points along z)
    EXPECT_LT(report.box.x, 100);
    EXPECT_LT(glm::length(report.netChange), 1.0e-4 * scale * double(v.Size()) * kH * kH * kH);
}

TEST(SolenoidalProjection, GroupsCloserThanTheirSizeShareOneBox) {
    // The separation FarApartForProjection asks for: at least the larger
    // group's extent along some axis.
    const auto group = [](glm::vec3 lo, glm::vec3 hi) {
        VortonCluster g;
        g.box.Grow(lo);
        g.box.Grow(hi);
        return g;
    };
    const VortonCluster a = group({0, 0, 0}, {1, 1, 2});
    EXPECT_FALSE(FarApartForProjection(std::vector<VortonCluster>{a}));
    EXPECT_FALSE(FarApartForProjection(std::vector<VortonCluster>{a, group({0, 0, 3.5f}, {1, 1, 4})}));  // 1.5 < 2
    EXPECT_TRUE(FarApartForProjection(std::vector<VortonCluster>{a, group({0, 0, 4.5f}, {1, 1, 5})}));   // 2.5 ≥ 2
    EXPECT_TRUE(FarApartForProjection(std::vector<VortonCluster>{a, group({3.0f, 0, 0}, {3.5f, 1, 1})}));  // along x
    EXPECT_FALSE(FarApartForProjection(
        std::vector<VortonCluster>{a, group({0, 0, 4.5f}, {1, 1, 5}), group({0, 0, 5.2f}, {1, 1, 5.6f})}));  // 0.2 < 0.5
}

TEST(SolenoidalProjection, ClosesTheWallLayerThroughTheSpinningSphere) {
    // The field of fluid swirling with a spinning sphere: A = (Ω × x) f(r) with
    // f = 1 out to R + 2h, so δ×A is exactly 2Ω at every point inside the
    // sphere (the difference of a linear field is exact), and a swirl whose
    // lines leave the sphere through its poles and close in the fluid around
    // it. Vortons hold only the points outside: their field is not solenoidal
    // alone, but with the sphere's 2Ω it is, and the projection must leave it.
    const float R = 0.2f;
    const glm::vec3 omega(0.3f, -0.2f, 5.0f);
    const auto f = [&](glm::ivec3 i) {
        const float r = glm::length(At(i));
        if (r <= R + 2.0f * kH) return 1.0f;
        const float s = (r - R - 2.0f * kH) / (4.0f * kH);
        return s >= 1.0f ? 0.0f : 0.5f * (1.0f + std::cos(3.14159265f * s));
    };
    const auto A = [&](glm::ivec3 i) { return f(i) * glm::cross(omega, At(i)); };
    const int n = int(std::ceil((R + 6.0f * kH) / kH)) + 2;
    Vortons v;
    std::vector<glm::vec3> fluid;
    for (int a = -n; a <= n; ++a) {
        for (int b = -n; b <= n; ++b) {
            for (int c = -n; c <= n; ++c) {
                const glm::ivec3 i(a, b, c);
                if (glm::length(At(i)) < R) {
                    ASSERT_LT(glm::length(Curl(A, i) - 2.0f * omega), 1.0e-4f * glm::length(omega));
                    continue;
                }
                fluid.push_back(Curl(A, i));
                v.Add(At(i), fluid.back(), 1.5f * kH, kH * kH * kH, kAmbientGroup);
            }
        }
    }
    const double scale = MaxMagnitude(fluid);
    const Vortons original = v;
    const ProjectionSphere sphere{glm::vec3(0.0f), R, omega};
    ProjectionReport report;
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {&sphere, 1}, v, &report);
    EXPECT_LT(report.divergenceBefore, 1.0e-5);
    EXPECT_LT(MaxDifference(v, fluid), 1.0e-4 * scale);

    // Without the sphere the same vortons are far from solenoidal (their
    // lines end on the wall), and the projection changes the wall layer a lot.
    v = original;
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {}, v, &report);
    EXPECT_GT(report.divergenceBefore, 0.05);
    EXPECT_GT(report.changed, 0.05);
}

TEST(SolenoidalProjection, LeavesVortonsOffTheLatticeAlone) {
    Vortons v;
    v.Add({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 1.5f * kH, kH * kH * kH, kAmbientGroup);
    v.Add({0.3f * kH, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}, 1.5f * kH, kH * kH * kH, kAmbientGroup);
    ProjectionReport report;
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {}, v, &report);
    EXPECT_EQ(report.projected, 1u);
    EXPECT_EQ(v.vorticity[1], glm::vec3(0.0f, 2.0f, 0.0f));
    EXPECT_NE(v.vorticity[0], glm::vec3(1.0f, 0.0f, 0.0f));  // a lone point's field is not solenoidal
}

TEST(SolenoidalProjection, LeavesOutASphereFarFromTheVortons) {
    // A ball that has left the fluid (100 m away) must not stretch the box to it.
    Vortons v;
    v.Add({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 1.5f * kH, kH * kH * kH, kAmbientGroup);
    const ProjectionSphere far{glm::vec3(100.0f, 0.0f, 0.0f), 0.2f, glm::vec3(0.0f, 0.0f, 5.0f)};
    ProjectionReport report;
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {&far, 1}, v, &report);
    EXPECT_EQ(report.box, glm::ivec3(4));  // FftSize(2·1 + 2): the lone vorton's box
    // The same sphere next to the vorton is in the box.
    const ProjectionSphere near{glm::vec3(0.3f, 0.0f, 0.0f), 0.2f, glm::vec3(0.0f, 0.0f, 5.0f)};
    ProjectSolenoidal(Lattice{glm::vec3(0.0f), kH}, {&near, 1}, v, &report);
    EXPECT_GT(report.box.x, 20);
}

TEST(SolenoidalProjection, KeptPlansAndBuffersAndAnyThreadCountGiveTheSameBits) {
    // One projection object keeps its plans and buffers from call to call;
    // after boxes of other sizes (other plans, other sines, spectra sized
    // differently) it must give what a fresh one gives, and so must 1, 2 and
    // 4 threads (the line batches' results do not depend on the thread).
    std::vector<glm::vec3> curl, gradient;
    const Vortons small = CurlPlusGradient(6, glm::ivec3(2, -1, 0), curl, gradient);
    const Vortons large = CurlPlusGradient(9, glm::ivec3(0, 3, -2), curl, gradient);
    const Lattice lattice{glm::vec3(0.0f), kH};
    const auto projected = [&](const Vortons& in, SolenoidalProjection* kept) {
        Vortons v = in;
        if (kept) {
            kept->Project(lattice, {}, v);
        } else {
            ProjectSolenoidal(lattice, {}, v);
        }
        return v.vorticity;
    };
    const std::vector<glm::vec3> smallFresh = projected(small, nullptr), largeFresh = projected(large, nullptr);
    ASSERT_NE(smallFresh, small.vorticity);  // the projection does something
    SolenoidalProjection kept;
    EXPECT_EQ(projected(small, &kept), smallFresh);
    EXPECT_EQ(projected(large, &kept), largeFresh);
    EXPECT_EQ(projected(small, &kept), smallFresh);
    EXPECT_EQ(projected(small, &kept), smallFresh);  // the same size twice: the kept plans
    for (int threads : {1, 2, 4}) {
        tbb::task_arena arena(threads);
        arena.execute([&] {
            EXPECT_EQ(projected(large, nullptr), largeFresh) << threads << " threads";
            EXPECT_EQ(projected(large, &kept), largeFresh) << threads << " threads";
        });
    }
}

}  // namespace
}  // namespace vorton
