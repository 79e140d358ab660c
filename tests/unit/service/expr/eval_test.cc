// Evaluator tests: comparators, functions, type rules, absent attributes.
#include <gtest/gtest.h>

#include "service/expr/evaluator.h"
#include "service/expr/parser.h"
#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::expr {
namespace {

using namespace testing;  // NOLINT

bool Eval(const std::string& text, const AttributeMap& item, AttributeMap values) {
  Substitutions subs(nullptr, &values);
  auto c = ParseCondition(text, ExpressionKind::kCondition, subs);
  EXPECT_TRUE(c.ok()) << text << ": " << (c.ok() ? "" : c.error().message());
  if (!c.ok()) return false;
  auto r = Evaluate(*c, item);
  return r.ok() && *r;
}

TEST(ExprEvalTest, ComparatorsAndTypes) {
  AttributeMap item = Item({{"n", N("10")}, {"s", S("abc")}, {"ss", SS({"x", "y"})}});
  EXPECT_TRUE(Eval("n = :v", item, Item({{":v", N("1e1")}})));
  EXPECT_TRUE(Eval("n > :v", item, Item({{":v", N("9.5")}})));
  EXPECT_FALSE(Eval("n > :v", item, Item({{":v", S("1")}})));  // different types: false
  EXPECT_TRUE(Eval("n <> :v", item, Item({{":v", S("10")}})));
  EXPECT_TRUE(Eval("absent <> :v", item, Item({{":v", S("10")}})));
  EXPECT_FALSE(Eval("absent = :v", item, Item({{":v", S("10")}})));
  EXPECT_TRUE(Eval("s < :v", item, Item({{":v", S("abd")}})));
  EXPECT_TRUE(Eval("ss = :v", item, Item({{":v", SS({"y", "x"})}})));  // sets as sets
  EXPECT_TRUE(Eval("n BETWEEN :a AND :b", item, Item({{":a", N("10")}, {":b", N("11")}})));
  EXPECT_FALSE(Eval("n BETWEEN :a AND :b", item, Item({{":a", N("11")}, {":b", N("12")}})));
  EXPECT_TRUE(Eval("s IN (:a, :b)", item, Item({{":a", N("1")}, {":b", S("abc")}})));
}

TEST(ExprEvalTest, LogicPrecedence) {
  AttributeMap item = Item({{"a", N("1")}});
  AttributeMap v = Item({{":one", N("1")}, {":two", N("2")}});
  EXPECT_TRUE(Eval("a = :one OR a = :two AND a = :two", item, v));  // AND binds tighter
  EXPECT_FALSE(Eval("(a = :one OR a = :two) AND a = :two", item, v));
  EXPECT_FALSE(Eval("NOT a = :one", item, v));
  EXPECT_TRUE(Eval("NOT NOT a = :one", item, v));
}

TEST(ExprEvalTest, Functions) {
  AttributeMap item = Item({{"s", S("hello")},
                            {"l", L({N("1"), S("x")})},
                            {"ns", NS({"1", "2"})},
                            {"m", M({{"k", Bool(true)}})},
                            {"n", N("3")}});
  AttributeMap v = Item({{":S", S("S")},
                         {":h", S("he")},
                         {":x", S("x")},
                         {":2", N("2.0")},
                         {":five", N("5")},
                         {":three", N("3")},
                         {":L", S("L")}});
  EXPECT_TRUE(Eval("attribute_exists(m.k)", item, {}));
  EXPECT_TRUE(Eval("attribute_not_exists(m.z)", item, {}));
  EXPECT_TRUE(Eval("attribute_not_exists(l[5])", item, {}));
  EXPECT_TRUE(Eval("attribute_type(s, :S)", item, v));
  EXPECT_TRUE(Eval("attribute_type(l, :L)", item, v));
  EXPECT_TRUE(Eval("begins_with(s, :h)", item, v));
  EXPECT_TRUE(Eval("contains(s, :h)", item, v));
  EXPECT_TRUE(Eval("contains(l, :x)", item, v));
  EXPECT_TRUE(Eval("contains(ns, :2)", item, v));
  EXPECT_TRUE(Eval("size(s) = :five", item, v));
  EXPECT_TRUE(Eval("size(l) < :three", item, v));
  EXPECT_FALSE(Eval("size(n) = :three", item, v));  // size of a number: false
  EXPECT_FALSE(Eval("size(absent) < :three", item, v));
}

// size() of a string counts what Java counts: UTF-16 code units (behaviours.md
// 1.2; DynamoDB Local 3.3.1 answers the same).
TEST(ExprEvalTest, SizeOfAStringCountsCharacters) {
  AttributeMap item = Item({{"s", S("ab\xC3\xBF")}, {"e", S("a\xF0\x9F\x98\x80")}});
  EXPECT_TRUE(Eval("size(s) = :n", item, Item({{":n", N("3")}})));
  EXPECT_TRUE(Eval("size(e) = :n", item, Item({{":n", N("3")}})));
}

}  // namespace
}  // namespace pogi::expr
