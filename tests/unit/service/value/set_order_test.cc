// Set members in DynamoDB Local's orders, each row as DynamoDB Local 3.3.1
// answered it (tests/e2e/test_dynamodb_local_order.py compares the rest).
#include "service/value/set_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pogi::value {
namespace {

std::vector<std::string> Members(const v1::AttributeValue& v) {
  const auto& m = v.has_ss() ? v.ss().values() : v.has_ns() ? v.ns().values() : v.bs().values();
  return {m.begin(), m.end()};
}

v1::AttributeValue Set(char type, const std::vector<std::string>& members) {
  v1::AttributeValue v;
  auto* values = type == 'S'   ? v.mutable_ss()->mutable_values()
                 : type == 'N' ? v.mutable_ns()->mutable_values()
                               : v.mutable_bs()->mutable_values();
  for (const std::string& m : members) values->Add(std::string(m));
  return v;
}

const std::string kAstral = "\xF0\x9F\x98\x80", kFullwidth = "\xEF\xBD\x9E";  // U+1F600, U+FF5E

TEST(SetOrder, WrittenWholeAsJavaCompares) {
  struct Case {
    char type;
    std::vector<std::string> given, sorted;
  };
  const std::vector<Case> cases = {
      // behaviours.md 1.1: Java's String order, by UTF-16 code unit.
      {'S',
       {"zeta", "\xC3\xA9", "alpha", "Beta", "9", "10"},
       {"10", "9", "Beta", "alpha", "zeta", "\xC3\xA9"}},
      {'S', {kFullwidth, kAstral, "b"}, {"b", kAstral, kFullwidth}},
      {'N', {"10", "9", "-2", "100", "-10", "2.5"}, {"-10", "-2", "2.5", "9", "10", "100"}},
      // Bytes compared signed: 0x80 first, then 0xFF, 0x00 ... 0x7F.
      {'B',
       {"\x7F", std::string(1, '\0'), "\xFF", "\x80", std::string("\x00\x01", 2)},
       {"\x80", "\xFF", std::string(1, '\0'), std::string("\x00\x01", 2), "\x7F"}},
  };
  for (const Case& c : cases) {
    v1::AttributeValue v = Set(c.type, c.given);
    SortAsWritten(&v);
    EXPECT_EQ(Members(v), c.sorted) << c.type;
  }
}

TEST(SetOrder, AnAddUnionByBytes) {
  struct Case {
    char type;
    std::vector<std::string> given, sorted;
  };
  const std::vector<Case> cases = {
      // UTF-8 byte order: U+FF5E before U+1F600, the other way from Java's.
      {'S', {"b", kAstral, kFullwidth, "a"}, {"a", "b", kFullwidth, kAstral}},
      {'N', {"10", "9", "-2", "100"}, {"-2", "9", "10", "100"}},
      {'B', {"\x80", "\xFF", std::string(1, '\0'), "\x7F"}, {std::string(1, '\0'), "\x7F", "\x80", "\xFF"}},
  };
  for (const Case& c : cases) {
    v1::AttributeValue v = Set(c.type, c.given);
    SortAsUnion(&v);
    EXPECT_EQ(Members(v), c.sorted) << c.type;
  }
}

TEST(SetOrder, ANumberThatDoesNotParseLeavesTheSetAlone) {
  v1::AttributeValue v = Set('N', {"2", "x", "1"});
  SortAsWritten(&v);
  EXPECT_EQ(Members(v), (std::vector<std::string>{"2", "x", "1"}));
}

}  // namespace
}  // namespace pogi::value
