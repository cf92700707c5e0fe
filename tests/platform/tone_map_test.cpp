// The display transform on the CPU (render/tone_map.h), which composite.frag mirrors.
#include <gtest/gtest.h>

#include "render/tone_map.h"

namespace vorton {
namespace {

using render::DisplayColor;
using render::RadianceForDisplay;

TEST(ToneMap, RadianceForDisplayInvertsTheDisplayTransform) {
    // The backdrop is given as the colours it should show; the renderer finds radiances that
    // show them, for any exposure, to well under one 8-bit level (1/255 = 0.004).
    for (const glm::vec3 c : {glm::vec3(0.105f, 0.125f, 0.165f), glm::vec3(0.012f, 0.013f, 0.018f),
                              glm::vec3(0.8f, 0.81f, 0.83f), glm::vec3(0.9f, 0.2f, 0.05f)}) {
        for (const float exposure : {0.5f, 1.0f, 2.0f}) {
            const glm::vec3 shown = DisplayColor(RadianceForDisplay(c, exposure), exposure);
            for (int k = 0; k < 3; ++k) EXPECT_NEAR(shown[k], c[k], 5e-4f) << k << " at exposure " << exposure;
        }
    }
}

TEST(ToneMap, BrightColoursTurnPalerDarkOnesKeepTheirHue) {
    // A saturated blue: dim, its green does not rise towards its blue (the per-channel toe even
    // deepens it: measured 0.118 for 0.17); bright, it rises (the path to white), at least
    // twice as far.
    const glm::vec3 blue(0.033f, 0.17f, 1.0f);
    const glm::vec3 dim = render::ToneCurve(0.1f * blue), bright = render::ToneCurve(4.0f * blue);
    const float ratio = 0.17f;
    EXPECT_LE(dim.g / dim.b, ratio);
    EXPECT_GT(dim.g / dim.b, 0.5f * ratio);
    EXPECT_GT(bright.g / bright.b, 2.0f * ratio);
    EXPECT_LE(bright.b, 1.0f);
    EXPECT_GT(bright.b, 0.9f);
}

}  // namespace
}  // namespace vorton
