#include "param_access.h"

#include "json_lines.h"
#include "display_settings.h"
#include "scene.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>

namespace vorton {

namespace {

using nlohmann::json;

std::string JoinKeys(const SceneSetup& setup) {
    std::string out;
    for (const std::string& k : ParamKeys(setup)) out += (out.empty() ? "" : ", ") + k;
    return out;
}

/// A float as its shortest decimal form (0.01f prints as 0.01, not 0.00999999977).
std::string BoundText(float f) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, f);
    return ec == std::errc{} ? std::string(buffer, end) : std::to_string(f);
}

Error OutOfRange(const std::string& key, const json& value, float min, float max) {
    return Error{key + ": " + Excerpt(value) + " is outside the valid range [" + BoundText(min) + ", " +
                 BoundText(max) + "]"};
}

/// Reads a float parameter. The range is inclusive at its listed ends and
/// compared in float, the parameter's own type (so viscosity=0.01 meets a
/// bound of 0.01f).
Status ReadFloat(const json& value, float min, float max, const std::string& key, float* out) {
    if (!value.is_number()) return Error{key + ": expected a number, got " + Excerpt(value)};
    const double v = value.get<double>();
    if (!std::isfinite(v) || std::abs(v) > double(std::numeric_limits<float>::max())) {
        return OutOfRange(key, value, min, max);
    }
    const float f = float(v);
    if (f < min || f > max) return OutOfRange(key, value, min, max);
    *out = f;
    return Ok{};
}

/// Reads a count: any JSON number that is a whole number (1e4 and 10000.0
/// are 10000), within [min, max].
Status ReadInt(const json& value, float min, float max, const std::string& key, int* out) {
    if (!value.is_number()) return Error{key + ": expected a whole number, got " + Excerpt(value)};
    const double v = value.get<double>();
    if (!std::isfinite(v) || v != std::floor(v)) {
        return Error{key + ": expected a whole number, got " + Excerpt(value)};
    }
    if (v < double(min) || v > double(max)) return OutOfRange(key, value, min, max);
    *out = int(v);
    return Ok{};
}

}  // namespace

template <typename Struct>
Status AssignParam(Struct& target, const ParamInfo<Struct>& info, const std::string& key, const json& value) {
    return std::visit(
        [&](auto member) -> Status {
            using T = std::remove_cvref_t<decltype(target.*member)>;
            if constexpr (std::is_same_v<T, float>) {
                return ReadFloat(value, info.min, info.max, key, &(target.*member));
            } else if constexpr (std::is_same_v<T, int>) {
                return ReadInt(value, info.min, info.max, key, &(target.*member));
            } else if constexpr (std::is_same_v<T, glm::vec3>) {
                if (!value.is_array() || value.size() != 3) {
                    return Error{key + ": expected three numbers x,y,z, got " + Excerpt(value)};
                }
                glm::vec3 v;
                for (int a = 0; a < 3; ++a) {
                    if (Status s = ReadFloat(value[std::size_t(a)], info.min, info.max, key, &v[a]); !s) return s;
                }
                target.*member = v;
                return Ok{};
            } else if constexpr (std::is_same_v<T, bool>) {
                // JSON true/false; from --set, the strings "true"/"false" or the numbers 1/0.
                if (value.is_boolean()) {
                    target.*member = value.get<bool>();
                } else if (value == json("true") || value == json(1)) {
                    target.*member = true;
                } else if (value == json("false") || value == json(0)) {
                    target.*member = false;
                } else {
                    return Error{key + ": expected true or false, got " + Excerpt(value)};
                }
                return Ok{};
            } else {
                static_assert(std::is_same_v<T, Solver>);
                const std::optional<Solver> solver =
                    value.is_string() ? SolverFromName(value.get<std::string>()) : std::nullopt;
                if (!solver) {
                    return Error{key + ": unknown solver " + Excerpt(value) + " (valid: " + SolverNames(", ") + ")"};
                }
                target.*member = *solver;
                return Ok{};
            }
        },
        info.member);
}

template Status AssignParam(SimParams&, const ParamInfo<SimParams>&, const std::string&, const json&);
template Status AssignParam(DensityGroup&, const ParamInfo<DensityGroup>&, const std::string&, const json&);
template Status AssignParam(BodySpec&, const ParamInfo<BodySpec>&, const std::string&, const json&);
template Status AssignParam(CameraSettings&, const ParamInfo<CameraSettings>&, const std::string&, const json&);
template Status AssignParam(DisplaySettings&, const ParamInfo<DisplaySettings>&, const std::string&, const json&);

namespace {

/// A float as the double of its shortest decimal form, so 0.05f prints as 0.05.
double Shortest(float f) { return std::strtod(BoundText(f).c_str(), nullptr); }

}  // namespace

template <typename Struct>
json ParamToJson(const Struct& target, const ParamInfo<Struct>& info) {
    return std::visit(
        [&](auto member) -> json {
            using T = std::remove_cvref_t<decltype(target.*member)>;
            const T& v = target.*member;
            if constexpr (std::is_same_v<T, glm::vec3>) {
                return json::array({Shortest(v.x), Shortest(v.y), Shortest(v.z)});
            } else if constexpr (std::is_same_v<T, float>) {
                return Shortest(v);
            } else if constexpr (std::is_same_v<T, Solver>) {
                return std::string(SolverName(v));
            } else {
                return v;
            }
        },
        info.member);
}

template json ParamToJson(const SimParams&, const ParamInfo<SimParams>&);
template json ParamToJson(const DensityGroup&, const ParamInfo<DensityGroup>&);
template json ParamToJson(const BodySpec&, const ParamInfo<BodySpec>&);
template json ParamToJson(const CameraSettings&, const ParamInfo<CameraSettings>&);
template json ParamToJson(const DisplaySettings&, const ParamInfo<DisplaySettings>&);

Status SetParam(SceneSetup& setup, const std::string& key, const json& value) {
    for (const auto& info : SimParamInfos()) {
        if (key == info.key) return AssignParam(setup.params, info, key, value);
    }
    const auto dot = key.find('.');
    if (dot != std::string::npos) {
        const std::string groupName = key.substr(0, dot), field = key.substr(dot + 1);
        for (DensityGroup& g : setup.groups) {
            if (g.name != groupName) continue;
            for (const auto& info : GroupParamInfos()) {
                if (field == info.key) return AssignParam(g, info, key, value);
            }
        }
        for (BodySpec& b : setup.bodies) {
            if (b.name != groupName) continue;
            for (const auto& info : BodyParamInfos()) {
                if (field == info.key) return AssignParam(b, info, key, value);
            }
        }
    }
    return Error{"unknown parameter '" + key + "'; valid keys: " + JoinKeys(setup)};
}

Result<std::pair<std::string, json>> ParseAssignment(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) return Error{"expected KEY=VALUE, got '" + text + "'"};
    const std::string key = text.substr(0, eq), valueText = text.substr(eq + 1);
    auto parseNumber = [](const std::string& s, json* out) {
        std::istringstream in(s);
        double d;
        if (!(in >> d) || !(in >> std::ws).eof()) return false;
        const bool integral = s.find_first_of(".eE") == std::string::npos && std::abs(d) < 2.0e9;
        *out = integral ? json(std::int64_t(d)) : json(d);
        return true;
    };
    json value;
    if (valueText.find(',') != std::string::npos) {
        value = json::array();
        std::istringstream parts(valueText);
        std::string part;
        while (std::getline(parts, part, ',')) {
            json n;
            if (!parseNumber(part, &n)) return Error{key + ": '" + part + "' in '" + valueText + "' is not a number"};
            value.push_back(n);
        }
    } else if (!parseNumber(valueText, &value)) {
        value = valueText;
    }
    return std::make_pair(key, value);
}

std::vector<std::string> ParamKeys(const SceneSetup& setup) {
    std::vector<std::string> keys;
    for (const auto& info : SimParamInfos()) keys.emplace_back(info.key);
    for (const DensityGroup& g : setup.groups) {
        for (const auto& info : GroupParamInfos()) keys.push_back(g.name + "." + std::string(info.key));
    }
    for (const BodySpec& b : setup.bodies) {
        for (const auto& info : BodyParamInfos()) keys.push_back(b.name + "." + std::string(info.key));
    }
    return keys;
}

std::string DescribeParams(const SceneSetup& setup) {
    std::ostringstream out;
    auto row = [&](const std::string& key, const json& value, std::string_view unit, float min, float max, bool live,
                   std::string_view help) {
        std::ostringstream range;
        if (value.is_boolean()) {
            range << "true|false";  // min/max are unused for booleans
        } else if (value.is_string()) {
            range << SolverNames("|");  // the one enum parameter, solver
        } else {
            range << "[" << BoundText(min) << ", " << BoundText(max) << "]";
        }
        out << std::left << std::setw(34) << key << std::setw(22) << value.dump() << std::setw(8) << unit
            << range.str() << " " << (live ? "live" : "on reset") << "  " << help << "\n";
    };
    for (const auto& info : SimParamInfos()) {
        row(std::string(info.key), ParamToJson(setup.params, info), info.unit, info.min, info.max, info.live, info.help);
    }
    for (const DensityGroup& g : setup.groups) {
        for (const auto& info : GroupParamInfos()) {
            row(g.name + "." + std::string(info.key), ParamToJson(g, info), info.unit, info.min, info.max, info.live,
                info.help);
        }
    }
    for (const BodySpec& b : setup.bodies) {
        for (const auto& info : BodyParamInfos()) {
            row(b.name + "." + std::string(info.key), ParamToJson(b, info), info.unit, info.min, info.max, info.live,
                info.help);
        }
    }
    return out.str();
}

}  // namespace vorton
