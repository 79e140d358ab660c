// Ion text writing: symbols bare when they are identifiers, else quoted;
// strings with Ion's escapes; decimals from DynamoDB's number text.
#include "jobs/ion_text.h"

#include <algorithm>
#include <cstdio>

#include "common/base64.h"

namespace pogi::jobs {
namespace {

bool IsIdentifier(std::string_view s) {
  if (s.empty()) return false;
  auto start = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
  };
  if (!start(s[0])) return false;
  for (char c : s) {
    if (!start(c) && !(c >= '0' && c <= '9')) return false;
  }
  // Ion's keywords and $ion symbols read as something else bare.
  return s != "null" && s != "true" && s != "false" && s != "nan" && !s.starts_with("$");
}

// Text between `quote`s with Ion's escapes (UTF-8 passes through).
void AppendQuoted(std::string_view s, char quote, std::string* out) {
  out->push_back(quote);
  for (unsigned char c : s) {
    switch (c) {
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c == static_cast<unsigned char>(quote)) {
          out->push_back('\\');
          out->push_back(static_cast<char>(c));
        } else if (c < 0x20 || c == 0x7f) {
          char buf[8];
          snprintf(buf, sizeof(buf), "\\x%02x", c);
          out->append(buf);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back(quote);
}

void AppendSymbol(std::string_view s, std::string* out) {
  if (IsIdentifier(s)) {
    out->append(s);
  } else {
    AppendQuoted(s, '\'', out);
  }
}

// DynamoDB's number text as an Ion decimal: "12" -> "12.", "1.5E+3" ->
// "1.5d+3" (an Ion integer or float would not read back as the same number).
void AppendDecimal(std::string_view n, std::string* out) {
  size_t e = n.find_first_of("eE");
  std::string_view mantissa = n.substr(0, e);
  out->append(mantissa);
  if (e != std::string_view::npos) {
    out->push_back('d');
    out->append(n.substr(e + 1));
  } else if (mantissa.find('.') == std::string_view::npos) {
    out->push_back('.');
  }
}

void AppendBlob(std::string_view bytes, std::string* out) {
  out->append("{{");
  out->append(Base64Encode(bytes));
  out->append("}}");
}

void AppendStruct(const google::protobuf::Map<std::string, v1::AttributeValue>& fields, std::string* out) {
  // In name order: the same item always gives the same text.
  std::vector<const std::string*> names;
  names.reserve(fields.size());
  for (const auto& [name, v] : fields) names.push_back(&name);
  std::sort(names.begin(), names.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  out->push_back('{');
  bool first = true;
  for (const std::string* name : names) {
    if (!first) out->push_back(',');
    first = false;
    AppendSymbol(*name, out);
    out->push_back(':');
    AppendIonValue(fields.at(*name), out);
  }
  out->push_back('}');
}

}  // namespace

void AppendIonValue(const v1::AttributeValue& v, std::string* out) {
  switch (v.value_case()) {
    case v1::AttributeValue::kS:
      AppendQuoted(v.s(), '"', out);
      break;
    case v1::AttributeValue::kN:
      AppendDecimal(v.n(), out);
      break;
    case v1::AttributeValue::kB:
      AppendBlob(v.b(), out);
      break;
    case v1::AttributeValue::kBoolValue:
      out->append(v.bool_value() ? "true" : "false");
      break;
    case v1::AttributeValue::kNullValue:
      out->append("null");
      break;
    case v1::AttributeValue::kM:
      AppendStruct(v.m().fields(), out);
      break;
    case v1::AttributeValue::kL: {
      out->push_back('[');
      for (int i = 0; i < v.l().values_size(); ++i) {
        if (i) out->push_back(',');
        AppendIonValue(v.l().values(i), out);
      }
      out->push_back(']');
      break;
    }
    case v1::AttributeValue::kSs:
    case v1::AttributeValue::kNs: {
      bool numbers = v.value_case() == v1::AttributeValue::kNs;
      const auto& set = numbers ? v.ns() : v.ss();
      out->append(numbers ? "$dynamodb_NS::[" : "$dynamodb_SS::[");
      for (int i = 0; i < set.values_size(); ++i) {
        if (i) out->push_back(',');
        if (numbers) {
          AppendDecimal(set.values(i), out);
        } else {
          AppendQuoted(set.values(i), '"', out);
        }
      }
      out->push_back(']');
      break;
    }
    case v1::AttributeValue::kBs: {
      out->append("$dynamodb_BS::[");
      for (int i = 0; i < v.bs().values_size(); ++i) {
        if (i) out->push_back(',');
        AppendBlob(v.bs().values(i), out);
      }
      out->push_back(']');
      break;
    }
    case v1::AttributeValue::VALUE_NOT_SET:
      out->append("null");
      break;
  }
}

void AppendIonItem(const value::AttributeMap& item, std::string* out) { AppendStruct(item, out); }

}  // namespace pogi::jobs
