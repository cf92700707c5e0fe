#pragma once
/// \file
/// Free-space FFT grid solver for the regularised Biot–Savart sum
/// (`solver=grid`): vortex-in-cell with Hockney–Eastwood's zero-padded
/// convolution, so the grid sum is the open-domain (aperiodic) one.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/numerics/uniform_grid.h"
#include "sim/solvers/vorton_sources.h"
#include "sim/numerics/simd.h"

namespace vorton {

/// How vorton strengths go to the grid and grid velocities come back.
enum class GridStencil : std::uint8_t {
    /// Monaghan's M4′ (J. Comput. Phys. 60, 1985): 4 points per axis,
    /// interpolating, reproduces quadratics (so Σα, Σx×α and the second
    /// moments are conserved). Needs 2 cells of margin beyond every vorton.
    /// The default: see grid_solver_test.cpp for the measured errors.
    kM4Prime,
    /// Cloud-in-cell (trilinear): 2 points per axis, reproduces linear
    /// functions only; cheaper, but about 10× the error of M4′. 1 cell of margin.
    kCloudInCell,
};

/// FFTW plans and per-thread line buffers of the line-batch transforms
/// (solvers/grid_solver_fft.h; keeps fftw3.h out of this header).
struct LineFft;

/// Kernel transforms of the grid solver, kept for reuse by key (padded FFT
/// size, grid spacing, σ²): the kMaxEntries most recently used while they
/// take at most kMaxBytes together (least recently used dropped first;
/// the transforms solvers hold as current are kept by them in any case).
/// Thread-safe. The predictor's solver and the corrector's ask for the same
/// key within a step as a wake's box grows, and with a shared store the
/// second finds the first's (five balls' grid of 1–2·10⁶ points paid each new
/// size twice, 300–850 ms each, stop 98).
class GridKernelStore {
public:
    /// A transform: GridSolver's layout (grid_solver.cpp), never changed once stored.
    using Kernel = std::shared_ptr<const std::vector<float>>;
    /// Most transforms kept. Each group's solvers meet a few sizes as their
    /// boxes wander: three balls' six solvers computed 233 transforms in 26 s
    /// with 8 entries, 46 with 64, and a step at 20–25 s cost 123 ms against 98
    /// (stop 98).
    static constexpr std::size_t kMaxEntries = 64;
    /// Most bytes kept: 64 of three balls' transforms (1.8 MB each), or nine
    /// of a 2²¹-point grid's (kAutoGroupGridPoints, 27 MB).
    static constexpr std::size_t kMaxBytes = std::size_t(256) << 20;

    /// A transform with its key: padded FFT size N per axis (≥ 2n − 1,
    /// 2^a 3^b 5^c 7^d), grid spacing and σ² (< 0: nothing computed yet).
    struct Transform {
        glm::ivec3 padded{0};
        glm::vec3 spacing{0.0f};
        float sigma2 = -1.0f;
        Kernel kernel;
        bool Matches(glm::ivec3 n, glm::vec3 h, float s2) const { return n == padded && h == spacing && s2 == sigma2; }
        std::size_t Bytes() const { return kernel ? kernel->size() * sizeof(float) : 0; }
    };

    /// The transform of the key, or null; a hit becomes the most recent.
    Kernel Find(glm::ivec3 padded, glm::vec3 spacing, float sigma2);
    /// Adds a transform as the most recent (replacing one of the same key)
    /// and drops the least recent past the bounds.
    void Add(glm::ivec3 padded, glm::vec3 spacing, float sigma2, Kernel kernel);
    /// Bytes the kept transforms take.
    std::size_t Bytes();

private:
    std::mutex m_mutex;
    std::vector<Transform> m_entries;
};

/// Velocity induced by vortons, computed on a uniform grid by FFT convolution:
///
///  1. assign each vorton's strength α_k (m³/s) to the grid points around it
///     with the stencil's weights W (not divided by the cell volume: a grid
///     point carries a strength, not a vorticity);
///  2. convolve with the regularised kernel of biot_savart.h sampled on the
///     grid offsets, v_g = (1/4π) Σ_g′ α_g′ × K(x_g − x_g′),
///     K(r) = r/(|r|² + σ²)^{3/2}, by FFTs on a grid padded to ≥ 2n − 1
///     points per axis so the circular convolution equals the free-space sum
///     (Hockney & Eastwood, *Computer Simulation Using Particles*, ch. 6);
///  3. interpolate back to any point with the same stencil; the stretching
///     (∇v)ᵀω, s_j = ω·∂_j v, from the velocity gradient on the grid
///     (fourth-order central differences inside, second order within two
///     points of a face), interpolated with the same stencil.
///
/// This is the vortex-in-cell scheme of Cottet & Koumoutsakos (2000) §3 with
/// the Green's function convolved directly instead of solving ∇²ψ = −ω, so it
/// approximates exactly what DirectVelocity sums (Gourlay part 6 solves the
/// Poisson equation instead). Cost O(M log M) in grid points M plus 64 (M4′)
/// or 8 (CIC) operations per vorton and query point.
///
/// Accuracy (grid_solver_test.cpp, σ = 1.5 h for vorton spacing h, M4′): the
/// relative RMS velocity error against DirectVelocity is 0.25 % with cells
/// H = h (0.04 % at h/2, 0.5 % at 1.25 h, 1.0 % at 1.5 h), falling as H³;
/// the stretching's is about 5× larger (1.2 % at H = h). Use H = h. Keep H
/// and σ fixed from step to step: the kernel's transform (about one solve's
/// work, from the octant of its spectrum: KernelTransform) is then
/// recomputed only when the padded size changes.
///
/// Core radius: the kernel takes one σ². If every source has the same σ²
/// (as the seeding gives) that one is used exactly; otherwise the
/// |α|-weighted mean of σ², which is exact only for equal cores.
///
/// Determinism: each task owns a slab of grid planes and adds the strengths
/// reaching it in a fixed (counting-sorted) vorton order, and the 3D FFTs are
/// batches of 1D single-threaded FFTW transforms along each axis, each line's
/// result independent of which thread runs it: results are bitwise identical
/// for any thread count. Runs its tbb loops in the caller's task arena.
/// Spectral buffers and plans are kept between solves (no allocation once the
/// grid size settles). The kernel's transform depends only on (padded size,
/// spacing, σ²), and is kept in a GridKernelStore: the solver's own, or one
/// shared with other solvers (UseKernelStore; a simulation shares one among
/// its predictor's and corrector's solvers and each group's). A stored
/// transform is the one computed afresh, bit for bit, so no result depends on
/// what a store holds.
class GridSolver {
public:
    explicit GridSolver(GridStencil stencil = GridStencil::kM4Prime);
    ~GridSolver();
    GridSolver(GridSolver&&) noexcept;
    GridSolver& operator=(GridSolver&&) noexcept;
    GridSolver(const GridSolver&) = delete;
    GridSolver& operator=(const GridSolver&) = delete;

    /// Keeps and finds kernel transforms in `store` (not null) from the next
    /// Solve on, with the other solvers given it; a solver starts with a
    /// store of its own.
    void UseKernelStore(std::shared_ptr<GridKernelStore> store);

    /// Velocity on every point of `grid` (cells may differ per axis). The grid
    /// must cover every vorton with a margin of ≥ 2 cells for M4′ (≥ 1 for
    /// CIC); strength that would land outside is lost (asserted in debug
    /// builds). Afterwards GridVelocity() holds grid.PointCount() velocities;
    /// with `gradient` the velocity gradient too, which Evaluate needs for the
    /// stretching (skip it when only velocities will be asked for).
    void Solve(const GridGeometry& grid, const VortonSources& sources, bool gradient = true);

    /// The last Solve's grid velocity (m/s), x-fastest like GridGeometry::Index.
    std::span<const glm::vec3> GridVelocity() const { return m_velocity; }
    /// The grid of the last Solve.
    const GridGeometry& Grid() const { return m_grid; }

    /// Interpolated velocity at query.points (m/s) and, when query.omega is
    /// not empty (the last Solve must have had `gradient`), the stretching
    /// (∇v)ᵀω (1/s²), from the last Solve. Points whose stencil leaves the
    /// grid fall back to trilinear interpolation (clamped to the grid like
    /// Interpolate): keep vortons ≥ 2 cells inside. Parallel over points.
    void Evaluate(const VelocityQuery& query) const;

    /// True when x is far enough inside the last Solve's grid for Evaluate to
    /// use the full stencil there (else it falls back to clamped trilinear).
    bool Holds(glm::vec3 x) const;

    /// The last Solve's core radius squared (m²) and padded FFT size (points per axis).
    float KernelSigma2() const { return m_current.sigma2; }
    glm::ivec3 PaddedSize() const { return m_current.padded; }
    /// True when this solver's kernel transform is the very one `other` uses
    /// (from a store they share, not computed again).
    bool SharesKernelWith(const GridSolver& other) const {
        return m_current.kernel && m_current.kernel == other.m_current.kernel;
    }

private:
    using Fft = LineFft;
    // A vorton's stencil on the grid: lowest point per axis and the weights
    // (CIC uses the first two).
    struct VortonStencil {
        int base[3];
        float w[3][4];
    };  // 60 bytes
    // Four floats in one SIMD register (GCC/Clang vector extension).
    using Packed4 = Float4;
    using Complex = std::complex<float>;

    void Configure(const GridGeometry& grid, float sigma2);
    void Assign(const VortonSources& sources);
    void Convolve();
    void ComputeGradient();

    GridStencil m_stencil;
    GridGeometry m_grid;
    std::vector<glm::vec3> m_alpha;     // n: assigned strength, m³/s
    std::vector<glm::vec3> m_velocity;  // n: m/s
    std::vector<Packed4> m_packed;      // 4n: v, ∂_x v, ∂_y v, ∂_z v of each point (m/s, 1/s)
    // Spectra of α_x, α_y, α_z then of v: (N.x/2+1) × N.y × n.z, x-fastest;
    // only the z extent of the unpadded grid is stored, the z transforms are
    // done line by line in scratch.
    std::vector<Complex> m_spectrum[3];
    std::vector<VortonStencil> m_stencils;    // one per vorton
    std::vector<std::uint32_t> m_order;       // vortons sorted by z plane
    std::vector<std::uint32_t> m_planeStart;  // first of each key in m_order, keys + 1
    std::vector<std::uint32_t> m_planeOf;     // each vorton's key: its highest stencil plane
    // The kernel's transform for one key (padded size, spacing, σ²), shared
    // with the store and other solvers (never changed once computed). Its
    // kernel is the imaginary part G_c of the transformed kernel components
    // (the sampled K_c is odd along c and even along the others, so its
    // transform is imaginary, odd in the wavenumber along c and even in the
    // others), scaled by 1/(4π N.x N.y N.z), for the octant of y wavenumbers
    // j ≤ N.y/2 and z wavenumbers k ≤ N.z/2 only (x has N.x/2 + 1 already):
    // the z pass takes j > N.y/2 and k > N.z/2 from the mirror, G_y negated
    // across y and G_z across z. In the order the z pass reads them: per batch
    // of 8 x wavenumbers (y-major), per wavenumber, per z, c. (A quarter of
    // the full spectrum: 27 MB for a 2²¹-point grid.)
    using KernelTransform = GridKernelStore::Transform;
    /// The transform of m_current's key, computed with m_fft's plans (which
    /// must be for m_current.padded).
    std::vector<float> ComputeKernel() const;

    KernelTransform m_current;  // the last Solve's
    std::unique_ptr<Fft> m_fft;  // plans for m_current.padded
    std::shared_ptr<GridKernelStore> m_store;  // never null
};

}  // namespace vorton
