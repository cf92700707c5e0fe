// The rewind ring (issue 14, item 4): bounded in bytes, spaced to cover its seconds, and a
// rewind drops the future.

#include <string>

#include <gtest/gtest.h>

#include "app/ui/rewind.h"

namespace vorton {
namespace {

RewindRing::Entry State(std::int64_t step, std::size_t bytes) {
    RewindRing::Entry entry;
    entry.step = step;
    entry.time = 0.02 * double(step);
    entry.state = std::string(bytes, char('a' + step % 26));
    return entry;
}

TEST(Rewind, IntervalCoversTheSecondsWithinTheBudget) {
    // 10 s of 0.02-s steps is 500 states: 1 MB each fit a 1000-MB budget every step; 5 MB each,
    // 200 fit, so one every 3 steps (500/200 rounded up); a state beyond the budget, the newest only.
    const std::size_t mb = std::size_t(1) << 20;
    RewindRing ring(1000 * mb, 10.0, 0.02);
    EXPECT_EQ(ring.IntervalFor(1 * mb), 1u);
    EXPECT_EQ(ring.IntervalFor(5 * mb), 3u);
    EXPECT_EQ(ring.IntervalFor(2000 * mb), 500u);
    EXPECT_TRUE(ring.Due(0, 5 * mb));
    ring.Push(State(0, 10));
    EXPECT_FALSE(ring.Due(2, 5 * mb));
    EXPECT_TRUE(ring.Due(3, 5 * mb));
}

TEST(Rewind, NeverHoldsMoreThanItsBudget) {
    RewindRing ring(1000, 10.0, 0.02);
    for (int s = 0; s < 50; ++s) {
        ring.Push(State(s, 150));
        EXPECT_LE(ring.Bytes(), 1000u);
    }
    // 6 states of 150 bytes fit 1000: the newest six, steps 44..49.
    ASSERT_EQ(ring.Entries().size(), 6u);
    EXPECT_EQ(ring.Entries().front().step, 44);
    EXPECT_EQ(ring.Entries().back().step, 49);
    EXPECT_EQ(ring.Bytes(), 900u);
}

TEST(Rewind, ARewindDropsTheFutureAndABranchReplacesIt) {
    RewindRing ring(1 << 20, 10.0, 0.02);
    for (int s = 0; s <= 10; ++s) ring.Push(State(s, 100));
    const RewindRing::Entry* at = ring.AtOrBefore(0.02 * 4.5);
    ASSERT_NE(at, nullptr);
    EXPECT_EQ(at->step, 4);
    EXPECT_EQ(ring.AtOrBefore(-1.0), nullptr);
    ring.TruncateAfter(at->step);
    EXPECT_EQ(ring.Entries().back().step, 4);
    EXPECT_EQ(ring.Bytes(), 500u);
    // Stepping on from a rewind that was not truncated: a state at step 3 replaces 3 and 4.
    ring.Push(State(3, 100));
    EXPECT_EQ(ring.Entries().size(), 4u);
    EXPECT_EQ(ring.Entries().back().step, 3);
}

}  // namespace
}  // namespace vorton
