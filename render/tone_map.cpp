#include "render/tone_map.h"

#include <algorithm>
#include <cmath>

namespace vorton::render {
namespace {

// Share of the per-channel curve in the tone map (see ToneCurve).
constexpr float kPathToWhite = 0.5f;

float Curve(float x) {
    x = std::max(x, 0.0f);
    return std::clamp(x * (2.51f * x + 0.03f) / (x * (2.43f * x + 0.59f) + 0.14f), 0.0f, 1.0f);
}

float Encode(float c) {
    c = std::clamp(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

float Decode(float c) {
    c = std::clamp(c, 0.0f, 1.0f);
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

}  // namespace

glm::vec3 ToneCurve(glm::vec3 radiance) {
    radiance = glm::max(radiance, glm::vec3(0.0f));
    const float peak = std::max({radiance.r, radiance.g, radiance.b});
    const glm::vec3 huePreserving = peak > 1e-8f ? radiance * (Curve(peak) / peak) : glm::vec3(0.0f);
    const glm::vec3 perChannel(Curve(radiance.r), Curve(radiance.g), Curve(radiance.b));
    return glm::mix(huePreserving, perChannel, kPathToWhite);
}

glm::vec3 SrgbEncode(glm::vec3 linear) {
    return {Encode(linear.r), Encode(linear.g), Encode(linear.b)};
}

glm::vec3 SrgbDecode(glm::vec3 encoded) {
    return {Decode(encoded.r), Decode(encoded.g), Decode(encoded.b)};
}

glm::vec3 DisplayColor(glm::vec3 radiance, float exposure) {
    return SrgbEncode(ToneCurve(radiance * exposure));
}

glm::vec3 RadianceForDisplay(glm::vec3 encoded, float exposure) {
    const glm::vec3 target = SrgbDecode(glm::clamp(encoded, glm::vec3(0.0f), glm::vec3(0.999f)));
    // Each channel of ToneCurve grows with its own radiance and depends on the others only
    // through the peak: solve one channel at a time by bisection, a few rounds.
    glm::vec3 radiance = target;
    for (int round = 0; round < 6; ++round) {
        for (int c = 0; c < 3; ++c) {
            float lo = 0.0f, hi = 64.0f;
            for (int i = 0; i < 50 && hi - lo > 1e-7f; ++i) {
                radiance[c] = 0.5f * (lo + hi);
                (ToneCurve(radiance)[c] < target[c] ? lo : hi) = radiance[c];
            }
            radiance[c] = 0.5f * (lo + hi);
        }
    }
    return radiance / (exposure > 0.0f ? exposure : 1.0f);
}

BackdropColors DisplayBackdrop(Backdrop backdrop) {
    switch (backdrop) {
        case Backdrop::Dark:
            return {{0.035f, 0.038f, 0.045f}, {0.035f, 0.038f, 0.045f}};
        case Backdrop::Light:
            return {{0.80f, 0.81f, 0.83f}, {0.56f, 0.57f, 0.60f}};
        case Backdrop::Gradient:
        default:
            return {{0.105f, 0.125f, 0.165f}, {0.012f, 0.013f, 0.018f}};
    }
}

}  // namespace vorton::render
