#include "json_lines.h"

#include <iterator>
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

}  // namespace

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
                doc.lines.emplace(currentPointer(), valueLine());
                stack.push_back({event == json::parse_event_t::array_start, "", 0});
                break;
            case json::parse_event_t::key:
                stack.back().key = parsed.get<std::string>();
                break;
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
        return Error{name + ":" + std::to_string(errLine) + ":" + std::to_string(column) + ": invalid JSON: " + what};
    }
    return doc;
}

}  // namespace vorton
