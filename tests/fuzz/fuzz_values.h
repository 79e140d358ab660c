// Random attribute values, items and substitution maps for the fuzz targets,
// drawn from a seed the fuzzer mutates (a small deterministic generator, so
// that an input replays exactly). Values go through the engine's own
// ValidateValue, as a request's do, before any expression sees them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "service/expr/types.h"
#include "service/validate/item_validation.h"

namespace pogi::fuzz {

// splitmix64: tiny, and every seed gives a different stream.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
  template <typename T, size_t N>
  const T& Pick(const T (&xs)[N]) {
    return xs[Below(N)];
  }

 private:
  uint64_t state_;
};

// Attribute names the expressions' dictionary also uses, including a
// reserved word, a dotted name and key names of the fuzz tables.
inline constexpr const char* kNames[] = {"a", "b", "c", "pk", "sk", "x.y", "name", "list", "map", "n"};

inline std::string RandomNumber(Rng& r) {
  static constexpr const char* kNumbers[] = {"0",
                                             "1",
                                             "-1",
                                             "42",
                                             "0.5",
                                             "-0.000001",
                                             "1e10",
                                             "1E-130",
                                             "9.9999999999999999999999999999999999999E+125",
                                             "-9.9999999999999999999999999999999999999E+125",
                                             "12345678901234567890123456789012345678",
                                             "3.14"};
  if (r.Below(2)) return r.Pick(kNumbers);
  std::string s = r.Below(4) == 0 ? "-" : "";
  s += std::to_string(r.Next() % 100000);
  if (r.Below(3) == 0) s += "." + std::to_string(r.Next() % 1000);
  if (r.Below(4) == 0) s += "e" + std::to_string(static_cast<int>(r.Below(260)) - 130);
  return s;
}

inline std::string RandomString(Rng& r) {
  static constexpr const char* kStrings[] = {"",   "a",    "ab", "abc", "b", "pk", "\xC3\xA9t\xC3\xA9",
                                             "zz", "a\x7F"};
  return r.Pick(kStrings);
}

inline void RandomValue(Rng& r, int depth, expr::AttributeValue* v) {
  switch (r.Below(depth > 2 ? 8 : 10)) {
    case 0:
      v->set_s(RandomString(r));
      break;
    case 1:
      v->set_n(RandomNumber(r));
      break;
    case 2:
      v->set_b(RandomString(r));
      break;
    case 3:
      v->set_bool_value(r.Below(2));
      break;
    case 4:
      v->set_null_value(true);
      break;
    case 5:
      for (size_t i = 0, n = 1 + r.Below(3); i < n; ++i) v->mutable_ss()->add_values(RandomString(r));
      break;
    case 6:
      for (size_t i = 0, n = 1 + r.Below(3); i < n; ++i) v->mutable_ns()->add_values(RandomNumber(r));
      break;
    case 7:
      for (size_t i = 0, n = 1 + r.Below(3); i < n; ++i) v->mutable_bs()->add_values(RandomString(r));
      break;
    case 8:
      v->mutable_l();
      for (size_t i = 0, n = r.Below(4); i < n; ++i) RandomValue(r, depth + 1, v->mutable_l()->add_values());
      break;
    default:
      v->mutable_m();
      for (size_t i = 0, n = r.Below(4); i < n; ++i) {
        RandomValue(r, depth + 1, &(*v->mutable_m()->mutable_fields())[r.Pick(kNames)]);
      }
  }
}

// A valid item: random attributes, those the engine would refuse dropped.
inline expr::AttributeMap RandomItem(Rng& r, size_t max_attributes) {
  expr::AttributeMap item;
  for (size_t i = 0, n = r.Below(max_attributes + 1); i < n; ++i) {
    expr::AttributeValue v;
    RandomValue(r, 0, &v);
    if (service::ValidateValue(&v).ok()) item[r.Pick(kNames)] = std::move(v);
  }
  return item;
}

// ExpressionAttributeValues ":a" .. ":f" (some absent) and
// ExpressionAttributeNames "#a" .. "#f" over kNames.
inline expr::AttributeMap RandomValues(Rng& r) {
  expr::AttributeMap values;
  for (char c = 'a'; c <= 'f'; ++c) {
    if (r.Below(4) == 0) continue;
    expr::AttributeValue v;
    RandomValue(r, 0, &v);
    if (service::ValidateValue(&v).ok()) values[std::string(":") + c] = std::move(v);
  }
  return values;
}

inline expr::NameMap RandomNames(Rng& r) {
  expr::NameMap names;
  for (char c = 'a'; c <= 'f'; ++c) {
    if (r.Below(4) != 0) names[std::string("#") + c] = r.Pick(kNames);
  }
  return names;
}

}  // namespace pogi::fuzz
