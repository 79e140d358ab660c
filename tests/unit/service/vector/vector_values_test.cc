// Tests for vector_values: numbers to 32-bit floats and back, an item's
// entry in a vector index (partition, floats, filters, size), and
// DynamoDB's refusals of a bad vector attribute or search schema value.
#include "service/vector/vector_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::N;
using test::S;
using V = v1::AttributeValue;

V List(std::initializer_list<V> values) {
  V v;
  for (const V& e : values) *v.mutable_l()->add_values() = e;
  return v;
}

Table MakeTable() {
  Table t;
  t.hash = {"pk", "S"};
  return t;
}

VectorIndex MakeIndex(int dims = 3) {
  VectorIndex v;
  v.name = "vix";
  v.attribute = "emb";
  v.dimensions = dims;
  v.hash = KeyAttribute{"cat", "S"};
  v.filters = {{"brand", "S"}, {"year", "N"}};
  v.projection_type = "ALL";
  return v;
}

std::string Message(const Result<std::optional<VectorEntryData>>& r) {
  return r.ok() ? std::string("(ok)") : r.error().message();
}

TEST(NumberToFloatTest, RoundsToNearestAndRefusesBeyondTheRange) {
  EXPECT_EQ(*NumberToFloat("1"), 1.0f);
  EXPECT_EQ(*NumberToFloat("-2.5"), -2.5f);
  EXPECT_EQ(*NumberToFloat("0.1"), 0.1f);
  EXPECT_EQ(*NumberToFloat("1e3"), 1000.0f);
  EXPECT_EQ(*NumberToFloat("+3"), 3.0f);
  EXPECT_EQ(*NumberToFloat("340282350000000000000000000000000000000"), std::numeric_limits<float>::max());
  EXPECT_FALSE(NumberToFloat("1E39"));
  EXPECT_FALSE(NumberToFloat("-340282360000000000000000000000000000000"));
  // Below the smallest float: zero, keeping the sign.
  EXPECT_EQ(*NumberToFloat("1E-60"), 0.0f);
  EXPECT_TRUE(std::signbit(*NumberToFloat("-1E-60")));
}

TEST(FloatToNumberTest, ShortestCanonicalText) {
  EXPECT_EQ(FloatToNumber(0.1f), "0.1");
  EXPECT_EQ(FloatToNumber(-3.0f), "-3");
  EXPECT_EQ(FloatToNumber(1e-5f), "0.00001");
  EXPECT_EQ(FloatToNumber(1e20f), "100000000000000000000");
  EXPECT_EQ(FloatToNumber(0.0f), "0");
  EXPECT_EQ(FloatToNumber(-0.0f), "0");
  for (float f : {0.1f, 1.0f / 3, 123456.789f, -7e-30f, std::numeric_limits<float>::max()}) {
    EXPECT_EQ(*NumberToFloat(FloatToNumber(f)), f) << f;
  }
}

TEST(VectorEntryOfTest, EntryOfAnItem) {
  value::AttributeMap item;
  item["pk"] = S("k1");
  item["cat"] = S("books");
  item["brand"] = S("acme");
  item["emb"] = List({N("1"), N("0.1"), N("-2")});
  auto r = VectorEntryOf(MakeTable(), MakeIndex(), item);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_TRUE(*r);
  const VectorEntryData& e = **r;
  EXPECT_EQ(e.partition, value::EncodeKeyValue(S("books")));
  ASSERT_EQ(e.vector.size(), 12u);
  float f[3];
  CopyFloats(e.vector, f);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], 0.1f);
  EXPECT_EQ(f[2], -2.0f);
  std::vector<std::optional<std::string_view>> filters;
  ASSERT_TRUE(SplitFilterValues(e.filters, 2, &filters));
  EXPECT_EQ(filters[0], value::EncodeKeyValue(S("acme")));
  EXPECT_FALSE(filters[1]);  // an absent filter attribute: still indexed
  // 4 bytes a dimension + "emb", pk "k1", cat "books", brand "acme".
  EXPECT_EQ(e.size, 12 + 3 + (2 + 2) + (3 + 5) + (5 + 4));
}

TEST(VectorEntryOfTest, SparseWithoutTheVectorOrTheHashValue) {
  value::AttributeMap item;
  item["pk"] = S("k1");
  item["emb"] = List({N("1"), N("2"), N("3")});
  auto r = VectorEntryOf(MakeTable(), MakeIndex(), item);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);  // no HASH value: in no partition
  item["cat"] = S("x");
  item.erase("emb");
  r = VectorEntryOf(MakeTable(), MakeIndex(), item);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  VectorIndex no_hash = MakeIndex();
  no_hash.hash.reset();
  item["emb"] = List({N("1"), N("2"), N("3")});
  r = VectorEntryOf(MakeTable(), no_hash, item);
  ASSERT_TRUE(r.ok() && *r);
  EXPECT_EQ((*r)->partition, "");
}

TEST(VectorEntryOfTest, DynamoDBsRefusals) {
  auto refuse = [](const V& emb, const V* cat = nullptr, const V* year = nullptr) {
    value::AttributeMap item;
    item["pk"] = S("k");
    item["emb"] = emb;
    if (cat) item["cat"] = *cat;
    if (year) item["year"] = *year;
    return Message(VectorEntryOf(MakeTable(), MakeIndex(), item));
  };
  V ns;
  ns.mutable_ns()->add_values("1");
  EXPECT_EQ(
      refuse(ns),
      "One or more parameter values were invalid. Invalid type for parameter emb, Expected: 32-bit floating "
      "point number list IndexName: vix");
  EXPECT_EQ(
      refuse(List({N("1"), N("2")})),
      "One or more parameter values were invalid. Invalid size for parameter emb, Expected: 3, Actual: 2 "
      "IndexName: vix");
  EXPECT_EQ(refuse(List({N("1"), S("2"), N("3")})),
            "One or more parameter values were invalid. Invalid type for parameter emb[1], Expected: 32-bit "
            "floating point number, Actual: S. IndexName: vix");
  EXPECT_EQ(refuse(List({N("1"), N("2"), N("-1E39")})),
            "One or more parameter values were invalid. Invalid value for parameter emb[2], Value: -1E39 is "
            "outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: vix");
  V good = List({N("1"), N("2"), N("3")});
  V cat_n = N("1"), empty = S(""), year_s = S("2020");
  EXPECT_EQ(
      refuse(good, &cat_n),
      "One or more parameter values were invalid. Attribute 'cat' type mismatch. Expected: S, Actual: N. "
      "IndexName: vix");
  EXPECT_EQ(
      refuse(good, nullptr, &year_s),
      "One or more parameter values were invalid. Attribute 'year' type mismatch. Expected: N, Actual: S. "
      "IndexName: vix");
  EXPECT_EQ(
      refuse(good, &empty),
      "One or more parameter values are not valid. A value specified for a secondary index key is not "
      "supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: "
      "vix, IndexKey: cat");
}

TEST(FilterValuesTest, EqualValuesEncodeEqually) {
  std::string a, b;
  AppendFilterValue(nullptr, &a);
  V n1 = N("1.50"), n2 = N("1.5");
  AppendFilterValue(&n1, &a);
  AppendFilterValue(nullptr, &b);
  AppendFilterValue(&n2, &b);
  std::vector<std::optional<std::string_view>> x, y;
  ASSERT_TRUE(SplitFilterValues(a, 2, &x));
  ASSERT_TRUE(SplitFilterValues(b, 2, &y));
  EXPECT_EQ(x, y);
  EXPECT_FALSE(SplitFilterValues(a, 3, &x));
  EXPECT_FALSE(SplitFilterValues(a.substr(0, a.size() - 1), 2, &x));
}

TEST(VectorValueTest, ListOfFloatNumbers) {
  float f[] = {0.1f, -2.0f};
  V v = VectorValue(f);
  ASSERT_EQ(v.l().values_size(), 2);
  EXPECT_EQ(v.l().values(0).n(), "0.1");
  EXPECT_EQ(v.l().values(1).n(), "-2");
}

}  // namespace
}  // namespace pogi::service
