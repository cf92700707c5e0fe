#pragma once
/// \file
/// Internal to the sim library: the FFTW line-batch machinery of GridSolver
/// (plans, aligned buffers, per-thread scratch, 3D transforms as batches of
/// 1D lines run in parallel). Included by grid_solver.cpp, and by
/// particles/projection.cpp, whose periodic projection runs on the same
/// transforms.

#include <algorithm>
#include <complex>
#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include <fftw3.h>
#include <glm/vec3.hpp>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "sim/solvers/grid_solver.h"

namespace vorton {

using Complex = std::complex<float>;

/// Lines per FFTW call: one plan transforms kBatch consecutive lines, gathered
/// from kBatch neighbouring lines of a spectrum (64 bytes per row read). Every
/// line goes through the same plan, and a line's arithmetic depends neither on
/// the other lines of its batch nor on the thread; a partial batch is padded
/// with zero lines. (Consecutive lines measured 1.3–2× faster than FFTW's
/// interleaved layout under FFTW_ESTIMATE.)
constexpr int kBatch = 8;

/// FFTW's planner is not thread-safe; execution with the new-array functions is.
inline std::mutex& PlannerMutex() {
    static std::mutex mutex;
    return mutex;
}

/// 64-byte aligned storage, so every buffer has the alignment the plans were made for.
template <typename T>
struct AlignedAllocator {
    using value_type = T;
    AlignedAllocator() = default;
    template <typename U>
    AlignedAllocator(const AlignedAllocator<U>&) {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
    }
    void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
    template <typename U>
    bool operator==(const AlignedAllocator<U>&) const {
        return true;
    }
};
template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

inline fftwf_complex* AsFftw(Complex* p) {
    return reinterpret_cast<fftwf_complex*>(p);
}

struct PlanDeleter {
    void operator()(fftwf_plan_s* plan) const {
        std::lock_guard lock(PlannerMutex());
        fftwf_destroy_plan(plan);
    }
};
using Plan = std::unique_ptr<fftwf_plan_s, PlanDeleter>;

/// Smallest even 2^a 3^b 5^c 7^d ≥ minimum (FFTW has codelets for these
/// factors; among them its speed still varies several times: GridFftSize).
inline int FftSize(int minimum) {
    for (int n = std::max(2, minimum + (minimum & 1));; n += 2) {
        int m = n;
        for (int p : {2, 3, 5, 7}) {
            while (m % p == 0) m /= p;
        }
        if (m == 1) return n;
    }
}

/// The transform the grid solver runs along an axis: real-to-complex along
/// x, complex along y and z.
enum class FftLine { kRealToComplex, kComplex };

/// Padded length of a grid-solver axis that needs at least `minimum` points
/// (2n − 1 for n grid points: Hockney & Eastwood's free-space padding, which
/// any longer length keeps exact). Of the even 7-smooth lengths from
/// `minimum` to 2·minimum (≤ 800), the one with the least modelled cost
/// n·(t(n) + pointwise), t from FFTW_ESTIMATE timings on this machine kind
/// (grid_fft_size.cpp); FftSize(minimum) where no tabled length (16–800)
/// lies in that range. A pure function of its arguments, so the same on
/// every run and thread count.
int GridFftSize(int minimum, FftLine line);

// ---- FFT machinery ------------------------------------------------------------------------

/// Per-thread line buffers: kBatch real lines of N.x, and three complex
/// buffers of kBatch consecutive lines (N.x/2+1, N.y or N.z values each).
struct LineScratch {
    AlignedVector<float> real;
    AlignedVector<Complex> line[3];
};

/// The 3D transforms of a padded box of size N as batches of 1D lines (real
/// to complex along x, complex along y and z), each batch one FFTW call, the
/// batches in parallel. The spectrum is (N.x/2 + 1) × N.y × (the z planes
/// kept), x fastest. Plans are made for one N and kept until MakePlans is
/// called with another.
struct LineFft {
    glm::ivec3 size{0};
    int nxc = 0;  // N.x/2 + 1 complex values per x line
    Plan forwardX, inverseX, forwardY, inverseY, forwardZ, inverseZ;
    tbb::enumerable_thread_specific<LineScratch> scratch;

    void MakePlans(glm::ivec3 n) {
        size = n;
        nxc = n.x / 2 + 1;
        AlignedVector<float> r(std::size_t(kBatch) * n.x);
        AlignedVector<Complex> c(std::size_t(kBatch) * LineLength());
        fftwf_complex* cc = AsFftw(c.data());
        fftwf_plan plans[6];
        {
            std::lock_guard lock(PlannerMutex());
            // FFTW_ESTIMATE: the plan (so the rounding) is the same on every
            // run; FFTW_MEASURE may pick a different algorithm each time.
            const unsigned flags = FFTW_ESTIMATE;
            plans[0] = fftwf_plan_many_dft_r2c(1, &n.x, kBatch, r.data(), nullptr, 1, n.x, cc,
                                               nullptr, 1, nxc, flags);
            plans[1] = fftwf_plan_many_dft_c2r(1, &n.x, kBatch, cc, nullptr, 1, nxc, r.data(),
                                               nullptr, 1, n.x, flags);
            plans[2] = fftwf_plan_many_dft(1, &n.y, kBatch, cc, nullptr, 1, n.y, cc, nullptr, 1,
                                           n.y, FFTW_FORWARD, flags);
            plans[3] = fftwf_plan_many_dft(1, &n.y, kBatch, cc, nullptr, 1, n.y, cc, nullptr, 1,
                                           n.y, FFTW_BACKWARD, flags);
            plans[4] = fftwf_plan_many_dft(1, &n.z, kBatch, cc, nullptr, 1, n.z, cc, nullptr, 1,
                                           n.z, FFTW_FORWARD, flags);
            plans[5] = fftwf_plan_many_dft(1, &n.z, kBatch, cc, nullptr, 1, n.z, cc, nullptr, 1,
                                           n.z, FFTW_BACKWARD, flags);
        }
        for (fftwf_plan p : plans) {
            if (!p) std::abort();  // FFTW only fails on invalid arguments: a programming error
        }
        forwardX.reset(plans[0]);
        inverseX.reset(plans[1]);
        forwardY.reset(plans[2]);
        inverseY.reset(plans[3]);
        forwardZ.reset(plans[4]);
        inverseZ.reset(plans[5]);
    }

    int LineLength() const { return std::max({nxc, size.y, size.z}); }

    /// This thread's buffers, grown to the current size (allocates only when the size grows).
    LineScratch& Local() {
        LineScratch& s = scratch.local();
        const std::size_t realSize = std::size_t(kBatch) * size.x,
                          lineSize = std::size_t(kBatch) * LineLength();
        if (s.real.size() < realSize) s.real.resize(realSize);
        for (auto& l : s.line) {
            if (l.size() < lineSize) l.resize(lineSize);
        }
        return s;
    }

    std::size_t Index(int i, int j, int k) const { return (std::size_t(k) * size.y + j) * nxc + i; }

    /// Runs body(outer, first) over `outer` × ⌈inner/kBatch⌉ batches of lines, in parallel.
    template <typename Body>
    static void ForBatches(int outer, int inner, Body&& body) {
        const int batches = (inner + kBatch - 1) / kBatch;
        tbb::parallel_for(tbb::blocked_range<int>(0, outer * batches),
                          [&](const tbb::blocked_range<int>& r) {
                              for (int t = r.begin(); t != r.end(); ++t)
                                  body(t / batches, (t % batches) * kBatch);
                          });
    }

    /// Real-to-complex along x for lines j < jCount, k < kCount of each
    /// component: fill(c, j, k, line) writes the N.x reals of a line.
    template <typename Fill>
    void ForwardX(std::span<Complex* const> spectra, int jCount, int kCount, const Fill& fill) {
        ForBatches(kCount, jCount, [&](int k, int j0) {
            LineScratch& s = Local();
            const int lines = std::min(kBatch, jCount - j0);
            for (std::size_t c = 0; c < spectra.size(); ++c) {
                for (int b = 0; b < kBatch; ++b) {
                    float* line = s.real.data() + std::size_t(b) * size.x;
                    if (b < lines) {
                        fill(int(c), j0 + b, k, line);
                    } else {
                        std::fill(line, line + size.x, 0.0f);
                    }
                }
                fftwf_execute_dft_r2c(forwardX.get(), s.real.data(), AsFftw(s.line[0].data()));
                for (int b = 0; b < lines; ++b) {
                    const Complex* from = s.line[0].data() + std::size_t(b) * nxc;
                    std::copy(from, from + nxc, spectra[c] + Index(0, j0 + b, k));
                }
            }
        });
    }

    /// Complex-to-real along x for lines j < jCount, k < kCount: store(c, j, k,
    /// line) reads the N.x reals of a line.
    template <typename Store>
    void InverseX(std::span<Complex* const> spectra, int jCount, int kCount, const Store& store) {
        ForBatches(kCount, jCount, [&](int k, int j0) {
            LineScratch& s = Local();
            const int lines = std::min(kBatch, jCount - j0);
            for (std::size_t c = 0; c < spectra.size(); ++c) {
                for (int b = 0; b < kBatch; ++b) {
                    Complex* to = s.line[0].data() + std::size_t(b) * nxc;
                    if (b < lines) {
                        const Complex* from = spectra[c] + Index(0, j0 + b, k);
                        std::copy(from, from + nxc, to);
                    } else {
                        std::fill(to, to + nxc, Complex(0.0f));
                    }
                }
                fftwf_execute_dft_c2r(inverseX.get(), AsFftw(s.line[0].data()), s.real.data());
                for (int b = 0; b < lines; ++b)
                    store(int(c), j0 + b, k, s.real.data() + std::size_t(b) * size.x);
            }
        });
    }

    /// Copies values m < count of `lines` neighbouring lines from a spectrum,
    /// stepping `stride` per m, into consecutive scratch lines of `length`;
    /// zeros the rest.
    static void Gather(const Complex* from, std::size_t stride, int count, int length, int lines,
                       Complex* to) {
        for (int b = lines; b < kBatch; ++b)
            std::fill_n(to + std::size_t(b) * length, length, Complex(0.0f));
        for (int m = 0; m < count; ++m) {
            const Complex* src = from + std::size_t(m) * stride;
            for (int b = 0; b < lines; ++b) to[std::size_t(b) * length + m] = src[b];
        }
        for (int b = 0; b < lines; ++b)
            std::fill(to + std::size_t(b) * length + count, to + std::size_t(b + 1) * length,
                      Complex(0.0f));
    }
    /// The reverse of Gather for values m < count.
    static void Scatter(const Complex* from, int count, int length, int lines, std::size_t stride,
                        Complex* to) {
        for (int m = 0; m < count; ++m) {
            Complex* dst = to + std::size_t(m) * stride;
            for (int b = 0; b < lines; ++b) dst[b] = from[std::size_t(b) * length + m];
        }
    }

    /// Complex transform along y of lines k < kCount (all x wavenumbers):
    /// reads values j < jIn (the rest are zero padding), writes j < jOut.
    void TransformY(std::span<Complex* const> spectra, int kCount, int jIn, int jOut,
                    bool forward) {
        fftwf_plan plan = forward ? forwardY.get() : inverseY.get();
        const std::size_t stride = std::size_t(nxc);
        ForBatches(kCount, nxc, [&](int k, int i0) {
            LineScratch& s = Local();
            const int lines = std::min(kBatch, nxc - i0);
            for (Complex* spectrum : spectra) {
                Complex* base = spectrum + Index(i0, 0, k);
                Gather(base, stride, jIn, size.y, lines, s.line[0].data());
                fftwf_execute_dft(plan, AsFftw(s.line[0].data()), AsFftw(s.line[0].data()));
                Scatter(s.line[0].data(), jOut, size.y, lines, stride, base);
            }
        });
    }
};

}  // namespace vorton
