#include "sim/bodies/body_surface.h"

#include "sim/numerics/simd.h"
#include "sim/numerics/step_helpers.h"
#include "sim/solvers/biot_savart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace vorton {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr float kOneOverFourPiF = float(0.25 / std::numbers::pi);
/// Radius of the image sources, in body radii.
constexpr double kSourceRadius = 0.6;
/// Beyond this many radii the sources are summed as their dipole.
constexpr float kNearRadii = 6.0f;
/// Width (standard deviation) of the smoothing of the slip, in spacings.
constexpr double kSlipSmoothSpacings = 1.0;

std::vector<glm::dvec3> FibonacciSphere(std::size_t n) {
    std::vector<glm::dvec3> p(n);
    const double golden = kPi * (3.0 - std::sqrt(5.0));
    for (std::size_t i = 0; i < n; ++i) {
        const double z = 1.0 - (2.0 * double(i) + 1.0) / double(n);
        const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
        const double phi = golden * double(i);
        p[i] = glm::dvec3(r * std::cos(phi), r * std::sin(phi), z);
    }
    return p;
}

/// Solves A X = B in place for symmetric positive definite A (n×n) and
/// B (n×m), row-major, by Cholesky.
void CholeskySolve(std::vector<double>& a, std::size_t n, std::vector<double>& b, std::size_t m) {
    for (std::size_t j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
        d = std::sqrt(std::max(d, 1e-300));
        a[j * n + j] = d;
        for (std::size_t i = j + 1; i < n; ++i) {
            double s = a[i * n + j];
            for (std::size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / d;
        }
    }
    for (std::size_t c = 0; c < m; ++c) {
        for (std::size_t i = 0; i < n; ++i) {  // L y = b
            double s = b[i * m + c];
            for (std::size_t k = 0; k < i; ++k) s -= a[i * n + k] * b[k * m + c];
            b[i * m + c] = s / a[i * n + i];
        }
        for (std::size_t i = n; i-- > 0;) {  // Lᵀ x = y
            double s = b[i * m + c];
            for (std::size_t k = i + 1; k < n; ++k) s -= a[k * n + i] * b[k * m + c];
            b[i * m + c] = s / a[i * n + i];
        }
    }
}

}  // namespace

std::size_t SurfacePointsFor(float radius, float spacing) {
    if (!(spacing > 0.0f)) return 48;
    const double r = double(radius) / double(spacing);
    // OctahedralSphere's points come in 48s.
    return 48 * std::max<std::size_t>(1, std::size_t(std::lround(4.0 * kPi * r * r / 48.0)));
}

/// n (a multiple of 8) points of the unit sphere at uniform area density, invariant under
/// the three mirrors x → −x, y → −y and z → −z (and so under the half turns about the
/// axes): n/8 points of a Fibonacci lattice on the octant x, y, z > 0 (z and the azimuth
/// are equal-area coordinates: z uniform, the azimuth a golden-ratio sequence over the
/// quarter turn), and their seven images. Each point keeps half a mean spacing √(4π/n)
/// from the mirror planes, so none is nearly its own image.
/// - A Fibonacci sphere has no symmetry: on a ball spinning about z it gave a steady side
///   force of 1.5e-3 ρΩ²R⁴ (spinning_ball, body_sheet), which seeded the mode that ended
///   the run at 50 s.
/// - A set with only the half turn about z and the mirror z → −z (stops 44 to 54) is not
///   mirror-symmetric across a ball moving along x: a fixed ball in a stream along x felt
///   a steady side force along y from the first seconds (C_y −0.03 to −0.09 at Re 480).
std::vector<glm::dvec3> SymmetricSphere(std::size_t n) {
    const std::size_t k = n / 8;
    std::vector<glm::dvec3> p;
    p.reserve(8 * k);
    const double fraction = (3.0 - std::sqrt(5.0)) / 2.0;  // the golden angle over a full turn
    const double spacing = std::sqrt(4.0 * kPi / double(n));
    for (std::size_t i = 0; i < k; ++i) {
        const double z = 1.0 - (double(i) + 0.5) / double(k);
        const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
        const double margin = std::min(0.25 * kPi, 0.5 * spacing / r);
        const double phi = margin + (0.5 * kPi - 2.0 * margin) * std::fmod((double(i) + 0.5) * fraction, 1.0);
        const glm::dvec3 a(r * std::cos(phi), r * std::sin(phi), z);
        for (const double sz : {1.0, -1.0}) {
            for (const double sy : {1.0, -1.0}) {
                for (const double sx : {1.0, -1.0}) p.push_back(glm::dvec3(sx * a.x, sy * a.y, sz * a.z));
            }
        }
    }
    return p;
}

namespace {

/// Arvo's area-preserving map of the unit square onto the spherical triangle ABC
/// (J. Arvo, "Stratified sampling of spherical triangles", SIGGRAPH 1995): u1 sweeps the
/// area from the edge AB (through the point Ĉ on AC that cuts off area u1·|ABC|), u2 the
/// arc from B to Ĉ by equal area. alpha is the angle at A, c the arc AB, area |ABC|.
glm::dvec3 ArvoTriangle(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, double alpha, double arcAB, double area,
                        double u1, double u2) {
    const double s = std::sin(u1 * area - alpha), t = std::cos(u1 * area - alpha);
    const double u = t - std::cos(alpha), v = s + std::sin(alpha) * std::cos(arcAB);
    const double q = std::clamp(((v * t - u * s) * std::cos(alpha) - v) / ((v * s + u * t) * std::sin(alpha)), -1.0, 1.0);
    const glm::dvec3 cHat = q * a + std::sqrt(1.0 - q * q) * glm::normalize(c - glm::dot(c, a) * a);
    const double z = 1.0 - u2 * (1.0 - glm::dot(cHat, b));
    return z * b + std::sqrt(std::max(0.0, 1.0 - z * z)) * glm::normalize(cHat - glm::dot(cHat, b) * b);
}

/// The 48 symmetries of the cube (the group O_h: the permutations of the axes times
/// the sign changes) applied to p, in a fixed order.
std::array<glm::dvec3, 48> CubeImages(glm::dvec3 p) {
    static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    std::array<glm::dvec3, 48> out;
    std::size_t i = 0;
    for (const auto& perm : kPerm) {
        for (int signs = 0; signs < 8; ++signs) {
            out[i++] = glm::dvec3((signs & 1 ? -1.0 : 1.0) * p[perm[0]], (signs & 2 ? -1.0 : 1.0) * p[perm[1]],
                                  (signs & 4 ? -1.0 : 1.0) * p[perm[2]]);
        }
    }
    return out;
}

/// n (a multiple of 48) points of the unit sphere at near-uniform spacing with all 48
/// symmetries of the cube, so that x, y and z are alike: n/48 points of the triangle
/// x ≥ y ≥ z ≥ 0 (a 48th of the sphere) and their images under CubeImages.
/// - The n/48 points start as a Fibonacci lattice of the unit square carried onto the
///   triangle by Arvo's equal-area map, then are moved 100 times along the tangential
///   inverse-square repulsion of every other point of the whole set (their own images
///   included, which keeps them off the mirror planes): nearest-neighbour distances
///   then lie in 0.77–0.97 of √(4π/n) (n = 336 and 816; the unrelaxed map: 0.13–1.03).
/// - Why all 48: with only the three mirrors (SymmetricSphere) the pole sits on z, so
///   across a stream along x the directions y and z are not alike, and which wake a
///   fixed ball at Re 480 took (shedding at St 0.17–0.20 or a slow swing at St 0.06)
///   followed the pole's axis and the ball's place on the lattice (issue 12).
std::vector<glm::dvec3> OctahedralSphere(std::size_t n) {
    const std::size_t k = n / 48;
    const glm::dvec3 a(1.0, 0.0, 0.0), b = glm::normalize(glm::dvec3(1.0, 1.0, 0.0)),
                     c = glm::normalize(glm::dvec3(1.0, 1.0, 1.0));
    const double alpha = 0.25 * kPi, area = 4.0 * kPi / 48.0;  // angles π/4, π/2, π/3
    const double arcAB = std::acos(glm::dot(a, b));
    const double fraction = (3.0 - std::sqrt(5.0)) / 2.0;
    std::vector<glm::dvec3> base(k);
    for (std::size_t i = 0; i < k; ++i) {
        base[i] = ArvoTriangle(a, b, c, alpha, arcAB, area, (double(i) + 0.5) / double(k),
                               std::fmod((double(i) + 0.5) * fraction, 1.0));
    }
    const double spacing = std::sqrt(4.0 * kPi / double(48 * k));
    const double step = 0.05 * spacing * spacing * spacing;  // a twentieth of a spacing from a neighbour's push
    std::vector<glm::dvec3> all(48 * k), moved(k);
    for (int iteration = 0; iteration < 100; ++iteration) {
        for (std::size_t i = 0; i < k; ++i) {
            const auto images = CubeImages(base[i]);
            std::copy(images.begin(), images.end(), all.begin() + std::ptrdiff_t(48 * i));
        }
        for (std::size_t i = 0; i < k; ++i) {
            glm::dvec3 force(0.0);
            for (const glm::dvec3& q : all) {
                const glm::dvec3 d = base[i] - q;
                const double d2 = glm::dot(d, d);
                if (d2 < 1e-20) continue;  // itself
                force += d / (d2 * std::sqrt(d2));
            }
            force -= glm::dot(force, base[i]) * base[i];
            moved[i] = glm::normalize(base[i] + step * force);
        }
        base.swap(moved);
    }
    std::vector<glm::dvec3> p;
    p.reserve(48 * k);
    for (const glm::dvec3& x : base) {
        const auto images = CubeImages(x);
        p.insert(p.end(), images.begin(), images.end());
    }
    return p;
}

/// n points of the unit sphere: the 48-fold set for n a multiple of 48, else the
/// three mirrors' set for a multiple of 8, else a Fibonacci sphere.
std::vector<glm::dvec3> SpherePoints(std::size_t n) {
    if (n % 48 == 0) return OctahedralSphere(n);
    return n % 8 == 0 ? SymmetricSphere(n) : FibonacciSphere(n);
}

}  // namespace

SurfaceStencil MakeSurfaceStencil(std::size_t points) {
    const std::size_t m = std::max<std::size_t>(points, 16);
    std::size_t k = std::min<std::size_t>(m / 2, 96);
    // The sources with the points' symmetry: 48-fold from 96 points on, else 8-fold.
    if (m % 48 == 0 && k >= 48) {
        k -= k % 48;
    } else if (m % 8 == 0) {
        k -= k % 8;
    }
    const std::vector<glm::dvec3> n = SpherePoints(m);
    std::vector<glm::dvec3> s = SpherePoints(k);
    for (glm::dvec3& p : s) p *= kSourceRadius;
    // G (M×K): normal velocity at point j of a unit source at s_k.
    std::vector<double> g(m * k);
    for (std::size_t j = 0; j < m; ++j) {
        for (std::size_t c = 0; c < k; ++c) {
            const glm::dvec3 d = n[j] - s[c];
            const double r = glm::length(d);
            g[j * k + c] = glm::dot(n[j], d) / (4.0 * kPi * r * r * r);
        }
    }
    // Normal equations with Tikhonov and a zero-sum row: (GᵀG + λI + w²11ᵀ) q = Gᵀ b.
    std::vector<double> a(k * k, 0.0);
    for (std::size_t r = 0; r < k; ++r) {
        for (std::size_t c = 0; c < k; ++c) {
            double sum = 0.0;
            for (std::size_t j = 0; j < m; ++j) sum += g[j * k + r] * g[j * k + c];
            a[r * k + c] = sum;
        }
    }
    double trace = 0.0;
    for (std::size_t r = 0; r < k; ++r) trace += a[r * k + r];
    const double lambda = 1.0e-6 * trace / double(k);
    const double w2 = trace / double(k);
    for (std::size_t r = 0; r < k; ++r) {
        a[r * k + r] += lambda;
        for (std::size_t c = 0; c < k; ++c) a[r * k + c] += w2;
    }
    std::vector<double> rhs(k * m);
    for (std::size_t r = 0; r < k; ++r) {
        for (std::size_t j = 0; j < m; ++j) rhs[r * m + j] = g[j * k + r];
    }
    CholeskySolve(a, k, rhs, m);
    SurfaceStencil out;
    out.normal.reserve(m);
    for (const glm::dvec3& p : n) out.normal.emplace_back(p);
    for (const glm::dvec3& p : s) out.source.emplace_back(p);
    out.fit.assign(rhs.begin(), rhs.end());
    return out;
}

void PrepareSlipSmoothing(SurfaceStencil& stencil, double radiusOverSpacing, double widthSpacings) {
    if (stencil.smoothingFor == radiusOverSpacing) return;
    const std::size_t m = stencil.Points();
    // exp(−d²/2s²) with d the chord in spacings: d² = (R/h)²|n_j − n_k|².
    const double s2 = 2.0 * widthSpacings * widthSpacings;
    const double q2 = radiusOverSpacing * radiusOverSpacing;
    stencil.smoothStart.assign(1, 0);
    stencil.smoothIndex.clear();
    stencil.smoothWeight.clear();
    for (std::size_t j = 0; j < m; ++j) {
        const glm::dvec3 nj(stencil.normal[j]);
        const std::size_t first = stencil.smoothWeight.size();
        double sum = 0.0;
        for (std::size_t k = 0; k < m; ++k) {
            const glm::dvec3 dn = nj - glm::dvec3(stencil.normal[k]);
            const double d2 = q2 * glm::dot(dn, dn);
            if (d2 > 4.5 * s2) continue;
            const double w = std::exp(-d2 / s2);
            stencil.smoothIndex.push_back(std::uint32_t(k));
            stencil.smoothWeight.push_back(w);
            sum += w;
        }
        for (std::size_t i = first; i < stencil.smoothWeight.size(); ++i) stencil.smoothWeight[i] /= sum;
        stencil.smoothStart.push_back(std::uint32_t(stencil.smoothWeight.size()));
    }
    stencil.smoothingFor = radiusOverSpacing;
}

void SmoothSlip(const SurfaceStencil& stencil, std::vector<glm::dvec3>& slip) {
    std::vector<glm::dvec3> smooth(slip.size(), glm::dvec3(0.0));
    for (std::size_t j = 0; j < slip.size(); ++j) {
        for (std::uint32_t i = stencil.smoothStart[j]; i < stencil.smoothStart[j + 1]; ++i) {
            smooth[j] += stencil.smoothWeight[i] * slip[stencil.smoothIndex[i]];
        }
    }
    slip.swap(smooth);
}

glm::dvec3 SheetForSlip(SurfaceStencil& stencil, double radius, double spacing, std::vector<glm::dvec3>& slip) {
    const std::size_t m = stencil.Points();
    PrepareSlipSmoothing(stencil, radius / spacing, kSlipSmoothSpacings);
    SmoothSlip(stencil, slip);
    glm::dvec3 q(0.0);
    for (std::size_t j = 0; j < m; ++j) q += glm::cross(glm::dvec3(stencil.normal[j]), slip[j]);
    const glm::dvec3 rotation = 1.5 / (double(m) * radius) * q;
    const double area = 4.0 * kPi * radius * radius / double(m);
    for (std::size_t j = 0; j < m; ++j) {
        const glm::dvec3 n(stencil.normal[j]);
        slip[j] = area * glm::cross(n, slip[j] - glm::cross(rotation, radius * n));
    }
    return rotation;
}

bool BodyImage::Inside(glm::vec3 x) const {
    const glm::vec3 d = x - center;
    return glm::dot(d, d) < radius * radius;
}

namespace {

// Eight-lane vectors passed between inline helpers of this file only: the
// ABI note about 32-byte vectors without AVX does not concern us.
#pragma GCC diagnostic ignored "-Wpsabi"

/// Σ_k q_k e/|e|³ (e = x − x_k) and, when kStretch, Σ_k q_k (ω/|e|³ − 3e(e·ω)/|e|⁵)
/// (∇u of a source is symmetric), eight sources at a time; without the 1/4π.
/// Built for AVX2 and for the baseline, picked at load time; both do the same
/// operations lane by lane, so they give the same bits.
template <bool kStretch>
[[gnu::always_inline]] inline void SumSources(const BodyImage& image, glm::vec3 x, glm::vec3 omega, glm::vec3* v,
                                              glm::vec3* s) {
    Float8 vx{}, vy{}, vz{}, sx{}, sy{}, sz{};
    for (std::size_t k = 0; k < image.strength.size(); k += 8) {
        const Float8 ex = x.x - Load8(&image.sourceX[k]), ey = x.y - Load8(&image.sourceY[k]),
                     ez = x.z - Load8(&image.sourceZ[k]);
        const Float8 q = Load8(&image.strength[k]);
        const Float8 e2 = ex * ex + ey * ey + ez * ez;
        Float8 root;
        for (int l = 0; l < 8; ++l) root[l] = std::sqrt(e2[l]);
        const Float8 qInv3 = q / (e2 * root);
        vx += qInv3 * ex;
        vy += qInv3 * ey;
        vz += qInv3 * ez;
        if constexpr (kStretch) {
            const Float8 t = 3.0f * (ex * omega.x + ey * omega.y + ez * omega.z) / e2;
            sx += qInv3 * (omega.x - t * ex);
            sy += qInv3 * (omega.y - t * ey);
            sz += qInv3 * (omega.z - t * ez);
        }
    }
    *v = glm::vec3(Sum8(vx), Sum8(vy), Sum8(vz));
    if constexpr (kStretch) *s = glm::vec3(Sum8(sx), Sum8(sy), Sum8(sz));
}

VORTON_AVX2_CLONES void SumSourcesVelocity(const BodyImage& image, glm::vec3 x, glm::vec3* v) {
    SumSources<false>(image, x, glm::vec3(0.0f), v, nullptr);
}

VORTON_AVX2_CLONES void SumSourcesStretch(const BodyImage& image, glm::vec3 x, glm::vec3 omega, glm::vec3* v,
                                          glm::vec3* s) {
    SumSources<true>(image, x, omega, v, s);
}

}  // namespace

template <bool kStretch>
void BodyImage::Add(glm::vec3 x, glm::vec3 omega, glm::vec3* velocity, glm::vec3* stretch) const {
    const glm::vec3 d = x - center;
    const float r2 = glm::dot(d, d);
    // The translation dipole: u = (R³/2)(3 n(n·W) − W)/r³ (Lamb §92).
    if (relative != glm::vec3(0.0f)) {
        AddDipoleField<kStretch>(d, r2, relative, 0.5f * radius * radius * radius, omega, velocity, stretch);
    }
    if (angularVelocity != glm::vec3(0.0f)) {
        // The body's vorticity 2Ω over its volume V: outside, exactly the
        // field of one singular vorton α = 2ΩV at the centre (the shell
        // theorem), with its stretching term in the transpose form the
        // vortons use (biot_savart.h).
        const glm::vec3 alpha = (8.0f / 3.0f * std::numbers::pi_v<float>)*radius * radius * radius * angularVelocity;
        glm::vec3 v(0.0f), s(0.0f);
        AccumulateVorton<kStretch>(d, alpha, 0.0f, omega, &v, &s);
        *velocity += kOneOverFourPiF * v;
        if constexpr (kStretch) *stretch += kOneOverFourPiF * s;
    }
    if (strength.empty()) return;
    const float near = kNearRadii * radius;
    if (r2 > near * near) {
        // Far away, the sources are their dipole p.
        AddDipoleField<kStretch>(d, r2, dipole, kOneOverFourPiF, omega, velocity, stretch);
        return;
    }
    glm::vec3 v(0.0f), s(0.0f);
    if constexpr (kStretch) {
        SumSourcesStretch(*this, x, omega, &v, &s);
    } else {
        SumSourcesVelocity(*this, x, &v);
    }
    *velocity += kOneOverFourPiF * v;
    if constexpr (kStretch) *stretch += kOneOverFourPiF * s;
}

template void BodyImage::Add<true>(glm::vec3, glm::vec3, glm::vec3*, glm::vec3*) const;
template void BodyImage::Add<false>(glm::vec3, glm::vec3, glm::vec3*, glm::vec3*) const;

void FitImageSources(const SurfaceStencil& stencil, std::span<const glm::vec3> fluidVelocity, BodyImage& image) {
    const std::size_t m = stencil.Points(), k = stencil.source.size();
    std::vector<float> b(m);
    for (std::size_t j = 0; j < m; ++j) b[j] = -glm::dot(fluidVelocity[j], stencil.normal[j]);
    const float r2 = image.radius * image.radius;
    const std::size_t padded = (k + 7) / 8 * 8;
    image.strength.assign(padded, 0.0f);
    image.sourceX.resize(padded);
    image.sourceY.resize(padded);
    image.sourceZ.resize(padded);
    image.dipole = glm::vec3(0.0f);
    for (std::size_t c = 0; c < padded; ++c) {
        const glm::vec3 at = image.center + image.radius * stencil.source[c < k ? c : 0];
        image.sourceX[c] = at.x;
        image.sourceY[c] = at.y;
        image.sourceZ[c] = at.z;
        if (c >= k) continue;
        double q = 0.0;
        const float* row = stencil.fit.data() + c * m;
        for (std::size_t j = 0; j < m; ++j) q += double(row[j]) * double(b[j]);
        image.strength[c] = float(q) * r2;
        image.dipole += image.strength[c] * (image.radius * stencil.source[c]);
    }
}

}  // namespace vorton
