#pragma once
/// \file
/// Parses JSON (comments allowed) with nlohmann-json and remembers the source
/// line of every value, so that errors found after parsing (wrong type, bad
/// range, unknown key) can still name file:line.

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace vorton {

/// A parsed document and the 1-based line of each value, keyed by JSON pointer
/// ("/groups/0/radius").
struct JsonDocument {
    nlohmann::json root;
    std::map<std::string, int> lines;

    /// Line of the value at `pointer`, or of its nearest ancestor found.
    int LineOf(const std::string& pointer) const;
};

/// Containers may nest this deep, no deeper (checked while parsing, so a
/// pathological file costs no more than a normal one).
inline constexpr int kMaxJsonDepth = 64;

/// Parses text. Errors, as "<name>:<line>[:<column>]: <problem>":
/// a syntax error; nesting deeper than kMaxJsonDepth; a key given twice in one
/// object (both lines named); a number outside the range of a double.
Result<JsonDocument> ParseJsonWithLines(const std::string& text, const std::string& name);

/// `value` as JSON text for a message, cut to about `limit` characters ("…" added).
std::string Excerpt(const nlohmann::json& value, std::size_t limit = 60);

}  // namespace vorton
