// Attribute values for tests: S("a"), N("1.5"), B("raw bytes").
#pragma once

#include <string>

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::test {

inline v1::AttributeValue S(std::string s) {
  v1::AttributeValue v;
  v.set_s(std::move(s));
  return v;
}

inline v1::AttributeValue N(std::string n) {
  v1::AttributeValue v;
  v.set_n(std::move(n));
  return v;
}

inline v1::AttributeValue B(std::string b) {
  v1::AttributeValue v;
  v.set_b(std::move(b));
  return v;
}

}  // namespace pogi::test
