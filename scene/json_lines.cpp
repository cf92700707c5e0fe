#include "json_lines.h"

#include <iterator>
#include <map>
#include <vector>

namespace vorton {

namespace {

/// Input iterator over the text that counts the newlines consumed and
/// records how far the lexer has read, so the parser callback knows the line.
struct LineCountingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* p;
    int* line;
    const char** reached;  // one past the last character read
    reference operator*() const { return *p; }
    LineCountingIterator& operator++() {
        if (*p == '\n') ++*line;
        ++p;
        *reached = p;
        return *this;
    }
    LineCountingIterator operator++(int) {
        LineCountingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const LineCountingIterator& o) const { return p == o.p; }
    bool operator!=(const LineCountingIterator& o) const { return p != o.p; }
};

std::string EscapePointerToken(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

/// Thrown from the parser callback to stop parsing at once.
struct StopParsing {
    int line;
    std::string problem;
};

}  // namespace

std::string Excerpt(const nlohmann::json& value, std::size_t limit) {
    std::string text = value.dump();
    if (text.size() > limit) {
        // Cut at a UTF-8 character boundary.
        std::size_t cut = limit;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
        text.resize(cut);
        text += "…";
    }
    return text;
}

int JsonDocument::LineOf(const std::string& pointer) const {
    std::string p = pointer;
    while (true) {
        const auto it = lines.find(p);
        if (it != lines.end()) return it->second;
        const auto slash = p.rfind('/');
        if (slash == std::string::npos || p.empty()) return 1;
        p.resize(slash);
    }
}

Result<JsonDocument> ParseJsonWithLines(const std::string& text, const std::string& name) {
    JsonDocument doc;
    int line = 1;
    const char* reached = text.data();
    // The lexer reads one character past a number or literal before reporting
    // it; when that is the newline ending the line, `line` is already one
    // ahead. A value's line is that of the last non-blank character read.
    auto valueLine = [&] {
        int l = line;
        for (const char* q = reached; q > text.data(); --q) {
            const char c = q[-1];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
            if (c == '\n') --l;
        }
        return l;
    };
    // The path of the value being parsed: one entry per open container; for
    // objects the last key, for arrays the next index.
    struct Frame {
        bool isArray;
        std::string key;
        int index;
        std::map<std::string, int> keyLines;  // objects: the line of each key so far
    };
    std::vector<Frame> stack;
    auto currentPointer = [&] {
        std::string ptr;
        for (const Frame& f : stack) {
            ptr += '/';
            ptr += f.isArray ? std::to_string(f.index) : EscapePointerToken(f.key);
        }
        return ptr;
    };
    auto valueDone = [&] {
        if (!stack.empty() && stack.back().isArray) ++stack.back().index;
    };
    using nlohmann::json;
    json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                if (int(stack.size()) >= kMaxJsonDepth) {
                    throw StopParsing{valueLine(), "nested deeper than " + std::to_string(kMaxJsonDepth) +
                                                       " arrays or objects"};
                }
                doc.lines.emplace(currentPointer(), valueLine());
                stack.push_back({event == json::parse_event_t::array_start, "", 0, {}});
                break;
            case json::parse_event_t::key: {
                Frame& frame = stack.back();
                frame.key = parsed.get<std::string>();
                const int here = valueLine();
                const auto [it, fresh] = frame.keyLines.emplace(frame.key, here);
                if (!fresh) {
                    throw StopParsing{here, "duplicate key " + Excerpt(json(frame.key)) + " (first given at line " +
                                                std::to_string(it->second) + ")"};
                }
                break;
            }
            case json::parse_event_t::value:
                doc.lines.emplace(currentPointer(), valueLine());
                valueDone();
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                stack.pop_back();
                valueDone();
                break;
        }
        return true;
    };
    try {
        LineCountingIterator first{text.data(), &line, &reached}, last{text.data() + text.size(), &line, &reached};
        doc.root = json::parse(first, last, callback, /*allow_exceptions=*/true, /*ignore_comments=*/true);
    } catch (const StopParsing& stop) {
        return Error{name + ":" + std::to_string(stop.line) + ": " + stop.problem};
    } catch (const json::parse_error& e) {
        // e.byte is 1-based; turn it into line:column.
        int errLine = 1, column = 1;
        for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++errLine;
                column = 1;
            } else {
                ++column;
            }
        }
        std::string what = e.what();
        const auto colon = what.find(": ", what.find("parse error"));
        if (colon != std::string::npos) what = what.substr(colon + 2);
        if (what.size() > 160) what = what.substr(0, 160) + "…";  // it quotes the token read
        return Error{name + ":" + std::to_string(errLine) + ":" + std::to_string(column) + ": invalid JSON: " + what};
    } catch (const json::exception& e) {
        // Not a syntax error: a number too large for a double (out_of_range.406).
        std::string what = e.what();
        const auto bracket = what.find("] ");
        if (bracket != std::string::npos) what = what.substr(bracket + 2);
        if (what.size() > 120) what = what.substr(0, 120) + "…";
        return Error{name + ":" + std::to_string(valueLine()) + ": invalid JSON: " + what};
    }
    return doc;
}

}  // namespace vorton
