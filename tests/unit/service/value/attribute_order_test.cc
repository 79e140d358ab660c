// DynamoDB Local's order: Java's String.hashCode and String order, the
// sizes java.util.HashMap grows to, and the orders they make. Expected
// values are Java's own (the JDK's String and HashMap sources) and, for
// the orders, answers recorded from DynamoDB Local 3.3.1.
#include "service/value/attribute_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pogi::value {
namespace {

TEST(JavaMapHash, IsJavasHashCodeSpread) {
  struct Case {
    std::string name;
    uint32_t hash;
  };
  const std::vector<Case> cases = {
      {"", 0},
      {"Aa", 2112},  // "Aa".hashCode() == "BB".hashCode(): Java's classic collision
      {"BB", 2112},
      {"pk", 3579},                   // 'p' * 31 + 'k'
      {"\xC3\xA9", 233},              // é, one UTF-16 unit
      {"\xF0\x9F\x98\x80", 1772920},  // U+1F600: two surrogates, 1772899 spread (^ h >>> 16)
  };
  for (const Case& c : cases) EXPECT_EQ(JavaMapHash(c.name), c.hash) << c.name;
  // Past 16 bits the spread shows: "polygenelubricants".hashCode() is
  // Integer.MIN_VALUE, 0x80000000, spread to 0x80008000.
  EXPECT_EQ(JavaMapHash("polygenelubricants"), 0x80008000u);
}

TEST(HashMapCapacity, GrowsAsJavaDoes) {
  struct Case {
    size_t n, sized, grown, copied;
  };
  // new HashMap<>(n) + n puts; new HashMap<>() + n puts; new HashMap<>(map).
  const std::vector<Case> cases = {
      {1, 2, 16, 2},     {2, 4, 16, 4},       {3, 4, 16, 8},        {4, 8, 16, 8},    {6, 8, 16, 16},
      {7, 16, 16, 16},   {12, 16, 16, 32},    {13, 32, 32, 32},     {24, 32, 32, 64}, {25, 64, 64, 64},
      {48, 64, 64, 128}, {49, 128, 128, 128}, {200, 512, 512, 512},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(SizedCapacity(c.n), c.sized) << c.n;
    EXPECT_EQ(GrownCapacity(c.n), c.grown) << c.n;
    EXPECT_EQ(CopiedCapacity(c.n), c.copied) << c.n;
  }
}

TEST(Utf16Less, IsJavasStringOrder) {
  // behaviours.md 1.1: "10","9","Beta","alpha","zeta","é".
  const std::vector<std::string> ordered = {"10", "9", "Beta", "alpha", "zeta", "\xC3\xA9"};
  for (size_t i = 0; i + 1 < ordered.size(); ++i) {
    EXPECT_TRUE(Utf16Less(ordered[i], ordered[i + 1])) << ordered[i];
    EXPECT_FALSE(Utf16Less(ordered[i + 1], ordered[i])) << ordered[i];
  }
  EXPECT_TRUE(Utf16Less("a", "ab"));
  EXPECT_FALSE(Utf16Less("a", "a"));
  // U+1F600 (surrogates D83D DE00) before U+FF5E in UTF-16, after it in UTF-8.
  const std::string astral = "\xF0\x9F\x98\x80", fullwidth = "\xEF\xBD\x9E";
  EXPECT_TRUE(Utf16Less(astral, fullwidth));
  EXPECT_FALSE(Utf16Less(fullwidth, astral));
  EXPECT_TRUE(Utf16Less("x" + astral, "x" + fullwidth));
  // Two characters above U+FFFF: code point order, as their surrogates.
  EXPECT_TRUE(Utf16Less(astral, "\xF0\x9F\x98\x81"));
}

std::vector<std::string> Names(const std::vector<OrderedName>& names) {
  std::vector<std::string> out;
  for (const OrderedName& n : names) out.emplace_back(n.name);
  return out;
}

// The names as put in this order. OrderedName holds views: the names live
// as long as the test.
std::vector<OrderedName> Put(const std::vector<std::string>& names) {
  static std::vector<std::vector<std::string>> kept;
  const std::vector<std::string>& held = kept.emplace_back(names);
  std::vector<OrderedName> out;
  for (size_t i = 0; i < held.size(); ++i) {
    out.push_back({held[i], JavaMapHash(held[i]), static_cast<uint32_t>(i), i});
  }
  return out;
}

TEST(SortAsHashMap, AnItemPutAsRecordedFromDynamoDBLocal) {
  // behaviours.md 1.1: an item written with these attributes comes back in
  // this order from DynamoDB Local.
  auto names = Put({"pk", "sk", "gsi1pk", "gsi1sk", "prop1", "prop2", "prop3", "prop4", "prop5", "__edb_e__",
                    "__edb_v__"});
  SortAsHashMap(names, SizedCapacity(names.size()));
  EXPECT_EQ(Names(names), (std::vector<std::string>{"prop2", "prop1", "gsi1sk", "gsi1pk", "sk", "__edb_e__",
                                                    "__edb_v__", "pk", "prop5", "prop4", "prop3"}));
}

TEST(SortAsHashMap, EntriesOfOneBucketStayInTheOrderTheyWerePut) {
  auto names = Put({"BB", "pk", "Aa"});
  EXPECT_TRUE(BucketsCollide(names, SizedCapacity(3)));
  SortAsHashMap(names, SizedCapacity(3));
  // 2112 & 3 == 0 and 3579 & 3 == 3: the bucket of BB and Aa first, in put order.
  EXPECT_EQ(Names(names), (std::vector<std::string>{"BB", "Aa", "pk"}));
}

TEST(OrderAsRebuilt, NameOrderThroughAGrowingMap) {
  // Rebuilt: Aa before BB (name order) whatever order they came in.
  auto names = Put({"BB", "pk", "Aa"});
  OrderAsRebuilt(names);
  EXPECT_EQ(Names(names), (std::vector<std::string>{"Aa", "BB", "pk"}));
  // Through the growing map of 16 buckets first: in the map of 4 buckets
  // answered, bucket 2 holds hash 18 (bucket 2 of 16) before hash 10
  // (bucket 10 of 16), which name order alone would put the other way.
  std::vector<OrderedName> two = {{"a", 10, 0, 0}, {"b", 18, 0, 1}};
  OrderAsRebuilt(two);
  EXPECT_EQ(Names(two), (std::vector<std::string>{"b", "a"}));
}

}  // namespace
}  // namespace pogi::value
