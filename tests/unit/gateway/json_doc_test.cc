// Tests for gateway::JsonDoc, the request parser: on random documents and
// on a catalogue of malformed ones it must agree with nlohmann's strict
// parser (what the codec used before), including duplicate keys (the last
// wins), escapes, surrogates and invalid UTF-8; deep nesting must not
// exhaust the stack.
#include "gateway/json_doc.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace pogi::gateway {
namespace {

using json = nlohmann::json;

// The parsed document as an nlohmann value, for comparison.
json ToJson(JsonRef r) {
  switch (r.type()) {
    case JsonType::kNull:
      return nullptr;
    case JsonType::kTrue:
      return true;
    case JsonType::kFalse:
      return false;
    case JsonType::kNumber:
      return r.is_integer() ? json(r.integer()) : json(r.number());
    case JsonType::kString:
      return std::string(r.string());
    case JsonType::kArray: {
      json a = json::array();
      r.ForEachElement([&](JsonRef e) {
        a.push_back(ToJson(e));
        return true;
      });
      EXPECT_EQ(a.size(), r.size());
      return a;
    }
    case JsonType::kObject: {
      json o = json::object();
      r.ForEachMember([&](std::string_view k, JsonRef v) {
        EXPECT_FALSE(o.contains(std::string(k))) << "key visited twice: " << k;
        o[std::string(k)] = ToJson(v);
        return true;
      });
      EXPECT_EQ(o.size(), r.size());
      return o;
    }
  }
  return nullptr;
}

// Numbers compare by value (nlohmann keeps unsigned and signed apart).
json Normalize(const json& j) {
  if (j.is_number_integer()) return json(j.get<int64_t>());
  if (j.is_array() || j.is_object()) {
    json out = j;
    for (auto& [k, v] : out.items()) v = Normalize(v);
    return out;
  }
  return j;
}

void ExpectSameAsNlohmann(const std::string& text) {
  JsonDoc doc;
  bool ok = doc.Parse(text);
  json reference = json::parse(text, nullptr, /*allow_exceptions=*/false);
  ASSERT_EQ(ok, !reference.is_discarded()) << text;
  if (ok) {
    EXPECT_EQ(Normalize(ToJson(doc.root())), Normalize(reference)) << text;
  }
}

TEST(JsonDocTest, Scalars) {
  for (const char* t : {"null", "true", "false", "0", "-0", "12", "-34", "1.5", "-2.5e10", "1E-3", "1e+2",
                        "\"\"", "\"plain\"", "  7  ", "9223372036854775807", "-9223372036854775808"}) {
    ExpectSameAsNlohmann(t);
  }
}

TEST(JsonDocTest, IntegersOutsideInt64AreNotIntegers) {
  JsonDoc doc;
  ASSERT_TRUE(doc.Parse("[9223372036854775808, 1.0, 3]"));
  std::vector<bool> integer;
  doc.root().ForEachElement([&](JsonRef e) {
    integer.push_back(e.is_integer());
    return true;
  });
  EXPECT_EQ(integer, (std::vector<bool>{false, false, true}));
}

TEST(JsonDocTest, Escapes) {
  for (const char* t : {R"("a\"b")", R"("\\")", R"("\/")", R"("\b\f\n\r\t")", R"("\u0041\u00e9\u6f22")",
                        R"("\ud83d\ude00")", R"("x\u0000y")", R"({"k\u0041": 1})"}) {
    ExpectSameAsNlohmann(t);
  }
}

TEST(JsonDocTest, MalformedDocumentsAreRefused) {
  for (const char* t : {"",
                        " ",
                        "{",
                        "}",
                        "[",
                        "]",
                        "{]",
                        "[}",
                        "{\"a\"}",
                        "{\"a\":}",
                        "{\"a\":1,}",
                        "[1,]",
                        "[,1]",
                        "{,}",
                        "{\"a\" 1}",
                        "{a:1}",
                        "{'a':1}",
                        "01",
                        "1.",
                        ".5",
                        "-",
                        "1e",
                        "1e+",
                        "+1",
                        "tru",
                        "nul",
                        "True",
                        "\"abc",
                        "\"\\x\"",
                        "\"\\u12\"",
                        "\"\\u12G4\"",
                        "\"\\ud83d\"",
                        "\"\\ude00\"",
                        "\"\\ud83d\\u0041\"",
                        "\"tab\there\"",
                        "\"nl\nhere\"",
                        "1 2",
                        "{} {}",
                        "[1] x",
                        "\"\\",
                        "{\"a\":1}}",
                        "[[1]"}) {
    ExpectSameAsNlohmann(t);
  }
}

// Found by tests/fuzz/json_doc_fuzz.cc: nlohmann takes a NUL byte outside a
// string for the end of its input and accepts "922\0garbage"; RFC 8259
// allows no raw NUL, and the tape refuses it wherever it is.
TEST(JsonDocTest, ARawNulByteIsRefused) {
  JsonDoc doc;
  using namespace std::string_view_literals;
  for (std::string_view t :
       {"922\0\0"sv, "1\0x"sv, "\0"sv, "[1,\0 2]"sv, "{\"a\":1}\0"sv, "\"a\0b\""sv, " \0"sv}) {
    EXPECT_FALSE(doc.Parse(t)) << t.size();
  }
}

TEST(JsonDocTest, ALeadingByteOrderMarkIsSkipped) {
  ExpectSameAsNlohmann("\xEF\xBB\xBF{\"a\": 1}");
  ExpectSameAsNlohmann("\xEF\xBB\xBF");
  ExpectSameAsNlohmann("{\"a\": \"\xEF\xBB\xBF\"}");
}

TEST(JsonDocTest, Utf8IsValidated) {
  for (std::string t :
       {"\"\xc3\xa9\"", "\"\xe6\xbc\xa2\"", "\"\xf0\x9f\x98\x80\"", "\"\xc3\"", "\"\xc0\xaf\"",
        "\"\xe0\x80\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xff\"", "\"\x80\""}) {
    ExpectSameAsNlohmann(t);
  }
}

TEST(JsonDocTest, DuplicateKeysKeepTheLastValue) {
  ExpectSameAsNlohmann(R"({"a": 1, "b": 2, "a": 3})");
  ExpectSameAsNlohmann(R"({"a": {"x": 1}, "a": {"y": 2}})");
  // Past the small-object path too.
  std::string big = "{";
  for (int i = 0; i < 40; ++i) big += "\"k" + std::to_string(i % 25) + "\":" + std::to_string(i) + ",";
  big += "\"end\":true}";
  ExpectSameAsNlohmann(big);
}

TEST(JsonDocTest, DeepNestingDoesNotExhaustTheStack) {
  const int depth = 1000000;
  std::string deep = std::string(depth, '[') + std::string(depth, ']');
  JsonDoc doc;
  EXPECT_TRUE(doc.Parse(deep));
  EXPECT_FALSE(doc.Parse(std::string(depth, '[') + std::string(depth - 1, ']')));
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100000, '}');
  EXPECT_TRUE(doc.Parse(objects));
}

// Random documents of every kind of value, printed by nlohmann (with and
// without spaces) and parsed back.
json RandomJson(std::mt19937& rng, int depth) {
  int kind = std::uniform_int_distribution<int>(0, depth < 5 ? 7 : 4)(rng);
  switch (kind) {
    case 0:
      return nullptr;
    case 1:
      return rng() % 2 == 0;
    case 2:
      return static_cast<int64_t>(rng()) - (1ll << 31);
    case 3:
      return std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
    case 4: {
      static const std::string kPieces[] = {"a", "\"", "\\", "\n", "\x01", "é", "😀", "/", " "};
      std::string s;
      for (int i = rng() % 6; i > 0; --i) s += kPieces[rng() % std::size(kPieces)];
      return s;
    }
    case 5:
    case 6: {
      json o = json::object();
      for (int i = rng() % 5; i > 0; --i) o["k" + std::to_string(rng() % 8)] = RandomJson(rng, depth + 1);
      return o;
    }
    default: {
      json a = json::array();
      for (int i = rng() % 5; i > 0; --i) a.push_back(RandomJson(rng, depth + 1));
      return a;
    }
  }
}

TEST(JsonDocTest, RandomDocumentsMatchNlohmann) {
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    json j = RandomJson(rng, 0);
    ExpectSameAsNlohmann(j.dump());
    ExpectSameAsNlohmann(j.dump(2));
  }
}

}  // namespace
}  // namespace pogi::gateway
