#include "sim/bodies/rigid_body.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <glm/geometric.hpp>

namespace vorton {

float SphereVolume(float radius) { return 4.0f / 3.0f * std::numbers::pi_v<float> * radius * radius * radius; }

float BodyMass(const BodySpec& spec) { return spec.density * SphereVolume(spec.radius); }

float BodyInertia(const BodySpec& spec) { return 0.4f * BodyMass(spec) * spec.radius * spec.radius; }

std::vector<int> MatchBodies(std::span<const std::string> before, std::span<const BodySpec> after) {
    std::vector<int> from(after.size(), -1);
    std::vector<char> taken(before.size(), 0);
    for (std::size_t i = 0; i < after.size(); ++i) {
        // The same index first: an edit that keeps the bodies keeps their order.
        if (i < before.size() && !taken[i] && before[i] == after[i].name) {
            from[i] = int(i);
            taken[i] = 1;
            continue;
        }
        for (std::size_t j = 0; j < before.size(); ++j) {
            if (!taken[j] && before[j] == after[i].name) {
                from[i] = int(j);
                taken[j] = 1;
                break;
            }
        }
    }
    return from;
}

int ResolveSphereContacts(std::span<ContactSphere> spheres, float restitution, float restingSpeed, float friction) {
    constexpr int kPasses = 16;
    // A contact's impulses summed over the passes (Catto's accumulated impulses):
    // once found overlapping, a pair stays a contact for the rest of the call.
    struct Contact {
        bool active = false;
        float target = 0.0f;       // the normal speed it leaves at (m/s): e·(closing speed when found), or 0
        float normal = 0.0f;       // J_n so far (kg m/s), ≥ 0
        glm::vec3 tangential{0.0f};  // J_t so far, on A (on B: −J_t), |J_t| ≤ μ J_n
    };
    const std::size_t n = spheres.size();
    std::vector<Contact> contacts(n > 1 ? n * (n - 1) / 2 : 0);
    // The target speeds of the pairs that touch now, from the velocities they
    // meet with, before any impulse (another contact's would change them).
    const auto target = [&](float closing) {
        return closing < 0.0f && -closing > restingSpeed ? -restitution * closing : 0.0f;
    };
    for (std::size_t a = 0, pair = 0; a < n; ++a) {
        for (std::size_t b = a + 1; b < n; ++b, ++pair) {
            const glm::vec3 d = spheres[b].position - spheres[a].position;
            const float reach = spheres[a].radius + spheres[b].radius, dist = glm::length(d);
            if (!(dist < reach) || !(spheres[a].inverseMass + spheres[b].inverseMass > 0.0f)) continue;
            const glm::vec3 nAB = dist > 0.0f ? d / dist : glm::vec3(0.0f, 0.0f, 1.0f);
            contacts[pair].active = true;
            contacts[pair].target = target(glm::dot(spheres[b].velocity - spheres[a].velocity, nAB));
        }
    }
    int firstFound = 0;
    for (int pass = 0; pass < kPasses; ++pass) {
        int found = 0;
        bool changed = false;
        std::size_t pair = 0;
        for (std::size_t a = 0; a < n; ++a) {
            for (std::size_t b = a + 1; b < n; ++b, ++pair) {
                ContactSphere& A = spheres[a];
                ContactSphere& B = spheres[b];
                Contact& contact = contacts[pair];
                const float w = A.inverseMass + B.inverseMass;
                if (!(w > 0.0f)) continue;
                const glm::vec3 d = B.position - A.position;
                const float reach = A.radius + B.radius;
                const float dist2 = glm::dot(d, d);
                const bool overlap = dist2 < reach * reach;
                if (!overlap && !contact.active) continue;
                const float dist = std::sqrt(dist2);
                // Centres that coincide: apart along z (any line would do; this one is the same every run).
                const glm::vec3 nAB = dist > 0.0f ? d / dist : glm::vec3(0.0f, 0.0f, 1.0f);
                if (overlap) {
                    // (Rounding leaves touching spheres a hair inside: not a reason for another pass.)
                    if (dist2 < reach * reach * (1.0f - 1.0e-6f)) ++found;
                    const float depth = reach - dist;
                    A.position -= (depth * A.inverseMass / w) * nAB;
                    B.position += (depth * B.inverseMass / w) * nAB;
                }
                const float closing = glm::dot(B.velocity - A.velocity, nAB);
                if (!contact.active) {  // pushed into touch by another contact's correction
                    contact.active = true;
                    contact.target = target(closing);
                }
                // The normal impulse that brings the normal speed to the target, with the
                // sum kept ≥ 0 (a contact pushes, never pulls: a later pass may take back
                // what an earlier one gave too much).
                const float total = std::max(contact.normal + (contact.target - closing) / w, 0.0f);
                const float jn = total - contact.normal;
                contact.normal = total;
                A.velocity -= (jn * A.inverseMass) * nAB;
                B.velocity += (jn * B.inverseMass) * nAB;
                changed = changed || std::abs(jn) * w > 1.0e-6f;
                if (!(friction > 0.0f)) continue;
                // The levers from each centre to the contact point.
                const glm::vec3 leverA = A.radius * nAB, leverB = -B.radius * nAB;
                const glm::vec3 slip = (B.velocity + glm::cross(B.angularVelocity, leverB)) -
                                       (A.velocity + glm::cross(A.angularVelocity, leverA));
                const glm::vec3 tangential = slip - glm::dot(slip, nAB) * nAB;
                const float k = w + A.radius * A.radius * A.inverseInertia + B.radius * B.radius * B.inverseInertia;
                // On A along the slip, on B against it: the slip's tangential part falls by k·J_t.
                // The sum is kept in the tangent plane and within the Coulomb bound μ J_n.
                const glm::vec3 before = contact.tangential - glm::dot(contact.tangential, nAB) * nAB;
                glm::vec3 sum = before + tangential / k;
                const float size = glm::length(sum), bound = friction * contact.normal;
                if (size > bound) sum *= bound / size;  // size > bound ≥ 0
                const glm::vec3 jt = sum - before;
                contact.tangential = sum;
                A.velocity += A.inverseMass * jt;
                A.angularVelocity += A.inverseInertia * glm::cross(leverA, jt);
                B.velocity -= B.inverseMass * jt;
                B.angularVelocity -= B.inverseInertia * glm::cross(leverB, jt);
                changed = changed || glm::length(jt) * k > 1.0e-6f;
            }
        }
        if (pass == 0) firstFound = found;
        if (found == 0 && !changed) break;
    }
    return firstFound;
}

}  // namespace vorton
