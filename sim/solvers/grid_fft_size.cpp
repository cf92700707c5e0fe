#include "sim/solvers/grid_solver_fft.h"

#include <limits>

// The padded lengths of the grid solver's transforms (see GridFftSize).

namespace vorton {

namespace {

/// ns per point of FFTW_ESTIMATE's plans for kBatch = 8 contiguous lines of
/// length n (single precision): complex (the y and z lines), real-to-complex
/// (the x lines). Best of two runs of a microbenchmark on the CI
/// machine kind (AMD EPYC, AVX2, FFTW 3.3.10), 2026-11-29. Lengths of the
/// same size differ by up to 10 times: FFTW_ESTIMATE picks its algorithm by
/// an operation count, and some factorisations (2·3³, 2·3⁴, 2·5²) run far
/// slower than their count says.
struct LineCost {
    int n;
    float complexNs, realNs;
};
constexpr LineCost kLineCost[] = {
    {16, 0.31f, 0.65f}, {18, 2.15f, 1.33f}, {20, 0.33f, 0.62f}, {24, 1.30f, 1.15f}, {28, 1.35f, 1.13f},
    {30, 1.57f, 1.12f}, {32, 0.33f, 0.69f}, {36, 1.28f, 1.02f}, {40, 1.13f, 0.99f}, {42, 1.43f, 0.95f},
    {48, 0.99f, 1.04f}, {50, 1.87f, 0.97f}, {54, 2.12f, 0.74f}, {56, 1.10f, 0.74f}, {60, 1.03f, 1.24f},
    {64, 0.40f, 1.01f}, {70, 1.39f, 0.93f}, {72, 1.31f, 0.50f}, {80, 0.70f, 0.50f}, {84, 0.97f, 0.76f},
    {90, 2.07f, 0.81f}, {96, 0.66f, 1.11f}, {98, 1.34f, 0.88f}, {100, 1.18f, 0.59f}, {108, 0.98f, 0.97f},
    {112, 1.25f, 0.74f}, {120, 1.01f, 0.63f}, {126, 1.39f, 1.16f}, {128, 0.66f, 1.36f}, {140, 1.29f, 0.86f},
    {144, 0.63f, 0.50f}, {150, 1.59f, 0.83f}, {160, 0.65f, 0.55f}, {162, 2.13f, 1.18f}, {168, 1.47f, 0.71f},
    {180, 1.31f, 0.68f}, {192, 0.62f, 0.62f}, {196, 1.29f, 0.89f}, {200, 1.09f, 0.53f}, {210, 1.74f, 0.84f},
    {216, 1.49f, 0.97f}, {224, 1.26f, 0.91f}, {240, 0.62f, 0.66f}, {250, 1.54f, 0.78f}, {252, 1.32f, 0.83f},
    {256, 0.61f, 0.59f}, {270, 2.40f, 1.26f}, {280, 1.32f, 0.73f}, {288, 1.33f, 0.52f}, {294, 1.80f, 0.90f},
    {300, 1.06f, 0.83f}, {320, 0.67f, 0.70f}, {324, 1.35f, 1.21f}, {336, 1.29f, 0.99f}, {350, 1.66f, 1.12f},
    {360, 1.35f, 1.07f}, {378, 1.91f, 1.06f}, {384, 0.64f, 0.80f}, {392, 1.44f, 0.94f}, {400, 0.69f, 0.61f},
    {420, 1.14f, 0.83f}, {432, 1.29f, 0.99f}, {448, 1.32f, 0.92f}, {450, 3.22f, 1.00f}, {480, 1.48f, 0.99f},
    {486, 2.53f, 0.97f}, {490, 1.76f, 0.91f}, {500, 1.15f, 0.86f}, {504, 1.44f, 0.95f}, {512, 0.66f, 0.60f},
    {540, 1.15f, 1.35f}, {560, 1.33f, 0.94f}, {576, 1.31f, 0.71f}, {588, 1.16f, 0.91f}, {600, 1.19f, 0.87f},
    {630, 1.77f, 0.87f}, {640, 0.69f, 0.78f}, {648, 1.42f, 0.94f}, {672, 1.11f, 1.21f}, {686, 1.78f, 1.22f},
    {700, 1.48f, 1.15f}, {720, 1.34f, 0.95f}, {750, 2.27f, 1.06f}, {756, 1.20f, 1.10f}, {768, 1.02f, 0.71f},
    {784, 1.42f, 0.87f}, {800, 1.08f, 0.70f},
};

/// Per-point work besides the transform along one axis (the convolution's
/// product, assignment and differences run over the padded grid too), in
/// the table's ns: what a longer padding costs even where its FFT is fast.
constexpr float kPointwiseNs = 0.5f;

}  // namespace

int GridFftSize(int minimum, FftLine line) {
    int best = 0;
    float bestCost = std::numeric_limits<float>::max();
    for (const LineCost& c : kLineCost) {
        if (c.n < minimum || c.n > 2 * minimum) continue;
        const float cost = float(c.n) * ((line == FftLine::kComplex ? c.complexNs : c.realNs) + kPointwiseNs);
        if (cost < bestCost) {
            best = c.n;
            bestCost = cost;
        }
    }
    return best > 0 ? best : FftSize(minimum);
}

}  // namespace vorton
