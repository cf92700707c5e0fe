#pragma once
/// \file
/// The display transform shared by the composite shader and the CPU: exposure, a filmic tone
/// curve and the sRGB encoding. The CPU side finds the linear radiance that shows a given
/// display colour (the backdrop is specified as the colours it should show).

#include <glm/glm.hpp>

#include "render/frame_input.h"

namespace vorton::render {

/// The filmic curve (Narkowicz's fit of the ACES reference rendering transform), half applied
/// to the largest channel with all three scaled alike (which keeps hue and saturation) and
/// half to each channel alone (which lets bright colours turn paler, towards white, as film
/// does, and keeps dark ones saturated): linear scene radiance ≥ 0 to display-linear 0..1.
/// Must match composite.frag.
glm::vec3 ToneCurve(glm::vec3 radiance);
/// sRGB transfer function: display-linear 0..1 to encoded 0..1, and back.
glm::vec3 SrgbEncode(glm::vec3 linear);
glm::vec3 SrgbDecode(glm::vec3 encoded);
/// The whole display transform: radiance × exposure, tone curve, sRGB encoding (0..1).
glm::vec3 DisplayColor(glm::vec3 radiance, float exposure);
/// A radiance whose DisplayColor is `encoded` (channels clamped to [0, 0.999]), of the same hue:
/// found by bisection on its scale, then refined per channel (to about 1e-4 of the display value).
glm::vec3 RadianceForDisplay(glm::vec3 encoded, float exposure);

/// A backdrop's display colours (sRGB-encoded 0..1) at the top and bottom of the frame.
struct BackdropColors {
    glm::vec3 top;
    glm::vec3 bottom;
};
BackdropColors DisplayBackdrop(Backdrop backdrop);

}  // namespace vorton::render
