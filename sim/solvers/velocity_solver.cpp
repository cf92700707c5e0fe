#include "sim/solvers/velocity_solver.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <memory>
#include <vector>

#include "sim/solvers/grid_solver.h"
#include "sim/solvers/treecode.h"
#include "sim/solvers/vorton_clusters.h"

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
/// With SolverSettings::clusterCell, one grid per group of vortons
/// (vorton_clusters.h) and each group's treecode for what it induces
/// elsewhere; or, when the groups of the vortons loaded do not fit
/// SolverSettings' bounds, the treecode over them all.
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
        m_split = false;
        m_treeOnly = false;
        m_groupCount = 0;
        m_solvedPoints = 0;
        if (m_empty) return;
        if (settings.clusterCell > 0.0f) {
            LoadGroups(stretching);
            return;
        }
        if (settings.kernelStore) m_grid.UseKernelStore(settings.kernelStore);
        m_grid.Solve(vortonGrid, m_sources, stretching);
        m_solvedPoints = vortonGrid.PointCount();
    }
    void EvaluateAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                           std::span<glm::vec3> stretch) override {
        if (m_empty) return;
        if (m_treeOnly) {
            m_tree.EvaluateAtSources(omega, velocity, stretch, Theta(m_settings));
            return;
        }
        if (m_split) {
            EvaluateGroupsAtSources(omega, velocity, stretch);
            return;
        }
        m_grid.Evaluate(VelocityQuery{m_sources.position, velocity, omega, stretch});
    }
    void Evaluate(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) override {
        if (m_empty) {
            std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
            return;
        }
        if (m_treeOnly) {
            m_tree.Evaluate(VelocityQuery{points, velocity, {}, {}}, Theta(m_settings));
            return;
        }
        if (m_split) {
            EvaluateGroups(points, velocity);
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
        EvaluateSubset(points, velocity, m_inside, Into::kStore,
                       [&](auto p, auto v) { m_grid.Evaluate(VelocityQuery{p, v, {}, {}}); });
        if (!m_treeBuilt) {
            m_tree.Build(m_sources, std::max(1, m_settings.treeLeafSize));
            m_treeBuilt = true;
        }
        EvaluateSubset(points, velocity, m_outside, Into::kStore,
                       [&](auto p, auto v) { m_tree.Evaluate(VelocityQuery{p, v, {}, {}}, Theta(m_settings)); });
    }
    std::span<const glm::vec3> GridVelocity() const override {
        return m_empty || m_split || m_treeOnly ? std::span<const glm::vec3>{} : m_grid.GridVelocity();
    }
    std::size_t SolvedGridPoints() const override { return m_solvedPoints; }

private:
    // One group of vortons with its own grid and its own treecode.
    struct Group {
        std::vector<std::uint32_t> members;  // indices into the loaded sources, increasing
        std::vector<glm::vec3> position, alpha;
        std::vector<float> sigma2;
        GridSolver grid;
        Treecode tree;  // built only when there are other groups
        VortonSources Sources() const { return VortonSources{position, alpha, sigma2}; }
    };

    void LoadGroups(bool stretching) {
        const float cell = m_settings.clusterCell;
        std::vector<VortonCluster> clusters = SplitIntoClusters(m_position, cell, 2.5f * cell);
        if (!GroupGridsFit(clusters, cell, 2.5f * cell, m_settings.clusterGridPoints, m_settings.clusterTotalPoints)) {
            // The vortons moved since Auto split them (a substep, the remesh) and
            // their groups with them: five balls' wakes spread over 70 m fell into
            // one group, a grid of 14 million points, and a step with two such
            // solves took 10.7 s (five balls at 30 s, stop 103).
            m_treeOnly = true;
            m_tree.Build(m_sources, std::max(1, m_settings.treeLeafSize));
            m_treeBuilt = true;
            return;
        }
        m_split = true;
        m_groupCount = clusters.size();
        // Kept between loads: each group's grid solver keeps its FFT plans and kernel.
        while (m_groups.size() < m_groupCount) m_groups.push_back(std::make_unique<Group>());
        for (std::size_t c = 0; c < m_groupCount; ++c) {
            Group& g = *m_groups[c];
            g.members = std::move(clusters[c].members);
            const std::size_t n = g.members.size();
            g.position.resize(n);
            g.alpha.resize(n);
            g.sigma2.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint32_t k = g.members[i];
                g.position[i] = m_position[k];
                g.alpha[i] = m_alpha[k];
                g.sigma2[i] = m_sigma2[k];
            }
            const GridGeometry geometry =
                FitGridWithCell(clusters[c].box, 2.5f * cell, cell, std::numeric_limits<std::size_t>::max());
            if (m_settings.kernelStore) g.grid.UseKernelStore(m_settings.kernelStore);
            g.grid.Solve(geometry, g.Sources(), stretching);
            m_solvedPoints += geometry.PointCount();
            if (m_groupCount > 1) g.tree.Build(g.Sources(), std::max(1, m_settings.treeLeafSize));
        }
        m_treeBuilt = m_groupCount > 1;
    }

    // At each group's vortons: its own grid, then every other group's tree in order.
    void EvaluateGroupsAtSources(std::span<const glm::vec3> omega, std::span<glm::vec3> velocity,
                                 std::span<glm::vec3> stretch) {
        const bool withStretch = !omega.empty();
        for (std::size_t c = 0; c < m_groupCount; ++c) {
            const Group& g = *m_groups[c];
            const std::size_t n = g.members.size();
            m_omega.resize(withStretch ? n : 0);
            for (std::size_t i = 0; i < m_omega.size(); ++i) m_omega[i] = omega[g.members[i]];
            m_velocity.resize(n);
            m_stretch.resize(withStretch ? n : 0);
            g.grid.Evaluate(VelocityQuery{g.position, m_velocity, m_omega, m_stretch});
            m_farVelocity.resize(n);
            m_farStretch.resize(m_stretch.size());
            for (std::size_t d = 0; d < m_groupCount; ++d) {
                if (d == c) continue;
                m_groups[d]->tree.Evaluate(VelocityQuery{g.position, m_farVelocity, m_omega, m_farStretch},
                                           Theta(m_settings));
                for (std::size_t i = 0; i < n; ++i) m_velocity[i] += m_farVelocity[i];
                for (std::size_t i = 0; i < m_stretch.size(); ++i) m_stretch[i] += m_farStretch[i];
            }
            for (std::size_t i = 0; i < n; ++i) velocity[g.members[i]] = m_velocity[i];
            for (std::size_t i = 0; i < m_stretch.size(); ++i) stretch[g.members[i]] = m_stretch[i];
        }
    }

    // Anywhere: the grid of the first group whose grid holds the point (if
    // any), then the tree of every other group in order.
    void EvaluateGroups(std::span<const glm::vec3> points, std::span<glm::vec3> velocity) {
        m_owner.resize(points.size());
        for (std::size_t i = 0; i < points.size(); ++i) {
            std::size_t c = 0;
            while (c < m_groupCount && !m_groups[c]->grid.Holds(points[i])) ++c;
            m_owner[i] = c;
        }
        std::fill(velocity.begin(), velocity.end(), glm::vec3(0.0f));
        for (std::size_t c = 0; c < m_groupCount; ++c) {
            m_inside.clear();
            for (std::size_t i = 0; i < points.size(); ++i) {
                if (m_owner[i] == c) m_inside.push_back(i);
            }
            const GridSolver& grid = m_groups[c]->grid;
            EvaluateSubset(points, velocity, m_inside, Into::kStore,
                           [&](auto p, auto v) { grid.Evaluate(VelocityQuery{p, v, {}, {}}); });
        }
        for (std::size_t d = 0; d < m_groupCount; ++d) {
            m_outside.clear();
            for (std::size_t i = 0; i < points.size(); ++i) {
                if (m_owner[i] != d) m_outside.push_back(i);
            }
            if (m_outside.empty()) continue;
            if (!m_treeBuilt) {
                // One group: its tree is built for the first points off its grid.
                m_groups[0]->tree.Build(m_groups[0]->Sources(), std::max(1, m_settings.treeLeafSize));
                m_treeBuilt = true;
            }
            const Treecode& tree = m_groups[d]->tree;
            EvaluateSubset(points, velocity, m_outside, Into::kAdd,
                           [&](auto p, auto v) { tree.Evaluate(VelocityQuery{p, v, {}, {}}, Theta(m_settings)); });
        }
    }

    enum class Into { kStore, kAdd };
    // Evaluates at the points listed in `which`, gathered into one batch, and
    // stores or adds the results at those indices of `velocity`.
    template <typename F>
    void EvaluateSubset(std::span<const glm::vec3> points, std::span<glm::vec3> velocity,
                        const std::vector<std::size_t>& which, Into into, F&& evaluate) {
        if (which.empty()) return;
        m_points.resize(which.size());
        m_velocity.resize(which.size());
        for (std::size_t n = 0; n < which.size(); ++n) m_points[n] = points[which[n]];
        evaluate(std::span<const glm::vec3>(m_points), std::span<glm::vec3>(m_velocity));
        if (into == Into::kAdd) {
            for (std::size_t n = 0; n < which.size(); ++n) velocity[which[n]] += m_velocity[n];
        } else {
            for (std::size_t n = 0; n < which.size(); ++n) velocity[which[n]] = m_velocity[n];
        }
    }

    GridSolver m_grid;
    Treecode m_tree;
    std::vector<glm::vec3> m_position, m_alpha;
    std::vector<float> m_sigma2;
    VortonSources m_sources;
    SolverSettings m_settings;
    bool m_treeBuilt = false, m_empty = true, m_split = false, m_treeOnly = false;
    std::size_t m_solvedPoints = 0;
    std::vector<std::unique_ptr<Group>> m_groups;  // the first m_groupCount are loaded
    std::size_t m_groupCount = 0;
    std::vector<std::size_t> m_inside, m_outside, m_owner;
    std::vector<glm::vec3> m_points, m_velocity, m_stretch, m_omega, m_farVelocity, m_farStretch;
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
