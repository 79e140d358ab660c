// What the Ion text and binary parsers share: set annotations, and the
// digits of a big-endian magnitude.
#include <algorithm>

#include "jobs/ion_reader.h"

namespace pogi::jobs {

bool IsIonBinary(std::string_view data) {
  return data.substr(0, 4) == std::string_view("\xE0\x01\x00\xEA", 4);
}

void ApplyIonAnnotations(const std::vector<std::string>& annotations, v1::AttributeValue* v,
                         std::string* error) {
  for (const std::string& a : annotations) {
    if (a != "$dynamodb_SS" && a != "$dynamodb_NS" && a != "$dynamodb_BS") continue;
    if (!v->has_l()) {
      if (error->empty()) *error = "An Ion value annotated " + a + " must be a list";
      return;
    }
    v1::AttributeValue set;
    auto want = a == "$dynamodb_SS"   ? v1::AttributeValue::kS
                : a == "$dynamodb_NS" ? v1::AttributeValue::kN
                                      : v1::AttributeValue::kB;
    for (const auto& e : v->l().values()) {
      if (e.value_case() != want) {
        if (error->empty()) {
          *error = "The list annotated " + a + " holds a value that is not " +
                   (want == v1::AttributeValue::kS   ? "a string"
                    : want == v1::AttributeValue::kN ? "a decimal"
                                                     : "a blob");
        }
        return;
      }
      if (want == v1::AttributeValue::kS) set.mutable_ss()->add_values(e.s());
      if (want == v1::AttributeValue::kN) set.mutable_ns()->add_values(e.n());
      if (want == v1::AttributeValue::kB) set.mutable_bs()->add_values(e.b());
    }
    // An empty list still names its set: ValidateValue refuses the empty set
    // with DynamoDB's message.
    if (want == v1::AttributeValue::kS) set.mutable_ss();
    if (want == v1::AttributeValue::kN) set.mutable_ns();
    if (want == v1::AttributeValue::kB) set.mutable_bs();
    *v = std::move(set);
    return;
  }
}

std::string MagnitudeToDecimal(std::string_view big_endian) {
  // Base 256 to base 10, one byte at a time into little-endian digits.
  std::vector<uint8_t> digits;  // least significant first
  for (unsigned char byte : big_endian) {
    int carry = byte;
    for (auto& d : digits) {
      int x = d * 256 + carry;
      d = static_cast<uint8_t>(x % 10);
      carry = x / 10;
    }
    while (carry) {
      digits.push_back(static_cast<uint8_t>(carry % 10));
      carry /= 10;
    }
  }
  if (digits.empty()) return "0";
  std::string out;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) out.push_back(static_cast<char>('0' + *it));
  return out;
}

}  // namespace pogi::jobs
