// Update tests: each action, pre-image semantics, paths, run-time errors.
#include "service/expr/update.h"

#include <gtest/gtest.h>

#include "service/expr/evaluator.h"
#include "service/expr/parser.h"
#include "service/expr/projection.h"
#include "service/expr/value_ops.h"
#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::expr {
namespace {

using namespace testing;  // NOLINT

Status Upd(const std::string& text, AttributeMap* item, AttributeMap values = {},
           std::vector<Path>* paths = nullptr) {
  Substitutions subs(nullptr, &values);
  auto u = ParseUpdate(text, subs);
  EXPECT_TRUE(u.ok()) << text << ": " << (u.ok() ? "" : u.error().message());
  if (!u.ok()) return u.error();
  return Apply(*u, item, paths);
}

TEST(ExprUpdateTest, SetArithmeticAndPreImage) {
  AttributeMap item = Item({{"a", N("1")}, {"b", N("2")}});
  ASSERT_TRUE(Upd("SET a = b, b = a", &item).ok());
  EXPECT_EQ(item["a"].n(), "2");
  EXPECT_EQ(item["b"].n(), "1");
  ASSERT_TRUE(Upd("SET a = a + :v, c = :v - b", &item, Item({{":v", N("0.5")}})).ok());
  EXPECT_EQ(item["a"].n(), "2.5");
  EXPECT_EQ(item["c"].n(), "-0.5");
  ASSERT_TRUE(
      Upd("SET d = if_not_exists(d, :v), a = if_not_exists(a, :v)", &item, Item({{":v", N("7")}})).ok());
  EXPECT_EQ(item["d"].n(), "7");
  EXPECT_EQ(item["a"].n(), "2.5");
}

TEST(ExprUpdateTest, ListsAndNestedPaths) {
  AttributeMap item = Item({{"l", L({N("0"), N("1"), N("2"), N("3")})}, {"m", M({})}});
  ASSERT_TRUE(Upd("SET l = list_append(l, :x)", &item, Item({{":x", L({N("4")})}})).ok());
  EXPECT_EQ(item["l"].l().values_size(), 5);
  ASSERT_TRUE(Upd("SET l[99] = :x, m.k = :x", &item, Item({{":x", S("end")}})).ok());
  EXPECT_EQ(item["l"].l().values(5).s(), "end");  // past the end appends
  EXPECT_EQ(item["m"].m().fields().at("k").s(), "end");
  ASSERT_TRUE(Upd("REMOVE l[0], l[2]", &item).ok());  // indexes of the pre-image
  ASSERT_EQ(item["l"].l().values_size(), 4);
  EXPECT_EQ(item["l"].l().values(0).n(), "1");
  EXPECT_EQ(item["l"].l().values(1).n(), "3");
  auto s = Upd("SET x.y = :x", &item, Item({{":x", S("v")}}));
  EXPECT_EQ(s.error().message(), "The document path provided in the update expression is invalid for update");
  s = Upd("SET c = nothere", &item);
  EXPECT_EQ(s.error().message(),
            "The provided expression refers to an attribute that does not exist in the item");
  s = Upd("SET c = m + :x", &item, Item({{":x", N("1")}}));
  EXPECT_EQ(s.error().message(), "An operand in the update expression has an incorrect data type");
}

TEST(ExprUpdateTest, AddAndDelete) {
  AttributeMap item;
  ASSERT_TRUE(Upd("ADD n :one, s :set", &item, Item({{":one", N("1")}, {":set", SS({"a", "b"})}})).ok());
  EXPECT_EQ(item["n"].n(), "1");
  ASSERT_TRUE(Upd("ADD n :one, s :set", &item, Item({{":one", N("41")}, {":set", SS({"b", "c"})}})).ok());
  EXPECT_EQ(item["n"].n(), "42");
  EXPECT_EQ(item["s"].ss().values_size(), 3);
  ASSERT_TRUE(Upd("DELETE s :set", &item, Item({{":set", SS({"a", "c"})}})).ok());
  EXPECT_EQ(item["s"].ss().values_size(), 1);
  ASSERT_TRUE(Upd("DELETE s :set", &item, Item({{":set", SS({"b"})}})).ok());
  EXPECT_FALSE(item.contains("s"));  // an emptied set disappears
  auto s = Upd("ADD n :set", &item, Item({{":set", SS({"x"})}}));
  EXPECT_EQ(s.error().message(), "An operand in the update expression has an incorrect data type");
}

TEST(ExprUpdateTest, UpdatedPathsAndExtraction) {
  AttributeMap item = Item({{"a", M({{"b", N("1")}, {"c", N("2")}})}, {"z", N("9")}});
  AttributeMap old = item;
  std::vector<Path> paths;
  ASSERT_TRUE(Upd("SET a.b = :v", &item, Item({{":v", N("5")}}), &paths).ok());
  AttributeMap updated_new = ExtractPaths(paths, item);
  AttributeMap updated_old = ExtractPaths(paths, old);
  ASSERT_EQ(updated_new.size(), 1u);
  EXPECT_EQ(updated_new["a"].m().fields().size(), 1u);
  EXPECT_EQ(updated_new["a"].m().fields().at("b").n(), "5");
  EXPECT_EQ(updated_old["a"].m().fields().at("b").n(), "1");
}

}  // namespace
}  // namespace pogi::expr
