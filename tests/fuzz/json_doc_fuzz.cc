// libFuzzer target: gateway/json_doc.cc's tape parser against nlohmann::json
// as a differential oracle (same accept/reject decision, same values).
//
// The differences that are meant, and encoded below:
// - Numbers: the tape keeps a number's lexeme (DynamoDB's numbers travel as
//   strings, and pogi reads only a few integer members), so it accepts a
//   number that overflows a double ("1e400"); nlohmann refuses it
//   (out_of_range 406). DynamoDB's Jackson parser accepts it too.
// - Duplicate keys: both keep the last value; the tape visits members in
//   document order, nlohmann's std::map in key order, so objects are
//   compared as maps.
// - NUL bytes: nlohmann's lexer takes a NUL outside a string for the end of
//   the input ("1\0x" parses as 1); RFC 8259 allows no raw NUL anywhere
//   (inside strings it is a control character), so the tape must refuse
//   every such document, and nlohmann is not asked.
// - Depth: neither parser limits nesting (the tape is iterative; pogi's
//   nesting limit is json_codec's, on attribute values), so there is no
//   difference to encode; libFuzzer's -max_len bounds nlohmann's recursion
//   in this comparison.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "gateway/json_doc.h"

namespace {

using nlohmann::json;
using pogi::gateway::JsonDoc;
using pogi::gateway::JsonRef;
using pogi::gateway::JsonType;

[[noreturn]] void Mismatch(const char* what, const json& want) {
  std::fprintf(stderr, "json_doc differs from nlohmann: %s (nlohmann: %s)\n", what, want.dump().c_str());
  std::abort();
}

void Compare(JsonRef got, const json& want) {
  switch (want.type()) {
    case json::value_t::null:
      if (!got.is_null()) Mismatch("not null", want);
      return;
    case json::value_t::boolean:
      if (!got.is_boolean() || got.boolean() != want.get<bool>()) Mismatch("boolean", want);
      return;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: {
      if (!got.is_number()) Mismatch("not a number", want);
      // The tape's integers: no fraction or exponent, fitting int64.
      bool want_int64 =
          want.is_number_integer() && (want.is_number_unsigned() ? want.get<uint64_t>() <= INT64_MAX : true);
      if (got.is_integer() != want_int64) Mismatch("integer or not", want);
      if (want_int64) {
        if (got.integer() != want.get<int64_t>()) Mismatch("integer value", want);
      } else if (want.is_number_unsigned()) {
        if (got.number() != static_cast<double>(want.get<uint64_t>())) Mismatch("uint64 value", want);
      } else if (want.is_number_integer()) {
        Mismatch("int64 not an integer", want);
      } else if (got.number() != want.get<double>()) {
        Mismatch("double value", want);
      }
      return;
    }
    case json::value_t::string:
      if (!got.is_string() || got.string() != want.get_ref<const std::string&>()) Mismatch("string", want);
      return;
    case json::value_t::array: {
      if (!got.is_array() || got.size() != want.size()) Mismatch("array", want);
      size_t i = 0;
      got.ForEachElement([&](JsonRef e) {
        Compare(e, want[i++]);
        return true;
      });
      if (i != want.size()) Mismatch("array elements", want);
      return;
    }
    case json::value_t::object: {
      if (!got.is_object() || got.size() != want.size()) Mismatch("object", want);
      size_t n = 0;
      got.ForEachMember([&](std::string_view key, JsonRef v) {
        auto it = want.find(std::string(key));
        if (it == want.end()) Mismatch("object key", want);
        Compare(v, *it);
        ++n;
        return true;
      });
      if (n != want.size()) Mismatch("object members", want);
      return;
    }
    default:
      Mismatch("nlohmann type", want);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // One document reused across inputs, as a gateway session reuses its own.
  static JsonDoc doc;
  bool accepted = doc.Parse(text);
  if (text.find('\0') != std::string_view::npos) {
    if (accepted) {
      std::fprintf(stderr, "json_doc accepts a raw NUL byte\n");
      std::abort();
    }
    return 0;
  }
  json want;
  bool nlohmann_ok = true;
  try {
    want = json::parse(text);
  } catch (const json::out_of_range& e) {
    if (e.id != 406) std::abort();
    return 0;  // a number past the double range: the tape may accept it (see above)
  } catch (const json::parse_error&) {
    nlohmann_ok = false;
  }
  if (accepted != nlohmann_ok) {
    std::fprintf(stderr, "json_doc %s what nlohmann %s\n", accepted ? "accepts" : "refuses",
                 nlohmann_ok ? "accepts" : "refuses");
    std::abort();
  }
  if (accepted) Compare(doc.root(), want);
  if (size > 8192) doc.Trim();
  return 0;
}
