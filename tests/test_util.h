#pragma once
/// \file
/// Helpers shared by the sim and core tests: loading the shipped scenes,
/// stepping in a task arena of a given size, state hashes and error norms.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "scene/scene.h"
#include "sim/simulation.h"

namespace vorton::test {

/// The scenes/ folder of the source tree (the files the app ships).
inline std::filesystem::path SceneDir() {
    return std::filesystem::path(VORTON_TEST_SCENE_DIR);
}

/// The setup of scenes/<name>.json; fails the calling test if it does not load.
inline SceneSetup LoadSetup(const std::string& name) {
    auto scene = LoadSceneFile(SceneDir() / (name + ".json"));
    EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error());
    return scene.ok() ? scene.value().setup : SceneSetup{};
}

/// Runs `steps` steps in an arena of `threads` workers; stops at the first
/// failed step and returns its report (else the last one).
inline StepReport RunSteps(Simulation& sim, int steps, int threads = 2) {
    tbb::task_arena arena(threads);
    StepReport report;
    arena.execute([&] {
        for (int s = 0; s < steps && report.ok; ++s) report = sim.Step();
    });
    return report;
}

/// FNV-1a over raw bytes: equal hashes mean (practically) bitwise equal arrays.
inline std::uint64_t HashBytes(const void* data, std::size_t bytes,
                               std::uint64_t h = 1469598103934665603ull) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

template <typename T>
std::uint64_t HashVector(const std::vector<T>& v, std::uint64_t h = 1469598103934665603ull) {
    return HashBytes(v.data(), v.size() * sizeof(T), h);
}

/// Hash of vorton positions, vorticity and tracer positions.
inline std::uint64_t StateHash(const Simulation& sim) {
    std::uint64_t h = HashVector(sim.GetVortons().position);
    h = HashVector(sim.GetVortons().vorticity, h);
    return HashVector(sim.GetTracers().position, h);
}

/// StateHash, then each body's position, velocity, angular velocity and fluid force.
inline std::uint64_t StateAndBodiesHash(const Simulation& sim) {
    std::uint64_t h = StateHash(sim);
    for (const BodyState& b : sim.Bodies()) {
        for (const glm::vec3& v : {b.position, b.velocity, b.angularVelocity, b.fluidForce}) {
            h = HashBytes(&v, sizeof v, h);
        }
    }
    return h;
}

/// sqrt(Σ|a−b|² / Σ|b|²): relative RMS error of a against the reference b.
inline double RelativeRms(std::span<const glm::vec3> a, std::span<const glm::vec3> b) {
    double err = 0.0, ref = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const glm::dvec3 d = glm::dvec3(a[i]) - glm::dvec3(b[i]);
        err += glm::dot(d, d);
        ref += glm::dot(glm::dvec3(b[i]), glm::dvec3(b[i]));
    }
    return std::sqrt(err / ref);
}

/// Mean position of the tracers of one group.
inline glm::dvec3 TracerCentroid(const Simulation& sim, std::uint16_t group) {
    glm::dvec3 sum(0.0);
    std::size_t n = 0;
    const Tracers& t = sim.GetTracers();
    for (std::size_t i = 0; i < t.Size(); ++i) {
        if (t.group[i] != group) continue;
        sum += glm::dvec3(t.position[i]);
        ++n;
    }
    return n ? sum / double(n) : sum;
}

/// Prints a measured number (so the log shows how close a check came) and
/// records it in the XML report.
inline void Measured(const std::string& name, double value) {
    std::printf("[ measured ] %s = %.6g\n", name.c_str(), value);
    ::testing::Test::RecordProperty(name, std::to_string(value));
}

}  // namespace vorton::test
