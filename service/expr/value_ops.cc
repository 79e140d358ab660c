// Type names, equality, ordering and size() of AttributeValues.
#include "service/expr/value_ops.h"

#include <algorithm>
#include <vector>

#include "service/value/decimal.h"

namespace pogi::expr {

using value::Decimal;

std::string_view TypeName(const AttributeValue& v) {
  switch (v.value_case()) {
    case AttributeValue::kS:
      return "S";
    case AttributeValue::kN:
      return "N";
    case AttributeValue::kB:
      return "B";
    case AttributeValue::kSs:
      return "SS";
    case AttributeValue::kNs:
      return "NS";
    case AttributeValue::kBs:
      return "BS";
    case AttributeValue::kM:
      return "M";
    case AttributeValue::kL:
      return "L";
    case AttributeValue::kNullValue:
      return "NULL";
    case AttributeValue::kBoolValue:
      return "BOOL";
    case AttributeValue::VALUE_NOT_SET:
      return "";
  }
  return "";
}

std::string_view LongTypeName(const AttributeValue& v) {
  switch (v.value_case()) {
    case AttributeValue::kS:
      return "STRING";
    case AttributeValue::kN:
      return "NUMBER";
    case AttributeValue::kB:
      return "BINARY";
    case AttributeValue::kM:
      return "MAP";
    case AttributeValue::kL:
      return "LIST";
    case AttributeValue::kNullValue:
      return "NULL";
    case AttributeValue::kBoolValue:
      return "BOOLEAN";
    default:
      return "";
  }
}

bool IsSet(const AttributeValue& v) { return v.has_ss() || v.has_ns() || v.has_bs(); }

namespace {

std::optional<int> CompareNumbers(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  auto da = Decimal::Parse(a);
  auto db = Decimal::Parse(b);
  if (!da.ok() || !db.ok()) return std::nullopt;
  return da->Compare(*db);
}

template <typename Repeated>
bool SameStringSet(const Repeated& a, const Repeated& b) {
  if (a.size() != b.size()) return false;
  std::vector<std::string_view> x(a.begin(), a.end()), y(b.begin(), b.end());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

bool SameNumberSet(const v1::StringSetValue& a, const v1::StringSetValue& b) {
  if (a.values_size() != b.values_size()) return false;
  std::vector<Decimal> x, y;
  for (const auto& s : a.values()) {
    auto d = Decimal::Parse(s);
    if (!d.ok()) return false;
    x.push_back(*d);
  }
  for (const auto& s : b.values()) {
    auto d = Decimal::Parse(s);
    if (!d.ok()) return false;
    y.push_back(*d);
  }
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  for (size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] == y[i])) return false;
  }
  return true;
}

}  // namespace

bool ValuesEqual(const AttributeValue& a, const AttributeValue& b) {
  if (a.value_case() != b.value_case()) return false;
  switch (a.value_case()) {
    case AttributeValue::kS:
      return a.s() == b.s();
    case AttributeValue::kN: {
      auto c = CompareNumbers(a.n(), b.n());
      return c.has_value() && *c == 0;
    }
    case AttributeValue::kB:
      return a.b() == b.b();
    case AttributeValue::kSs:
      return SameStringSet(a.ss().values(), b.ss().values());
    case AttributeValue::kNs:
      return SameNumberSet(a.ns(), b.ns());
    case AttributeValue::kBs:
      return SameStringSet(a.bs().values(), b.bs().values());
    case AttributeValue::kM: {
      const auto& x = a.m().fields();
      const auto& y = b.m().fields();
      if (x.size() != y.size()) return false;
      for (const auto& [key, value] : x) {
        auto it = y.find(key);
        if (it == y.end() || !ValuesEqual(value, it->second)) return false;
      }
      return true;
    }
    case AttributeValue::kL: {
      const auto& x = a.l().values();
      const auto& y = b.l().values();
      if (x.size() != y.size()) return false;
      for (int i = 0; i < x.size(); ++i) {
        if (!ValuesEqual(x[i], y[i])) return false;
      }
      return true;
    }
    case AttributeValue::kNullValue:
      return true;
    case AttributeValue::kBoolValue:
      return a.bool_value() == b.bool_value();
    case AttributeValue::VALUE_NOT_SET:
      return false;
  }
  return false;
}

std::optional<int> CompareOrdered(const AttributeValue& a, const AttributeValue& b) {
  if (a.value_case() != b.value_case()) return std::nullopt;
  switch (a.value_case()) {
    case AttributeValue::kN:
      return CompareNumbers(a.n(), b.n());
    case AttributeValue::kS: {
      int c = a.s().compare(b.s());  // std::string compares as unsigned bytes
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case AttributeValue::kB: {
      int c = a.b().compare(b.b());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return std::nullopt;
  }
}

namespace {

// The length of a string as Java counts it (UTF-16 code units): size("abÿ")
// is 3 (behaviours.md 1.2), a character above U+FFFF counts 2, as DynamoDB
// Local 3.3.1 answers.
int64_t Utf16Length(std::string_view utf8) {
  int64_t n = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) n += c >= 0xF0 ? 2 : 1;  // a lead byte: one character, two units above U+FFFF
  }
  return n;
}

}  // namespace

std::optional<int64_t> SizeOf(const AttributeValue& v) {
  switch (v.value_case()) {
    case AttributeValue::kS:
      return Utf16Length(v.s());
    case AttributeValue::kB:
      return static_cast<int64_t>(v.b().size());
    case AttributeValue::kSs:
      return v.ss().values_size();
    case AttributeValue::kNs:
      return v.ns().values_size();
    case AttributeValue::kBs:
      return v.bs().values_size();
    case AttributeValue::kM:
      return static_cast<int64_t>(v.m().fields().size());
    case AttributeValue::kL:
      return v.l().values_size();
    default:
      return std::nullopt;
  }
}

namespace {

std::string Base64(std::string_view in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i + 1 == in.size()) {
    uint32_t n = uint8_t(in[i]) << 16;
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

}  // namespace

std::string DescribeForMessage(const AttributeValue& v) {
  std::string body;
  switch (v.value_case()) {
    case AttributeValue::kS:
      body = v.s();
      break;
    case AttributeValue::kN:
      body = v.n();
      break;
    case AttributeValue::kB:
      body = Base64(v.b());
      break;
    default:
      break;
  }
  return "AttributeValue: {" + std::string(TypeName(v)) + ":" + body + "}";
}

AttributeValue NumberValue(std::string text) {
  AttributeValue v;
  v.set_n(std::move(text));
  return v;
}

}  // namespace pogi::expr
