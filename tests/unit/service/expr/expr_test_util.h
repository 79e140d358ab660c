// Helpers shared by the expression unit tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "service/expr/types.h"

namespace pogi::expr::testing {

inline AttributeValue S(std::string s) {
  AttributeValue v;
  v.set_s(std::move(s));
  return v;
}
inline AttributeValue N(std::string n) {
  AttributeValue v;
  v.set_n(std::move(n));
  return v;
}
inline AttributeValue Bool(bool b) {
  AttributeValue v;
  v.set_bool_value(b);
  return v;
}
inline AttributeValue SS(std::vector<std::string> xs) {
  AttributeValue v;
  for (auto& x : xs) v.mutable_ss()->add_values(x);
  return v;
}
inline AttributeValue NS(std::vector<std::string> xs) {
  AttributeValue v;
  for (auto& x : xs) v.mutable_ns()->add_values(x);
  return v;
}
inline AttributeValue L(std::vector<AttributeValue> xs) {
  AttributeValue v;
  v.mutable_l();
  for (auto& x : xs) *v.mutable_l()->add_values() = x;
  return v;
}
inline AttributeValue M(std::vector<std::pair<std::string, AttributeValue>> xs) {
  AttributeValue v;
  v.mutable_m();
  for (auto& [k, x] : xs) (*v.mutable_m()->mutable_fields())[k] = x;
  return v;
}
inline AttributeMap Item(std::vector<std::pair<std::string, AttributeValue>> xs) {
  AttributeMap m;
  for (auto& [k, x] : xs) m[k] = x;
  return m;
}

}  // namespace pogi::expr::testing
