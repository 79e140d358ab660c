// Multi-attribute key encoding: byte order of encoded tuples is the order of
// the tuples (each value in its type's order), and prefixes bound ranges.
#include "service/value/key_tuple.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "service/read/key_condition.h"
#include "service/value/item.h"

namespace pogi::value {
namespace {

v1::AttributeValue S(std::string s) {
  v1::AttributeValue v;
  v.set_s(std::move(s));
  return v;
}
v1::AttributeValue N(std::string n) {
  v1::AttributeValue v;
  v.set_n(std::move(n));
  return v;
}
v1::AttributeValue B(std::string b) {
  v1::AttributeValue v;
  v.set_b(std::move(b));
  return v;
}

std::string Tuple(const std::vector<v1::AttributeValue>& values) {
  std::vector<const v1::AttributeValue*> ptrs;
  for (const auto& v : values) ptrs.push_back(&v);
  return EncodeKeyTuple(ptrs);
}

TEST(KeyTupleTest, OneValueIsItsOwnEncoding) {
  // Single-attribute keys keep the format every stored key already has.
  EXPECT_EQ(Tuple({S("abc")}), "abc");
  EXPECT_EQ(Tuple({N("12.5")}), EncodeKeyValue(N("12.5")));
  EXPECT_EQ(Tuple({B(std::string("\0\1", 2))}), std::string("\0\1", 2));
}

TEST(KeyTupleTest, ElementsAreEscapedAndTerminated) {
  EXPECT_EQ(Tuple({S("a"), S("b")}), std::string("a\0\0b\0\0", 6));
  EXPECT_EQ(Tuple({B(std::string("\0", 1)), S("")}), std::string("\0\xFF\0\0\0\0", 6));
  std::string prefix;
  AppendKeyElementPrefix(std::string("x\0", 2), &prefix);
  EXPECT_EQ(prefix, std::string("x\0\xFF", 3));
}

// Compares two tuples of the same shape as DynamoDB orders them: by the
// first value, then the next (strings and binaries by bytes, numbers
// numerically).
int CompareValues(const v1::AttributeValue& a, const v1::AttributeValue& b) {
  if (a.value_case() == v1::AttributeValue::kN) {
    // Numbers: by value (the decimal's key encoding is tested on its own;
    // here the number strings are integers of small magnitude).
    long long x = std::stoll(a.n()), y = std::stoll(b.n());
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const std::string& x = a.value_case() == v1::AttributeValue::kS ? a.s() : a.b();
  const std::string& y = b.value_case() == v1::AttributeValue::kS ? b.s() : b.b();
  return x.compare(y) < 0 ? -1 : x.compare(y) > 0 ? 1 : 0;
}

TEST(KeyTupleTest, ByteOrderIsTupleOrder) {
  // Strings with 0x00 and 0xFF bytes, prefixes of one another, and numbers
  // around zero: the cases where naive concatenation misorders.
  const std::vector<std::string> strings = {
      "",     std::string("\0", 1), std::string("\0\0", 2), "\x01", "a", std::string("a\0", 2), "ab",
      "\xFF", "\xFF\xFF",           std::string("a\0b", 3)};
  const std::vector<std::string> numbers = {"-100", "-1", "0", "1", "2", "10", "100"};
  std::mt19937 rng(7);
  std::vector<std::vector<v1::AttributeValue>> tuples;
  for (int i = 0; i < 400; ++i) {
    tuples.push_back({B(strings[rng() % strings.size()]), N(numbers[rng() % numbers.size()]),
                      S(strings[rng() % strings.size()])});
  }
  for (const auto& a : tuples) {
    for (const auto& b : tuples) {
      int expected = 0;
      for (size_t i = 0; i < a.size() && expected == 0; ++i) expected = CompareValues(a[i], b[i]);
      std::string ea = Tuple(a), eb = Tuple(b);
      int actual = ea < eb ? -1 : ea > eb ? 1 : 0;
      ASSERT_EQ(actual, expected) << ::testing::PrintToString(ea) << " vs " << ::testing::PrintToString(eb);
    }
  }
}

TEST(KeyTupleTest, PrefixRangesHoldExactlyTheirTuples) {
  // The keys whose first element is v are in [element(v), PrefixEnd(element(v))).
  const std::vector<std::string> strings = {"",    std::string("\0", 1), "a", std::string("a\0", 2), "ab",
                                            "\xFF"};
  for (const auto& first : strings) {
    std::string lo;
    AppendKeyElement(first, &lo);
    auto hi = service::PrefixEnd(lo);
    ASSERT_TRUE(hi.has_value());
    for (const auto& other : strings) {
      for (const auto& second : strings) {
        std::string key = Tuple({S(other), S(second)});
        bool inside = key >= lo && key < *hi;
        EXPECT_EQ(inside, other == first) << ::testing::PrintToString(key);
      }
    }
  }
}

}  // namespace
}  // namespace pogi::value
