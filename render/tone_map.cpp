#include "render/tone_map.h"

#include <algorithm>
#include <cmath>

namespace vorton::render {
namespace {

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
    return peak > 1e-8f ? radiance * (Curve(peak) / peak) : glm::vec3(0.0f);
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
    const glm::vec3 display = SrgbDecode(glm::clamp(encoded, glm::vec3(0.0f), glm::vec3(0.999f)));
    const float peak = std::max({display.r, display.g, display.b});
    if (peak <= 0.0f) return glm::vec3(0.0f);
    // The radiance whose largest channel the curve takes to `peak`: the curve is monotonic and
    // reaches 0.999 below 64, so bisect; the other channels keep their ratios to it.
    float lo = 0.0f, hi = 64.0f;
    for (int i = 0; i < 60 && hi - lo > 1e-7f; ++i) {
        const float mid = 0.5f * (lo + hi);
        (Curve(mid) < peak ? lo : hi) = mid;
    }
    const float gain = exposure > 0.0f ? exposure : 1.0f;
    return display * (0.5f * (lo + hi) / peak) / gain;
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
