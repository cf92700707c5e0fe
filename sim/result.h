#pragma once
/// \file
/// A value-or-error result for operations a user can get wrong (files, flags,
/// GL context, disk). Asserts are for programmer errors only.

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace vorton {

/// An error message meant for a person: names the file, flag or key and the problem.
struct Error {
    std::string message;
};

/// Holds either a T or an Error. Test with `ok()`, read with `value()` / `error()`.
template <typename T>
class Result {
public:
    Result(T value) : m_data(std::move(value)) {}
    Result(Error error) : m_data(std::move(error)) {}
    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_data); }
    const T& value() const { return std::get<0>(m_data); }
    const std::string& error() const { return std::get<1>(m_data).message; }

private:
    std::variant<T, Error> m_data;
};

/// Result of an operation with no value.
struct Ok {};
using Status = Result<Ok>;

}  // namespace vorton
