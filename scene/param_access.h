#pragma once
/// \file
/// Reading and writing parameters by key, shared by scene files, `--set` and
/// the panel. Keys are those of SimParamInfos() ("ambient_density"), per
/// density group "<group>.<key>" with the keys of GroupParamInfos(), and per
/// rigid body "<body>.<key>" with the keys of BodyParamInfos().

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/result.h"
#include "sim/particles/seeding.h"

namespace vorton {

/// Sets one parameter from a JSON value (number, [x,y,z], a solver name, or for
/// booleans true/false, also the strings "true"/"false" and the numbers 1/0).
/// Errors: unknown key (the message lists the valid keys), wrong type, value
/// outside the parameter's range.
Status SetParam(SceneSetup& setup, const std::string& key, const nlohmann::json& value);

struct CameraSettings;
struct DisplaySettings;

/// Sets the field of `target` that `info` describes from a JSON value, with
/// the checks SetParam makes (type, range inclusive at its ends compared in
/// float, whole numbers for counts); `key` names it in the error. Defined for
/// SimParams, DensityGroup, BodySpec, CameraSettings and DisplaySettings.
template <typename Struct>
Status AssignParam(Struct& target, const ParamInfo<Struct>& info, const std::string& key, const nlohmann::json& value);

/// The value of the field `info` describes as JSON, as a scene file writes it: a float as the
/// shortest decimal that reads back to the same float, a vec3 as [x, y, z], the solver by
/// name, booleans and counts as such. AssignParam(target, info, key, ParamToJson(target, info))
/// restores the field bit for bit. Defined for the structs AssignParam is.
template <typename Struct>
nlohmann::json ParamToJson(const Struct& target, const ParamInfo<Struct>& info);

/// Splits "KEY=VALUE" and converts VALUE: a number, a comma-separated list of
/// numbers (an array), or else a string. Error when there is no '='.
Result<std::pair<std::string, nlohmann::json>> ParseAssignment(const std::string& text);

/// Every settable key of this setup, in panel order (global keys, then each
/// group's, then each body's).
std::vector<std::string> ParamKeys(const SceneSetup& setup);

/// A table of every key with its current value, unit, range and whether it
/// applies live or on reset (for --list-params).
std::string DescribeParams(const SceneSetup& setup);

}  // namespace vorton
