#pragma once
/// \file
/// Rigid spheres moved by the fluid (Gourlay part 4: fluid–body interaction;
/// part 9: body buoyancy).

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "sim/params.h"

namespace vorton {

/// The moving state of a sphere; its radius, density and fixed flag live in
/// its BodySpec (SceneSetup::bodies, same index).
struct BodyState {
    glm::vec3 position{0.0f};         ///< centre, m
    glm::vec3 velocity{0.0f};         ///< m/s
    glm::vec3 angularVelocity{0.0f};  ///< rad/s
    glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};  ///< body → world rotation
    /// Forces of the last step, N: from the fluid (with body_sheet, the sheet's
    /// and the pushed vortons' momentum / dt; in the skin model, the closure's
    /// added mass and drag), and gravity plus buoyancy g·(m − ρ_f V).
    /// Net force = fluidForce + weightForce.
    glm::vec3 fluidForce{0.0f};
    glm::vec3 weightForce{0.0f};
    glm::vec3 fluidTorque{0.0f};  ///< N·m about the centre, from the fluid
    float fluidDensity = 0.0f;    ///< ρ_f, kg/m³: mean fluid density displaced, last step
    /// Held by the user (mouse): moves to grabTarget each step as if fixed,
    /// with the velocity that takes it there; released, it keeps that velocity.
    bool grabbed = false;
    glm::vec3 grabTarget{0.0f};
    /// Its velocity (m/s) at the end of the last step it was not held: a fixed body let go
    /// goes back to it (a drag moves a fixed body, it does not throw it).
    glm::vec3 velocityBeforeGrab{0.0f};
    /// The skin model's last sample of the fluid around it (MoveBodies), for the fluid's
    /// acceleration Du_f/Dt on the next step: u_f at the centre (m/s, the stream
    /// included), where (m) and when (s) it was taken; fluidSampleTime < 0 until the
    /// first sample (and with body_sheet, which does not use it).
    glm::vec3 fluidSampleVelocity{0.0f};
    glm::vec3 fluidSamplePosition{0.0f};
    double fluidSampleTime = -1.0;

    glm::vec3 NetForce() const { return fluidForce + weightForce; }
};

/// Sphere volume 4/3·πR³, m³.
float SphereVolume(float radius);
/// Mass ρ_b·V, kg.
float BodyMass(const BodySpec& spec);
/// Moment of inertia of a solid sphere, 2/5·m·R², kg·m².
float BodyInertia(const BodySpec& spec);

}  // namespace vorton
