// Projection tests: DynamoDB's shape for nested maps and list elements.
#include "service/expr/projection.h"

#include <gtest/gtest.h>

#include "service/expr/parser.h"
#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::expr {
namespace {

using namespace testing;  // NOLINT

AttributeMap Proj(const std::string& text, const AttributeMap& item) {
  Substitutions subs(nullptr, nullptr);
  auto p = ParseProjection(text, subs);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message());
  return p.ok() ? Project(*p, item) : AttributeMap();
}

TEST(ExprProjectionTest, Shapes) {
  AttributeMap item = Item({{"a", L({N("0"), N("1"), N("2"), N("3")})},
                            {"m", M({{"x", N("1")}, {"y", M({{"z", N("2")}, {"w", N("3")}})}})},
                            {"k", S("key")}});
  auto out = Proj("a[3], a[1], m.y.z, k, nothere, m.q", item);
  ASSERT_EQ(out.size(), 3u);
  ASSERT_EQ(out["a"].l().values_size(), 2);
  EXPECT_EQ(out["a"].l().values(0).n(), "1");
  EXPECT_EQ(out["a"].l().values(1).n(), "3");
  EXPECT_EQ(out["m"].m().fields().size(), 1u);
  EXPECT_EQ(out["m"].m().fields().at("y").m().fields().size(), 1u);
  EXPECT_EQ(out["k"].s(), "key");
  EXPECT_TRUE(Proj("m.nothere", item).empty());
}

TEST(ExprProjectionTest, OverlapErrors) {
  Substitutions subs(nullptr, nullptr);
  auto p = ParseProjection("a, a.b", subs);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message(),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must "
            "remove or rewrite one of these paths; path one: [a], path two: [a, b]");
  p = ParseProjection("a.b, a[0]", subs);
  EXPECT_EQ(p.error().message(),
            "Invalid ProjectionExpression: Two document paths conflict with each other; must "
            "remove or rewrite one of these paths; path one: [a, b], path two: [a, [0]]");
}

}  // namespace
}  // namespace pogi::expr
