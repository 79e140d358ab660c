// Key conditions on multi-attribute GSI keys: which conditions a Query may
// give (equality on every partition-key attribute, sort-key attributes left
// to right with at most a last range condition), the messages for the rest,
// and the ranges the accepted ones read; legacy KeyConditions whose operator
// no index can use, judged key by key.
#include "service/read/key_condition.h"

#include <gtest/gtest.h>

#include "service/expr/parser.h"
#include "service/value/item.h"
#include "service/value/key_tuple.h"
#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::service {
namespace {

using expr::testing::Item;
using expr::testing::N;
using expr::testing::S;

// HASH a (S), b (N); RANGE c (S), d (N), e (S).
KeySchema Keys() {
  KeySchema k;
  k.hash = {{"a", "S"}, {"b", "N"}};
  k.range = {{"c", "S"}, {"d", "N"}, {"e", "S"}};
  return k;
}

const expr::AttributeMap& Values() {
  static const expr::AttributeMap values = Item({{":a", S("A")},
                                                 {":b", N("1")},
                                                 {":c", S("c1")},
                                                 {":c2", S("c3")},
                                                 {":d", N("5")},
                                                 {":d2", N("1")},
                                                 {":e", S("e")},
                                                 {":s", S("x")},
                                                 {":n", N("2")}});
  return values;
}

Result<storage::RangeRead> Compile(const std::string& text, const KeySchema& keys = Keys()) {
  expr::Substitutions subs(nullptr, &Values());
  // Some operand rules (begins_with on a number, BETWEEN's order) are the
  // parser's; their messages are the same either way.
  auto c = expr::ParseCondition(text, expr::ExpressionKind::kKeyCondition, subs);
  if (!c.ok()) return c.error();
  return CompileKeyCondition(*c, keys);
}

std::string ErrorOf(const std::string& text) {
  auto r = Compile(text);
  return r.ok() ? "OK" : r.error().message();
}

std::string Elements(std::vector<v1::AttributeValue> values) {
  std::string out;
  for (const auto& v : values) value::AppendKeyElement(value::EncodeKeyValue(v), &out);
  return out;
}

TEST(KeyConditionTest, PartitionNeedsEqualityOnEveryAttribute) {
  EXPECT_EQ(ErrorOf("a = :a"), "HASH key attributes b must have equality conditions specified in the query");
  EXPECT_EQ(ErrorOf("c = :c"),
            "HASH key attributes a, b must have equality conditions specified in the query");
  EXPECT_EQ(ErrorOf("a = :a AND b > :b"),
            "HASH key attributes b must have equality conditions specified in the query");
  EXPECT_EQ(ErrorOf("a = :a AND b = :s"),
            "One or more parameter values were invalid: Condition parameter type does not match schema type");
}

TEST(KeyConditionTest, SortAttributesLeftToRightWithoutGaps) {
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND d = :d"),
            "RANGE key attributes c must have equality conditions specified in the query because a condition "
            "is present on key attribute d");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND e = :e"),
            "RANGE key attributes c, d must have equality conditions specified in the query because a "
            "condition is present on key attribute e");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND c > :c AND d = :d"),
            "RANGE key attributes c must have equality conditions specified in the query because a condition "
            "is present on key attribute d");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND c = :c AND c = :c2"),
            "KeyConditionExpressions must only contain one condition per key");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND x = :c"), "Query condition missed key schema element: c");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND c = :n"),
            "One or more parameter values were invalid: Condition parameter type does not match schema type");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND c = :c AND begins_with(d, :n)"),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
            "function: begins_with, operand type: N");
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND c = :c AND d BETWEEN :d AND :d2"),
            "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or "
            "equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: "
            "AttributeValue: {N:1}");
  // More conditions than key attributes.
  EXPECT_EQ(ErrorOf("a = :a AND b = :b AND c = :c AND d = :d AND e = :e AND x = :s"),
            "Query key condition not supported");
}

TEST(KeyConditionTest, AcceptedConditionsReadTheirRange) {
  const std::string partition = Elements({S("A"), N("1")});
  auto all = Compile("a = :a AND b = :b");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all->partition, partition);
  EXPECT_FALSE(all->sort_lo || all->sort_hi);

  // Equality on a prefix: the keys that start with its elements.
  auto eq = Compile("b = :b AND c = :c AND a = :a AND d = :d");
  ASSERT_TRUE(eq.ok());
  std::string prefix = Elements({S("c1"), N("5")});
  EXPECT_EQ(*eq->sort_lo, prefix);
  EXPECT_EQ(*eq->sort_hi, *PrefixEnd(prefix));
  EXPECT_EQ(*eq->exclude_hi, *eq->sort_hi);

  // A range on the last constrained attribute, inside the prefix.
  auto gt = Compile("a = :a AND b = :b AND c = :c AND d > :d");
  ASSERT_TRUE(gt.ok());
  EXPECT_EQ(*gt->sort_lo, *PrefixEnd(Elements({S("c1"), N("5")})));
  EXPECT_EQ(*gt->sort_hi, *PrefixEnd(Elements({S("c1")})));

  auto lt = Compile("a = :a AND b = :b AND :c > c");  // value on the left
  ASSERT_TRUE(lt.ok());
  EXPECT_FALSE(lt->sort_lo);
  EXPECT_EQ(*lt->sort_hi, Elements({S("c1")}));
  EXPECT_EQ(*lt->exclude_hi, Elements({S("c1")}));

  auto bw = Compile("a = :a AND b = :b AND begins_with(c, :c)");
  ASSERT_TRUE(bw.ok());
  EXPECT_EQ(*bw->sort_lo, "c1");
  EXPECT_EQ(*bw->sort_hi, "c2");

  auto between = Compile("a = :a AND b = :b AND c = :c AND d BETWEEN :d2 AND :d");
  ASSERT_TRUE(between.ok());
  EXPECT_EQ(*between->sort_lo, Elements({S("c1"), N("1")}));
  EXPECT_EQ(*between->sort_hi, *PrefixEnd(Elements({S("c1"), N("5")})));
}

TEST(KeyConditionTest, SingleSortAttributeAfterMultiAttributePartition) {
  KeySchema keys;
  keys.hash = {{"a", "S"}, {"b", "N"}};
  keys.range = {{"c", "S"}};
  auto r = Compile("a = :a AND b = :b AND c >= :c", keys);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r->partition, Elements({S("A"), N("1")}));
  EXPECT_EQ(*r->sort_lo, "c1");  // a one-attribute sort key is stored as its value
  EXPECT_FALSE(r->sort_hi);
}

TEST(KeyConditionTest, ClassicKeySchemaKeepsItsRules) {
  KeySchema keys;
  keys.hash = {{"a", "S"}};
  keys.range = {{"c", "S"}};
  EXPECT_EQ(Compile("a = :a AND c = :c AND c = :c2", keys).error().message(),
            "Conditions can be of length 1 or 2 only");
  EXPECT_EQ(Compile("c = :c", keys).error().message(), "Query condition missed key schema element: a");
  auto r = Compile("a = :a AND c = :c", keys);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r->partition, "A");
  EXPECT_EQ(*r->sort_lo, "c1");
  EXPECT_EQ(*r->sort_hi, "c1");
}

using Conditions = google::protobuf::Map<std::string, v1::Condition>;

Conditions Legacy(
    std::initializer_list<std::tuple<const char*, const char*, std::vector<v1::AttributeValue>>> cs) {
  Conditions out;
  for (const auto& [name, op, values] : cs) {
    auto& c = out[name];
    c.set_comparison_operator(op);
    for (const auto& v : values) *c.add_attribute_value_list() = v;
  }
  return out;
}

std::string LegacyError(const Conditions& cs, bool range = true) {
  KeySchema keys;
  keys.hash = {{"a", "S"}};
  if (range) keys.range = {{"c", "S"}};
  Status s = CheckLegacyKeyConditions(cs, keys);
  return s.ok() ? "OK" : s.error().message();
}

// behaviours.md O4, O6: per key, hash then range: the count on a hash-only
// schema, a missing condition, the operator, the value's type, EQ on the hash.
TEST(KeyConditionTest, LegacyOperatorsNoIndexCanUse) {
  const std::string not_indexable = "Attempted conditional constraint is not an indexable operation";
  EXPECT_EQ(LegacyError(Legacy({{"a", "IN", {S("x")}}})), not_indexable);
  EXPECT_EQ(LegacyError(Legacy({{"a", "EQ", {S("x")}}, {"c", "NOT_NULL", {}}})), not_indexable);
  EXPECT_EQ(LegacyError(Legacy({{"a", "EQ", {S("x")}}, {"c", "CONTAINS", {S("y")}}}), false),
            "Query key condition not supported");
  EXPECT_EQ(LegacyError(Legacy({{"c", "NULL", {}}})), "Query condition missed key schema element: a");
  EXPECT_EQ(LegacyError(Legacy({{"a", "EQ", {S("x")}}, {"z", "NE", {S("y")}}})),
            "Query condition missed key schema element: c");
  // The hash key's own problems come before the range key's operator.
  EXPECT_EQ(LegacyError(Legacy({{"a", "GE", {S("x")}}, {"c", "IN", {S("y")}}})),
            "Query key condition not supported");
  EXPECT_EQ(LegacyError(Legacy({{"a", "EQ", {N("1")}}, {"c", "IN", {S("y")}}})),
            "One or more parameter values were invalid: Condition parameter type does not match schema type");
  // Every operator indexable: judged in the same order, so the hash key's
  // problems come before the range key's absence (O6).
  EXPECT_EQ(LegacyError(Legacy({{"a", "GE", {N("1")}}})),
            "One or more parameter values were invalid: Condition parameter type does not match schema type");
  EXPECT_EQ(LegacyError(Legacy({{"a", "BEGINS_WITH", {S("x")}}, {"z", "EQ", {S("y")}}})),
            "Query key condition not supported");
  EXPECT_EQ(LegacyError(Legacy({{"a", "EQ", {S("x")}}, {"c", "GE", {S("y")}}})), "OK");
}

}  // namespace
}  // namespace pogi::service
