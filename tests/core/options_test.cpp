// The `vorton` command line (a contract: scripts and tests rely on it).

#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/core/options.h"

namespace vorton {
namespace {

ParsedCommandLine Parse(std::initializer_list<const char*> args) {
    std::vector<const char*> argv{"vorton"};
    argv.insert(argv.end(), args.begin(), args.end());
    return ParseCommandLine(int(argv.size()), argv.data());
}

TEST(Options, Defaults) {
    const ParsedCommandLine p = Parse({});
    EXPECT_FALSE(p.exitNow);
    EXPECT_EQ(p.options.scene, "dye_drop");
    EXPECT_EQ(p.options.width, 1280);
    EXPECT_EQ(p.options.height, 720);
    EXPECT_FALSE(p.options.headless);
    EXPECT_FALSE(p.options.noRender);
}

TEST(Options, UnknownFlagIsAUsageErrorThatListsTheFlags) {
    const ParsedCommandLine p = Parse({"--scene", "two_drops", "--bogus"});
    EXPECT_TRUE(p.exitNow);
    EXPECT_EQ(p.exitCode, kExitUsage);
    EXPECT_EQ(p.exitCode, 2);
    EXPECT_NE(p.message.find("--bogus"), std::string::npos) << p.message;
    for (const char* flag :
         {"--scene", "--headless", "--no-render", "--frames", "--threads", "--set", "--stats",
          "--dump-dir", "--record", "--size", "--list-scenes", "--list-params"}) {
        EXPECT_NE(p.message.find(flag), std::string::npos) << flag << " missing from help";
    }
}

TEST(Options, SizeIsParsed) {
    const ParsedCommandLine p = Parse({"--size", "800x600"});
    EXPECT_FALSE(p.exitNow) << p.message;
    EXPECT_EQ(p.options.width, 800);
    EXPECT_EQ(p.options.height, 600);
}

TEST(Options, BadSizeIsAUsageError) {
    for (const char* size : {"800", "800x", "x600", "800x600x", "8x8", "800*600", "100000x100"}) {
        const ParsedCommandLine p = Parse({"--size", size});
        EXPECT_TRUE(p.exitNow) << size;
        EXPECT_EQ(p.exitCode, kExitUsage) << size;
        EXPECT_NE(p.message.find("--size"), std::string::npos) << p.message;
    }
}

TEST(Options, ShotsAreAListOfSteps) {
    const ParsedCommandLine p = Parse({"--headless", "--shots", "0,150,1500"});
    EXPECT_FALSE(p.exitNow) << p.message;
    EXPECT_EQ(p.options.shots, (std::vector<std::int64_t>{0, 150, 1500}));
    for (const char* bad : {"-1", "3,x", "1.5"}) {
        const ParsedCommandLine q = Parse({"--headless", "--shots", bad});
        EXPECT_TRUE(q.exitNow) << bad;
        EXPECT_EQ(q.exitCode, kExitUsage) << bad;
    }
    const ParsedCommandLine noRender = Parse({"--no-render", "--shots", "10"});
    EXPECT_TRUE(noRender.exitNow);
    EXPECT_EQ(noRender.exitCode, kExitUsage);
    EXPECT_NE(noRender.message.find("--shots"), std::string::npos) << noRender.message;
}

TEST(Options, HeadlessExcludesNoRender) {
    const ParsedCommandLine p = Parse({"--headless", "--no-render"});
    EXPECT_TRUE(p.exitNow);
    EXPECT_EQ(p.exitCode, kExitUsage);
    EXPECT_NE(p.message.find("--headless"), std::string::npos) << p.message;
}

TEST(Options, ValuesAreChecked) {
    for (auto args :
         {std::vector<const char*>{"--frames", "0"}, std::vector<const char*>{"--frames", "ten"},
          std::vector<const char*>{"--threads", "-1"},
          std::vector<const char*>{"--dump-every", "2"}}) {
        std::vector<const char*> argv{"vorton"};
        argv.insert(argv.end(), args.begin(), args.end());
        const ParsedCommandLine p = ParseCommandLine(int(argv.size()), argv.data());
        EXPECT_TRUE(p.exitNow) << args[0] << " " << args[1];
        EXPECT_EQ(p.exitCode, kExitUsage) << args[0] << " " << args[1];
        EXPECT_NE(p.message.find(args[0]), std::string::npos) << p.message;
    }
}

TEST(Options, RunFlags) {
    const ParsedCommandLine p =
        Parse({"--no-render", "--frames", "12", "--threads", "2", "--set", "solver=direct", "--set",
               "gravity=0,0,-1", "--stats", "out", "--dump-dir", "d", "--dump-every", "3",
               "--scene", "vortex_ring"});
    ASSERT_FALSE(p.exitNow) << p.message;
    EXPECT_TRUE(p.options.noRender);
    EXPECT_EQ(p.options.frames, 12);
    EXPECT_EQ(p.options.threads, 2);
    ASSERT_EQ(p.options.sets.size(), 2u);
    EXPECT_EQ(p.options.sets[0], "solver=direct");  // in command-line order
    EXPECT_EQ(p.options.sets[1], "gravity=0,0,-1");
    EXPECT_EQ(p.options.statsDir, "out");
    EXPECT_EQ(p.options.dumpDir, "d");
    EXPECT_EQ(p.options.dumpEvery, 3);
    EXPECT_EQ(p.options.scene, "vortex_ring");
}

TEST(Options, HelpExitsCleanly) {
    const ParsedCommandLine p = Parse({"--help"});
    EXPECT_TRUE(p.exitNow);
    EXPECT_EQ(p.exitCode, kExitOk);
    EXPECT_NE(p.message.find("--scene"), std::string::npos);
}

}  // namespace
}  // namespace vorton
