// The Ion reader: text and binary into DynamoDB values, what it refuses, and
// reading a value handed over in pieces.
#include "jobs/ion_reader.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "jobs/ion_text.h"
#include "tests/unit/value_builders.h"

namespace pogi::jobs {
namespace {

using google::protobuf::util::MessageDifferencer;

struct Read {
  IonStep step;
  v1::AttributeValue value;
  std::string error;
  size_t consumed = 0;
};

Read Text(std::string_view text, bool final = true) {
  Read r;
  IonTextParser p;
  r.step = p.Next(text, final, &r.value, &r.consumed, &r.error);
  return r;
}

// The value's Ion text as pogi writes it (fields in name order).
std::string Ion(const v1::AttributeValue& v) {
  std::string out;
  AppendIonValue(v, &out);
  return out;
}

std::string TextAsIon(std::string_view text) {
  Read r = Text(text);
  EXPECT_EQ(r.step, IonStep::kValue) << text << ": " << r.error;
  EXPECT_EQ(r.error, "") << text;
  return Ion(r.value);
}

TEST(IonReaderTest, DynamoDbsDocumentedLine) {
  Read r = Text(
      "$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],Dimensions:\"8.5 x 11.0 x 1.5\","
      "ISBN:\"333-3333333333\",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:\"Book\","
      "Title:\"Book 103 Title\"}}\n");
  ASSERT_EQ(r.step, IonStep::kValue) << r.error;
  EXPECT_EQ(r.error, "");
  const auto& item = r.value.m().fields().at("Item").m().fields();
  EXPECT_EQ(item.at("Id").n(), "103");
  EXPECT_EQ(item.at("PageCount").n(), "6E2");
  EXPECT_EQ(item.at("Price").n(), "2E3");
  EXPECT_FALSE(item.at("InPublication").bool_value());
  ASSERT_EQ(item.at("Authors").ss().values_size(), 2);
  EXPECT_EQ(item.at("Authors").ss().values(1), "Author2");
}

TEST(IonReaderTest, WhatPogisExportWritesReadsBack) {
  v1::AttributeValue item;
  auto& f = *item.mutable_m()->mutable_fields();
  f["s"] = test::S("héllo \"q\"\n\x01");
  f["n"] = test::N("-12.5");
  f["big"] = test::N("12345678901234567890123456789012345678");
  f["e"] = test::N("1.5E+130");
  f["b"] = test::B(std::string("\x00\xffx", 3));
  f["t"].set_bool_value(true);
  f["z"].set_null_value(true);
  f["l"].mutable_l()->add_values()->set_s("x");
  f["m"].mutable_m();
  f["ss"].mutable_ss()->add_values("a");
  f["ns"].mutable_ns()->add_values("2.5");
  f["bs"].mutable_bs()->add_values("b");
  f["odd name-1"] = test::S("v");
  f["null"] = test::S("keyword as a name");
  std::string text = "$ion_1_0\n{Item:";
  AppendIonValue(item, &text);
  text += "}\n";
  Read r = Text(text);
  ASSERT_EQ(r.step, IonStep::kValue) << r.error;
  ASSERT_EQ(r.error, "");
  v1::AttributeValue got = r.value.m().fields().at("Item");
  // Numbers come back as DynamoDB's number text (ValidateValue makes it canonical).
  EXPECT_EQ(got.m().fields().at("e").n(), "1.5E+130");
  got.mutable_m()->mutable_fields()->at("e").set_n("1.5E+130");
  EXPECT_TRUE(MessageDifferencer::Equals(got, item)) << Ion(got) << "\n" << Ion(item);
}

TEST(IonReaderTest, Numbers) {
  EXPECT_EQ(TextAsIon("1_000"), "1000.");
  EXPECT_EQ(TextAsIon("0x1F"), "31.");
  EXPECT_EQ(TextAsIon("-0b101"), "-5.");
  EXPECT_EQ(TextAsIon("12."), "12.");
  EXPECT_EQ(TextAsIon("-0.50"), "-0.50");
  EXPECT_EQ(TextAsIon("1.5D-3"), "1.5d-3");
  EXPECT_EQ(TextAsIon("0xFFFFFFFFFFFFFFFFFFFF"), "1208925819614629174706175.");
  EXPECT_NE(Text("1.5e3").error.find("Ion float"), std::string::npos);
  EXPECT_NE(Text("nan").error.find("Ion float"), std::string::npos);
  EXPECT_NE(Text("-inf").error.find("Ion float"), std::string::npos);
  EXPECT_NE(Text("2007-01-01T").error.find("timestamp"), std::string::npos);
  EXPECT_EQ(Text("1__0").step, IonStep::kBad);
  EXPECT_EQ(Text("1.2.3").step, IonStep::kBad);
  EXPECT_EQ(Text("+1").step, IonStep::kBad);
}

TEST(IonReaderTest, StringsSymbolsAndComments) {
  EXPECT_EQ(TextAsIon("\"\\u00e9\\U0001F600\\x41\\ud83d\\ude00\""), "\"é😀A😀\"");
  EXPECT_EQ(TextAsIon("'''one ''' /* between */ '''two'''"), "\"one two\"");
  EXPECT_EQ(TextAsIon("{'odd name': 1, \"quoted\": 2, plain: 3,} // done"),
            "{'odd name':1.,plain:3.,quoted:2.}");
  EXPECT_EQ(TextAsIon("[null, null.string, true,]"), "[null,null,true]");
  EXPECT_EQ(TextAsIon("{{ aGVs bG8= }}"), "{{aGVsbG8=}}");
  EXPECT_NE(Text("sym").error.find("Ion symbol"), std::string::npos);
  EXPECT_NE(Text("{a:$10}").error.find("symbol ids"), std::string::npos);
  EXPECT_NE(Text("{{\"clob\"}}").error.find("clob"), std::string::npos);
  EXPECT_NE(Text("(+ 1 2)").error.find("s-expression"), std::string::npos);
  EXPECT_NE(Text("{a:1, a:2}").error.find("twice"), std::string::npos);
  EXPECT_NE(Text("$dynamodb_SS::[1.]").error.find("not a string"), std::string::npos);
  EXPECT_NE(Text("$dynamodb_NS::\"x\"").error.find("must be a list"), std::string::npos);
  // Unknown annotations change nothing.
  EXPECT_EQ(TextAsIon("other::'$x'::\"v\""), "\"v\"");
}

TEST(IonReaderTest, MalformedTextIsBad) {
  for (const char* bad : {"{a:1", "[1 2]", "\"abc", "\"a\\qb\"", "{{ not base64! }}", "}", "{a 1}",
                          "\"line\nbreak\"", "/* open", "null.nothing", "\"\\ud800\""}) {
    Read r = Text(bad);
    EXPECT_EQ(r.step, IonStep::kBad) << bad;
    EXPECT_FALSE(r.error.empty()) << bad;
  }
  std::string deep(100, '[');
  EXPECT_EQ(Text(deep + std::string(100, ']')).step, IonStep::kBad);
}

// "null." at the very end of the input: the reader asks for more, or (the
// input complete) refuses it, and never reads past the end. The bytes are on
// the heap with nothing after them, so the sanitized build catches a read
// beyond (the fuzzer found it).
TEST(IonReaderTest, NullDotAtTheEndIsNotReadPast) {
  constexpr std::string_view kText = "null.";
  std::unique_ptr<char[]> bytes(new char[kText.size()]);
  std::memcpy(bytes.get(), kText.data(), kText.size());
  std::string_view exact(bytes.get(), kText.size());
  EXPECT_EQ(Text(exact, /*final=*/false).step, IonStep::kNeedMore);
  Read r = Text(exact);
  EXPECT_EQ(r.step, IonStep::kBad);
  EXPECT_EQ(r.error, "the Ion text ends inside a value");
}

TEST(IonReaderTest, TextInPiecesAsksForMore) {
  std::string line = "$ion_1_0 {Item:{a:\"x\",'b c':[1.5d2,{{AQI=}}],l:'''long''' '''er''',n:null.int}} ";
  for (size_t k = 0; k + 1 < line.size(); ++k) {
    Read r = Text(std::string_view(line).substr(0, k), /*final=*/false);
    EXPECT_TRUE(r.step == IonStep::kNeedMore || (r.step == IonStep::kValue && k >= line.size() - 1))
        << "prefix of " << k << ": " << static_cast<int>(r.step) << " " << r.error;
  }
  Read whole = Text(line);
  ASSERT_EQ(whole.step, IonStep::kValue);
  EXPECT_EQ(whole.error, "");
  EXPECT_EQ(Ion(whole.value), "{Item:{a:\"x\",'b c':[1.5d2,{{AQI=}}],l:\"longer\",n:null}}");
  Read end = Text(std::string_view(line).substr(whole.consumed));
  EXPECT_EQ(end.step, IonStep::kEnd);
}

TEST(IonReaderTest, SeveralValuesAndTheirEnd) {
  std::string text =
      "$ion_1_0 {Item:{a:1.}}\n$ion_1_0 {Item:{a:2.}}\n$ion_symbol_table::{symbols:[\"q\"]} 3.";
  IonTextParser p;
  std::vector<std::string> got;
  std::string_view rest = text;
  for (;;) {
    v1::AttributeValue v;
    size_t used = 0;
    std::string error;
    IonStep step = p.Next(rest, true, &v, &used, &error);
    rest.remove_prefix(used);
    if (step == IonStep::kEnd) break;
    ASSERT_EQ(step, IonStep::kValue);
    got.push_back(Ion(v));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"{Item:{a:1.}}", "{Item:{a:2.}}", "3."}));
}

// ---------------------------------------------------------------- binary

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

std::string Str(std::string_view s) {  // a short string value (under 14 bytes)
  return static_cast<char>(0x80 | s.size()) + std::string(s);
}

// $ion_symbol_table::{symbols:["Item","pk","n","$dynamodb_SS","tags"]}:
// symbols 10..14.
std::string SymbolTable() {
  std::string list = Str("Item") + Str("pk") + Str("n") + Str("$dynamodb_SS") + Str("tags");
  std::string lst = Bytes({0xBE, 0x80 | static_cast<int>(list.size())}) + list;
  std::string st = Bytes({0x87}) + lst;
  std::string strct = Bytes({0xDE, 0x80 | static_cast<int>(st.size())}) + st;
  std::string body = Bytes({0x81, 0x83}) + strct;
  return Bytes({0xEE, 0x80 | static_cast<int>(body.size())}) + body;
}

// {Item:{pk:"a", n:1.5, tags:$dynamodb_SS::["x","y"]}}
std::string ItemValue() {
  std::string set = Bytes({0xB4}) + Str("x") + Str("y");
  std::string annotated = Bytes({0xE7, 0x81, 0x8D}) + set;
  std::string inner = Bytes({0x8B}) + Str("a") + Bytes({0x8C, 0x52, 0xC1, 0x0F}) + Bytes({0x8E}) + annotated;
  std::string inner_struct = Bytes({0xDE, 0x80 | static_cast<int>(inner.size())}) + inner;
  std::string outer = Bytes({0x8A}) + inner_struct;
  return Bytes({0xDE, 0x80 | static_cast<int>(outer.size())}) + outer;
}

const std::string kBvm = Bytes({0xE0, 0x01, 0x00, 0xEA});

std::vector<std::string> Binary(std::string_view data, std::string* bad = nullptr) {
  IonBinaryParser p;
  std::vector<std::string> out;
  for (;;) {
    v1::AttributeValue v;
    size_t used = 0;
    std::string error;
    IonStep step = p.Next(data, true, &v, &used, &error);
    data.remove_prefix(used);
    if (step == IonStep::kEnd) return out;
    if (step == IonStep::kBad) {
      if (bad) *bad = error;
      out.push_back("BAD");
      return out;
    }
    out.push_back(error.empty() ? Ion(v) : "ERROR " + error);
  }
}

TEST(IonReaderTest, BinaryItemWithASymbolTable) {
  std::string data = kBvm + SymbolTable() + ItemValue() + Bytes({0x00}) + Bytes({0x8F});
  EXPECT_TRUE(IsIonBinary(data));
  EXPECT_EQ(Binary(data),
            (std::vector<std::string>{"{Item:{n:15d-1,pk:\"a\",tags:$dynamodb_SS::[\"x\",\"y\"]}}", "null"}));
}

TEST(IonReaderTest, BinaryScalars) {
  EXPECT_EQ(Binary(kBvm + Bytes({0x31, 0x05, 0x21, 0xFF, 0x20, 0x11, 0x10, 0x50})),
            (std::vector<std::string>{"-5.", "255.", "0.", "true", "false", "0."}));
  std::string big = kBvm + Bytes({0x2E, 0x90}) + std::string(16, '\xFF');
  EXPECT_EQ(Binary(big), (std::vector<std::string>{"340282366920938463463374607431768211455."}));
  EXPECT_EQ(Binary(kBvm + Bytes({0x51, 0x80})), (std::vector<std::string>{"0d0"}));  // an empty coefficient
  EXPECT_EQ(Binary(kBvm + Bytes({0x52, 0x80, 0x85})), (std::vector<std::string>{"-5d0"}));
  auto floats = Binary(kBvm + Bytes({0x48, 0, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_EQ(floats.size(), 1u);
  EXPECT_NE(floats[0].find("Ion float"), std::string::npos);
  auto unknown = Binary(kBvm + Bytes({0xD2, 0x8A, 0x20}));  // field $10 without a table
  EXPECT_NE(unknown[0].find("has no text"), std::string::npos);
}

TEST(IonReaderTest, MalformedBinaryIsBad) {
  std::string why;
  for (const std::string& bad : {kBvm + Bytes({0xF0}), kBvm + Bytes({0xD5, 0x8A}), kBvm + Bytes({0x30}),
                                 kBvm + Bytes({0x12}), kBvm + Bytes({0xE3, 0x81, 0x8A, 0xE1}),
                                 Bytes({0xE0, 0x02, 0x00, 0xEA}), kBvm + Bytes({0xBE, 0x81, 0xD4, 0x8A})}) {
    auto got = Binary(bad, &why);
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(got.back(), "BAD");
    EXPECT_FALSE(why.empty());
  }
  std::string nested = Bytes({0x0F});  // lists in lists, 60 deep, each of the right length
  for (int i = 0; i < 60; ++i) {
    nested = (nested.size() < 14 ? Bytes({0xB0 | static_cast<int>(nested.size())})
                                 : Bytes({0xBE, 0x80 | static_cast<int>(nested.size())})) +
             nested;
  }
  EXPECT_EQ(Binary(kBvm + nested, &why).back(), "BAD");
  EXPECT_NE(why.find("nested"), std::string::npos);
  std::string shared = kBvm + Bytes({0xE5, 0x81, 0x83, 0xD2, 0x86, 0xB0});  // imports: [] (a list)
  EXPECT_EQ(Binary(shared, &why).back(), "BAD");
  EXPECT_NE(why.find("shared"), std::string::npos);
}

TEST(IonReaderTest, BinaryInPiecesAsksForMore) {
  std::string data = kBvm + SymbolTable() + ItemValue();
  IonBinaryParser p;
  size_t at = 0;
  std::string value;
  for (size_t k = 1; k <= data.size() && value.empty(); ++k) {
    v1::AttributeValue v;
    size_t used = 0;
    std::string error;
    IonStep step = p.Next(std::string_view(data).substr(at, k - at), /*final=*/false, &v, &used, &error);
    at += used;
    if (step == IonStep::kValue)
      value = Ion(v);
    else
      ASSERT_EQ(step, IonStep::kNeedMore) << k;
  }
  EXPECT_EQ(value, "{Item:{n:15d-1,pk:\"a\",tags:$dynamodb_SS::[\"x\",\"y\"]}}");
  EXPECT_EQ(at, data.size());
}

TEST(IonReaderTest, Magnitudes) {
  EXPECT_EQ(MagnitudeToDecimal(""), "0");
  EXPECT_EQ(MagnitudeToDecimal(Bytes({0x01, 0x00})), "256");
  EXPECT_EQ(MagnitudeToDecimal(Bytes({0x00, 0x00, 0x07})), "7");
}

}  // namespace
}  // namespace pogi::jobs
