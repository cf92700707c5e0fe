#pragma once
/// \file
/// Rigid spheres moved by the fluid (Gourlay part 4: fluid–body interaction;
/// part 9: body buoyancy).

#include <span>
#include <string>
#include <vector>

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

/// Which body of `before` each body of `after` is, by name (a setup's names are
/// unique: SetupProblem): per body of `after`, the index in `before` of the body
/// of its name, or −1 for a body `before` does not have. Bodies added, removed or
/// reordered by an edit (the panel's "Add a ball", "Remove", an undo) keep their
/// state through it (Simulation::SyncBodies, the worker's plots).
std::vector<int> MatchBodies(std::span<const std::string> before, std::span<const BodySpec> after);

/// A sphere in a contact (ResolveSphereContacts): centre (m), velocity (m/s),
/// radius (m), 1/mass (1/kg; 0: immovable, as a fixed or held body), angular
/// velocity (rad/s) and 1/moment of inertia (1/(kg m²); 0: its spin is not
/// changed, as a fixed or held body's, whose surface still moves with it).
struct ContactSphere {
    glm::vec3 position{0.0f};
    glm::vec3 velocity{0.0f};
    float radius = 0.0f;
    float inverseMass = 0.0f;
    glm::vec3 angularVelocity{0.0f};
    float inverseInertia = 0.0f;
};

/// Contacts of rigid spheres, pair by pair in index order (so the result does
/// not depend on threads): spheres that overlap are moved apart along the line
/// of their centres n, each by its share 1/m of the overlap, and if they close
/// along it at speed v_n they take the normal impulse J_n that makes them
/// leave at `restitution`·v_n (Newton's law of restitution). Spheres that close
/// slower than `restingSpeed` (m/s) stop against each other instead
/// (restitution 0): a resting contact, as Box2D's velocity threshold makes
/// one, so a ball lying on another does not bounce a little every step.
///
/// Coulomb friction (`friction` μ ≥ 0): with J_n, a tangential impulse J_t at
/// the contact point, against the surfaces' slip u_t there (centre velocities
/// and ω × the lever ±R n), of the size that stops the slip,
/// |u_t| / (1/m_a + 1/m_b + R_a²/I_a + R_b²/I_b), but at most μ J_n (Stronge,
/// *Impact Mechanics*, 2000, ch. 5). A ball sliding onto an immovable one
/// without reaching μ J_n leaves rolling at 5/7 of its tangential speed
/// (I = ⅖ m R²). Both impulses act at the one contact point, so momentum
/// Σ m v and angular momentum Σ (m x × v + I ω) are kept between movable
/// spheres.
///
/// Spheres that touch more than one other: up to 16 passes (Gauss–Seidel)
/// with accumulated impulses (Catto, "Iterative dynamics with temporal
/// coherence", GDC 2005; Box2D's and Jolt's contact solvers): a pair found
/// overlapping stays a contact for the rest of the call, each pass corrects
/// its J_n and J_t toward the target normal speed and no slip, and the sums,
/// not each pass's part, are bounded: J_n ≥ 0 and |J_t| ≤ μ J_n. A ball
/// landing in the groove between two immovable ones at once leaves it
/// moving along the groove only, at the speed the summed bound gives (a
/// correction that only ever pushed threw it sideways and up). A row of five
/// pushed 1 cm into each other ends within 0.1 mm. Returns the contacts found
/// in the first pass.
int ResolveSphereContacts(std::span<ContactSphere> spheres, float restitution, float restingSpeed = 0.0f,
                          float friction = 0.0f);

}  // namespace vorton
