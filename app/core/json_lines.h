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

/// Parses text; on a syntax error the message is "<name>:<line>:<column>: <problem>".
Result<JsonDocument> ParseJsonWithLines(const std::string& text, const std::string& name);

}  // namespace vorton
