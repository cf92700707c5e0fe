// Which bodies the follow camera frames (FramedBodies): balls together are framed together,
// balls metres apart leave the camera on the selected one.

#include <vector>

#include <gtest/gtest.h>
#include <glm/vec4.hpp>

#include "app/ui/framing.h"

namespace vorton {
namespace {

using Indices = std::vector<std::size_t>;

TEST(FramedBodies, BallsNearEachOtherAreFramedTogether) {
    // two_balls at the start: 0.7 m apart, radius 0.1 m, a box 0.9 m = 4.5 diameters.
    const std::vector<glm::vec4> balls{{0.0f, 0.0f, 0.0f, 0.1f}, {0.05f, 0.0f, -0.7f, 0.1f}};
    EXPECT_EQ(FramedBodies(balls, 0), (Indices{0, 1}));
    EXPECT_EQ(FramedBodies(balls, 1), (Indices{0, 1}));
}

TEST(FramedBodies, BallsMetresApartLeaveTheCameraOnTheSelectedOne) {
    // After 30 s the heavy ball is 27 m below and the light one 27 m above: the box
    // over both would be 270 diameters, each ball 1/450 of the frame.
    const std::vector<glm::vec4> balls{{0.0f, 0.0f, -27.0f, 0.1f}, {0.1f, 0.0f, 27.0f, 0.1f}, {0.4f, 0.0f, 26.0f, 0.1f}};
    EXPECT_EQ(FramedBodies(balls, 0), (Indices{0}));
    // The third rises 1 m from the second: the two are framed together.
    EXPECT_EQ(FramedBodies(balls, 1), (Indices{1, 2}));
    EXPECT_EQ(FramedBodies(balls, 2), (Indices{1, 2}));
}

TEST(FramedBodies, TheLimitIsSixteenOfTheSelectedBallsDiametersOnEachAxis) {
    // Selected radius 0.1 m: the box may span 3.2 m. A second ball of radius 0.1 m whose
    // far side is at 3.2 m fits; 1 cm farther, it does not.
    const std::vector<glm::vec4> fits{{0.0f, 0.0f, 0.0f, 0.1f}, {0.0f, 0.0f, 2.99f, 0.1f}};
    const std::vector<glm::vec4> past{{0.0f, 0.0f, 0.0f, 0.1f}, {0.0f, 0.0f, 3.01f, 0.1f}};
    EXPECT_EQ(FramedBodies(fits, 0), (Indices{0, 1}));
    EXPECT_EQ(FramedBodies(past, 0), (Indices{0}));
    // The limit is the selected body's: a 0.2-m ball selected frames the pair at 3.01 m.
    const std::vector<glm::vec4> big{{0.0f, 0.0f, 0.0f, 0.2f}, {0.0f, 0.0f, 3.01f, 0.1f}};
    EXPECT_EQ(FramedBodies(big, 0), (Indices{0, 1}));
    // The nearest are taken first: a ball 2 m to one side is framed, and then one 2.1 m
    // to the other side would make the box 4.3 m wide, so it is left out.
    const std::vector<glm::vec4> row{{0.0f, 0.0f, 0.0f, 0.1f}, {2.1f, 0.0f, 0.0f, 0.1f}, {-2.0f, 0.0f, 0.0f, 0.1f}};
    EXPECT_EQ(FramedBodies(row, 0), (Indices{0, 2}));
}

TEST(FramedBodies, ASelectionOutOfRangeMeansTheFirstBody) {
    const std::vector<glm::vec4> balls{{0.0f, 0.0f, 0.0f, 0.1f}, {0.0f, 0.0f, 30.0f, 0.1f}};
    EXPECT_EQ(FramedBodies(balls, 5), (Indices{0}));
    EXPECT_EQ(FramedBodies(balls, -1), (Indices{0}));
    EXPECT_TRUE(FramedBodies({}, 0).empty());
}

}  // namespace
}  // namespace vorton
