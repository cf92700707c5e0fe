#pragma once
// Helpers of the end-to-end tests: run the real `vorton` executable, a fresh
// temporary folder, the small counts that keep runs quick.

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace vorton::test {

namespace fs = std::filesystem;

struct RunResult {
    int exitCode = -1;
    std::string output;  // stdout and stderr
};

/// Runs a shell command line; `vorton` in it is the executable under test.
inline RunResult RunVorton(const std::string& args, const std::string& prefix = "") {
    const std::string command = prefix + " '" + std::string(VORTON_EXE) + "' " + args + " 2>&1";
    RunResult r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer;
    while (std::fgets(buffer.data(), int(buffer.size()), pipe)) r.output += buffer.data();
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline fs::path TempDir(const std::string& name) {
    // Per process: two runs of the suite at once (a developer's and CI's) must not share it.
    const fs::path dir = fs::temp_directory_path() / ("vorton_exe_test_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}


/// Lines in a text file (0 if it cannot be read).
inline int CountLines(const fs::path& file) {
    std::ifstream in(file);
    int lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
}

inline const std::string kSmall = "--set vorton_count=800 --set tracer_count=20000";

}  // namespace vorton::test
