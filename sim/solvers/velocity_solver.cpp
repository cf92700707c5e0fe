#include "sim/solvers/velocity_solver.h"

#include <algorithm>
#include <cassert>
#include <vector>

#include "sim/solvers/grid_solver.h"
#include "sim/solvers/treecode.h"

namespace vorton {

namespace {

float Theta(const SolverSettings& s) { return std::clamp(s.treeTheta, 0.01f, 1.0f); }

/// Biot–Savart by direct summation, O(N·M): the exact reference.
class DirectSolver final : public VelocitySolver {
public:
    Solver Kind() const override { return Solver::Direct; }
    void Load(const VortonSources& sources, const GridGeometry&, const SolverSettings&, bool) override {
        m_position.assign(sources.position.begin(), sources.position.end());
        m_alpha.assign(sources.alpha.begin(), sources.alpha.end());
        m_sigma2.assign(sources.sigma2.begin(), sources.sigma2.end());
    }
    void EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                           std::span<glm::vec3> stretch) override {
        DirectVelocity(Sources(), VelocityQuery{m_position, velocity, omega, stretch});
    }
    void Evaluate(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) override {
        DirectVelocity(Sources(), VelocityQuery{points, velocity, {}, {}});
    }

private:
    VortonSources Sources() const { return VortonSources{m_position, m_alpha, m_sigma2}; }
    std::vector<glm::vec3> m_position, m_alpha;
    std::vector<float> m_sigma2;
};

/// Barnes–Hut treecode, O(N log N) (treecode.h).
class TreeSolver final : public VelocitySolver {
public:
    Solver Kind() const override { return Solver::Tree; }
    void Load(const VortonSources& sources, const GridGeometry&, const SolverSettings& settings, bool) override {
        m_theta = Theta(settings);
        m_tree.Build(sources, std::max(1, settings.treeLeafSize));
    }
    void EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                           std::span<glm::vec3> stretch) override {
        m_tree.EvaluateAtSources(omega, velocity, stretch, m_theta);
    }
    void Evaluate(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) override {
        m_tree.Evaluate(VelocityQuery{points, velocity, {}, {}}, m_theta);
    }

private:
    Treecode m_tree;
    float m_theta = 0.6f;
};

/// Vortex-in-cell by free-space FFT convolution on the vortons' grid
/// (grid_solver.h); points off that grid get the treecode's far field.
class GridVelocitySolver final : public VelocitySolver {
public:
    Solver Kind() const override { return Solver::Grid; }
    void Load(const VortonSources& sources, const GridGeometry& vortonGrid, const SolverSettings& settings,
              bool stretching) override {
        // Copies: the far-field tree is built later, from these, only if asked.
        m_position.assign(sources.position.begin(), sources.position.end());
        m_alpha.assign(sources.alpha.begin(), sources.alpha.end());
        m_sigma2.assign(sources.sigma2.begin(), sources.sigma2.end());
        m_sources = VortonSources{m_position, m_alpha, m_sigma2};
        m_settings = settings;
        m_treeBuilt = false;
        m_empty = sources.position.empty();
        if (!m_empty) m_grid.Solve(vortonGrid, m_sources, stretching);
    }
    void EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                           std::span<glm::vec3> stretch) override {
        if (m_empty) return;
        m_grid.Evaluate(VelocityQuery{m_sources.position, velocity, omega, stretch});
    }
    void Evaluate(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) override {
        if (m_empty) {
            std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
            return;
        }
        // On the grid where the interpolation stencil fits, the far field elsewhere.
        m_inside.clear();
        m_outside.clear();
        for (std::size_t i = 0; i < points.size(); ++i) {
            (m_grid.Holds(points[i]) ? m_inside : m_outside).push_back(i);
        }
        if (m_outside.empty()) {
            m_grid.Evaluate(VelocityQuery{points, velocity, {}, {}});
            return;
        }
        Split(points, velocity, m_inside, [&](auto p, auto v) { m_grid.Evaluate(VelocityQuery{p, v, {}, {}}); });
        if (!m_treeBuilt) {
            m_tree.Build(m_sources, std::max(1, m_settings.treeLeafSize));
            m_treeBuilt = true;
        }
        Split(points, velocity, m_outside,
              [&](auto p, auto v) { m_tree.Evaluate(VelocityQuery{p, v, {}, {}}, Theta(m_settings)); });
    }
    std::span<const glm::vec3> GridVelocity() const override {
        return m_empty ? std::span<const glm::vec3>{} : m_grid.GridVelocity();
    }

private:
    template <typename F>
    void Split(std::span<const glm::vec3> points, std::span<glm::vec3> velocity, const std::vector<std::size_t>& which,
               F&& evaluate) {
        if (which.empty()) return;
        m_points.resize(which.size());
        m_velocity.resize(which.size());
        for (std::size_t n = 0; n < which.size(); ++n) m_points[n] = points[which[n]];
        evaluate(std::span<const glm::vec3>(m_points), std::span<glm::vec3>(m_velocity));
        for (std::size_t n = 0; n < which.size(); ++n) velocity[which[n]] = m_velocity[n];
    }

    GridSolver m_grid;
    Treecode m_tree;
    std::vector<glm::vec3> m_position, m_alpha;
    std::vector<float> m_sigma2;
    VortonSources m_sources;
    SolverSettings m_settings;
    bool m_treeBuilt = false, m_empty = true;
    std::vector<std::size_t> m_inside, m_outside;
    std::vector<glm::vec3> m_points, m_velocity;
};

}  // namespace

std::unique_ptr<VelocitySolver> MakeVelocitySolver(Solver kind) {
    switch (kind) {
        case Solver::Tree: return std::make_unique<TreeSolver>();
        case Solver::Grid: return std::make_unique<GridVelocitySolver>();
        case Solver::Direct:
        case Solver::Auto: break;
    }
    assert(kind == Solver::Direct);
    return std::make_unique<DirectSolver>();
}

bool SolvesOnItsGrid(Solver kind) { return kind == Solver::Grid; }

}  // namespace vorton
