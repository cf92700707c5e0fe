#include "app/display_look.h"

namespace vorton {

render::Look MakeLook(const DisplaySettings& d, float floorHeight) {
    render::Look look;
    look.dye = d.dye == 1 ? render::DyeStyle::Particles : render::DyeStyle::Volume;
    look.backdrop = d.backdrop == 1   ? render::Backdrop::Dark
                    : d.backdrop == 2 ? render::Backdrop::Light
                                      : render::Backdrop::Gradient;
    look.exposure = d.exposure;
    look.dyeExtinction = d.dyeExtinction;
    look.dyeAbsorption = d.dyeAbsorption;
    look.thinDyeGamma = d.thinDye;
    look.lightAzimuth = d.lightAzimuth;
    look.lightElevation = d.lightElevation;
    look.lightIntensity = d.lightIntensity;
    look.ambientIntensity = d.ambient;
    look.floor = d.floor;
    look.floorHeight = floorHeight;
    look.fog = d.fog;
    const VolumeQuality quality = QualityLevel(d.quality);
    look.volumeVoxels = quality.gridSide * quality.gridSide * quality.gridSide;
    look.marchStep = quality.marchStep;
    look.halfResolution = d.halfResolution;
    look.tracerSize = d.tracerSize;
    look.tracerOpacity = d.tracerOpacity;
    return look;
}

}  // namespace vorton
