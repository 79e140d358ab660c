// Attribute values for tests: S("a"), N("1.5"), B("raw bytes").
#pragma once

#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/value/decoded.h"

namespace pogi::test {

// An engine's answer as a gRPC client reads it, the items it carries as
// bytes decoded into its fields (service/value/decoded.h).
template <typename M>
Result<M> Decode(Result<M> answer) {
  if (!answer.ok()) return answer;
  return value::Decoded(*answer);
}

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
