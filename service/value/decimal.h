// Decimal: DynamoDB's number type. Up to 38 significant decimal digits,
// magnitudes from 1E-130 to 9.9999999999999999999999999999999999999E+125,
// exact arithmetic, canonical text form, and an order-preserving byte encoding
// for keys. Never goes through double.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pogi::value {

class Decimal {
 public:
  // Zero.
  Decimal() = default;

  // Parses DynamoDB number text ("12", "-1.50", "1e3", ".5", "5.", "+3").
  // Errors are ValidationExceptions with DynamoDB's messages: text that is not
  // a number, more than 38 significant digits, overflow, underflow.
  static Result<Decimal> Parse(std::string_view text);

  // Canonical form, as DynamoDB returns numbers: no exponent notation, no
  // trailing zeros after the point, no leading zeros, "-0" is "0"
  // ("1.50" -> "1.5", "1e3" -> "1000", "-0.0" -> "0", "1E-5" -> "0.00001").
  std::string ToString() const;

  // -1, 0, 1. Numerically: 1e3 == 1000 == 1000.0.
  int Compare(const Decimal& other) const;
  bool operator==(const Decimal& o) const { return Compare(o) == 0; }
  bool operator<(const Decimal& o) const { return Compare(o) < 0; }

  bool IsZero() const;
  bool IsNegative() const;

  // Exact sum and difference. The result is checked like Parse's input:
  // more than 38 significant digits, overflow or underflow is a
  // ValidationException with DynamoDB's message.
  static Result<Decimal> Add(const Decimal& a, const Decimal& b);
  static Result<Decimal> Subtract(const Decimal& a, const Decimal& b);

  // Appends a byte string such that for any a, b:
  //   a < b  <=>  memcmp-order(enc(a)) < memcmp-order(enc(b)), and
  //   a == b <=>  enc(a) == enc(b).
  // DO NOT CHANGE: embedded in on-disk data (keys of stored items).
  void AppendKeyEncoding(std::string* out) const;

  // Inverse of AppendKeyEncoding: decodes one number from the front of *in
  // and advances *in past it. False on malformed input.
  static bool DecodeKey(std::string_view* in, Decimal* out);

 private:
  // The Decimal of value (-1)^negative * 0.<digits> * 10^point, where digits
  // may carry leading and trailing zeros. Checks the range and the 38-digit
  // limit; `arithmetic` selects the message DynamoDB gives for a computed
  // result with too many digits.
  static Result<Decimal> Normalize(bool negative, std::string_view digits, int64_t point, bool arithmetic);

  // Representation: sign, digits (most significant first, no leading or
  // trailing zeros; empty for zero), and exponent such that
  // value = (-1)^negative * 0.d1d2d3... * 10^exponent.
  bool negative_ = false;
  std::string digits_;  // '0'..'9' characters, at most 38
  int32_t exponent_ = 0;
};

}  // namespace pogi::value
