// Random items of every attribute type, for the tests of the writers that
// go from stored bytes to JSON (tests/unit/gateway/): strings that exercise
// JSON's escapes, binaries of any byte, sets, and maps and lists nested up to
// five levels.
#pragma once

#include <random>
#include <string>

#include "pogi/v1/dynamodb.pb.h"
#include "service/value/item.h"

namespace pogi::test {

// Strings that exercise JSON escaping: quotes, backslashes, control
// characters and UTF-8, at varying offsets from 8-byte boundaries.
inline std::string RandomText(std::mt19937& rng) {
  static const std::string kPieces[] = {
      "a", "xyz", "\"", "\\", "\n", "\t", "\x01", "\x1f", "é", "漢", " ", "0123456789abcdef", "/", "\x7f"};
  std::string s;
  int n = std::uniform_int_distribution<int>(0, 12)(rng);
  for (int i = 0; i < n; ++i) s += kPieces[rng() % std::size(kPieces)];
  return s;
}

inline std::string RandomBytes(std::mt19937& rng) {
  std::string s(std::uniform_int_distribution<int>(0, 20)(rng), '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

inline v1::AttributeValue RandomValue(std::mt19937& rng, int depth) {
  v1::AttributeValue v;
  int kind = std::uniform_int_distribution<int>(0, depth < 4 ? 9 : 6)(rng);
  switch (kind) {
    case 0:
      v.set_s(RandomText(rng));
      break;
    case 1:
      v.set_n(std::to_string(static_cast<int>(rng() % 100000)) + ".5");
      break;
    case 2:
      v.set_b(RandomBytes(rng));
      break;
    case 3:
      for (int i = rng() % 4; i >= 0; --i) v.mutable_ss()->add_values(RandomText(rng));
      break;
    case 4:
      for (int i = rng() % 4; i >= 0; --i) v.mutable_ns()->add_values(std::to_string(i));
      break;
    case 5:
      v.set_null_value(true);
      break;
    case 6:
      v.set_bool_value(rng() % 2);
      break;
    case 7:
      for (int i = rng() % 4; i >= 0; --i) v.mutable_bs()->add_values(RandomBytes(rng));
      break;
    case 8:
      v.mutable_m();  // possibly empty
      for (int i = rng() % 4; i > 0; --i) {
        (*v.mutable_m()->mutable_fields())[RandomText(rng)] = RandomValue(rng, depth + 1);
      }
      break;
    default:
      v.mutable_l();
      for (int i = rng() % 4; i > 0; --i) *v.mutable_l()->add_values() = RandomValue(rng, depth + 1);
  }
  return v;
}

inline value::AttributeMap RandomItem(std::mt19937& rng) {
  value::AttributeMap item;
  for (int i = rng() % 6; i >= 0; --i) item[RandomText(rng)] = RandomValue(rng, 0);
  return item;
}

}  // namespace pogi::test
