#include "sim/bodies/rigid_body.h"

#include <cmath>
#include <numbers>

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
    int contacts = 0;
    for (int pass = 0; pass < kPasses; ++pass) {
        int found = 0;
        for (std::size_t a = 0; a < spheres.size(); ++a) {
            for (std::size_t b = a + 1; b < spheres.size(); ++b) {
                ContactSphere& A = spheres[a];
                ContactSphere& B = spheres[b];
                const float w = A.inverseMass + B.inverseMass;
                if (!(w > 0.0f)) continue;
                const glm::vec3 d = B.position - A.position;
                const float reach = A.radius + B.radius;
                const float dist2 = glm::dot(d, d);
                if (dist2 >= reach * reach) continue;
                // (Rounding leaves touching spheres a hair inside: not a reason for another pass.)
                if (dist2 < reach * reach * (1.0f - 1.0e-6f)) ++found;
                const float dist = std::sqrt(dist2);
                // Centres that coincide: apart along z (any line would do; this one is the same every run).
                const glm::vec3 n = dist > 0.0f ? d / dist : glm::vec3(0.0f, 0.0f, 1.0f);
                const float overlap = reach - dist;
                A.position -= (overlap * A.inverseMass / w) * n;
                B.position += (overlap * B.inverseMass / w) * n;
                const float closing = glm::dot(B.velocity - A.velocity, n);
                if (closing < 0.0f) {
                    const float e = -closing > restingSpeed ? restitution : 0.0f;
                    const float impulse = -(1.0f + e) * closing / w;
                    A.velocity -= (impulse * A.inverseMass) * n;
                    B.velocity += (impulse * B.inverseMass) * n;
                    if (friction > 0.0f) {
                        // The levers from each centre to the contact point.
                        const glm::vec3 leverA = A.radius * n, leverB = -B.radius * n;
                        const glm::vec3 slip = (B.velocity + glm::cross(B.angularVelocity, leverB)) -
                                               (A.velocity + glm::cross(A.angularVelocity, leverA));
                        const glm::vec3 tangential = slip - glm::dot(slip, n) * n;
                        const float speed = glm::length(tangential);
                        const float k = w + A.radius * A.radius * A.inverseInertia + B.radius * B.radius * B.inverseInertia;
                        if (speed > 0.0f) {
                            const glm::vec3 t = tangential / speed;
                            // On A along +t, on B along −t: the slip's tangential part falls by k·J_t.
                            const glm::vec3 jt = std::min(speed / k, friction * impulse) * t;
                            A.velocity += A.inverseMass * jt;
                            A.angularVelocity += A.inverseInertia * glm::cross(leverA, jt);
                            B.velocity -= B.inverseMass * jt;
                            B.angularVelocity -= B.inverseInertia * glm::cross(leverB, jt);
                        }
                    }
                }
            }
        }
        if (pass == 0) contacts = found;
        if (found == 0) break;
    }
    return contacts;
}

}  // namespace vorton
