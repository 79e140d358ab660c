// Result<T>: a value or a pogi::Error, and the macros that propagate errors.
#pragma once

#include <optional>
#include <utility>
#include <variant>

#include "common/error.h"

namespace pogi {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

// Status: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT
  static Status Ok() { return {}; }
  bool ok() const { return !error_.has_value(); }
  const Error& error() const& { return *error_; }
  Error&& error() && { return std::move(*error_); }

 private:
  std::optional<Error> error_;
};

}  // namespace pogi

#define POGI_CONCAT_INNER(a, b) a##b
#define POGI_CONCAT(a, b) POGI_CONCAT_INNER(a, b)

// Returns the error of a Status or Result expression from the enclosing function.
#define POGI_RETURN_IF_ERROR(expr)                                  \
  do {                                                              \
    auto&& pogi_status_ = (expr);                                   \
    if (!pogi_status_.ok()) return std::move(pogi_status_).error(); \
  } while (0)

// POGI_ASSIGN_OR_RETURN(auto x, ResultExpr()): binds the value or returns the error.
#define POGI_ASSIGN_OR_RETURN(lhs, expr) \
  POGI_ASSIGN_OR_RETURN_IMPL(POGI_CONCAT(pogi_result_, __LINE__), lhs, expr)
#define POGI_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp.ok()) return std::move(tmp).error();    \
  lhs = std::move(tmp).value()
