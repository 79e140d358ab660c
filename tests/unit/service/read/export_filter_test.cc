// An export's FilterSpecification: Query's key-condition rules and messages,
// Scan's filter, the projection, and the substitution rules every
// expression follows; then which items it selects and what it keeps.
#include "service/read/export_filter.h"

#include <gtest/gtest.h>

#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::service {
namespace {

using expr::testing::Item;
using expr::testing::N;
using expr::testing::S;

Table MakeTable() {
  Table t;
  t.hash = {"pk", "S"};
  t.range = KeyAttribute{"sk", "N"};
  return t;
}

v1::FilterSpecification Spec(const char* key, const char* filter, const char* projection) {
  v1::FilterSpecification f;
  if (key) f.set_key_condition_expression(key);
  if (filter) f.set_filter_expression(filter);
  if (projection) f.set_projection_expression(projection);
  (*f.mutable_expression_attribute_names()->mutable_names())["#c"] = "color";
  auto& values = *f.mutable_expression_attribute_values()->mutable_attributes();
  if ((key && std::string(key).find(":p") != std::string::npos) ||
      (filter && std::string(filter).find(":p") != std::string::npos)) {
    values[":p"] = S("a");
  }
  if ((key && std::string(key).find(":n") != std::string::npos) ||
      (filter && std::string(filter).find(":n") != std::string::npos)) {
    values[":n"] = N("2");
  }
  if (filter && std::string(filter).find(":c") != std::string::npos) values[":c"] = S("red");
  if (values.empty()) f.clear_expression_attribute_values();
  bool uses_c = (filter && std::string(filter).find("#c") != std::string::npos) ||
                (projection && std::string(projection).find("#c") != std::string::npos);
  if (!uses_c) f.clear_expression_attribute_names();
  return f;
}

std::string Refusal(const v1::FilterSpecification& spec) {
  auto f = ExportFilter::Make(spec, MakeTable());
  return f.ok() ? "(ok)" : f.error().message();
}

TEST(ExportFilterTest, ChecksAsQueryAndScanDo) {
  EXPECT_EQ(Refusal(Spec("pk = :p AND sk > :n", "#c = :c", "pk, #c")), "(ok)");
  EXPECT_EQ(Refusal(Spec(nullptr, "pk = :p AND #c = :c", nullptr)),
            "(ok)");  // keys allowed without a key condition
  EXPECT_EQ(Refusal(Spec("sk > :n", nullptr, nullptr)), "Query condition missed key schema element: pk");
  EXPECT_EQ(Refusal(Spec("pk = :p", "sk > :n", nullptr)),
            "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk");
  EXPECT_EQ(Refusal(Spec("pk = ", nullptr, nullptr)),
            "Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\", near: \"= \"");
  v1::FilterSpecification unused = Spec("pk = :p", nullptr, nullptr);
  (*unused.mutable_expression_attribute_values()->mutable_attributes())[":x"] = S("x");
  EXPECT_EQ(Refusal(unused), "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}");
}

TEST(ExportFilterTest, SelectsAndProjects) {
  auto f = ExportFilter::Make(Spec("pk = :p AND sk > :n", "#c = :c", "sk, #c"), MakeTable());
  ASSERT_TRUE(f.ok()) << f.error().message();
  auto red3 = Item({{"pk", S("a")}, {"sk", N("3")}, {"color", S("red")}, {"size", N("9")}});
  EXPECT_TRUE(*f->Selects(red3));
  EXPECT_FALSE(
      *f->Selects(Item({{"pk", S("b")}, {"sk", N("3")}, {"color", S("red")}})));  // another partition
  EXPECT_FALSE(
      *f->Selects(Item({{"pk", S("a")}, {"sk", N("2")}, {"color", S("red")}})));  // sort key out of range
  EXPECT_FALSE(*f->Selects(Item({{"pk", S("a")}, {"sk", N("3")}, {"color", S("blue")}})));
  EXPECT_FALSE(*f->Selects(Item({{"pk", S("a")}, {"sk", N("3")}})));  // no color
  ASSERT_TRUE(f->projects());
  auto kept = f->Project(red3);
  EXPECT_EQ(kept.size(), 2u);
  EXPECT_TRUE(kept.count("sk") && kept.count("color"));

  auto all = ExportFilter::Make(Spec(nullptr, "size(#c) > :n", nullptr), MakeTable());
  ASSERT_TRUE(all.ok()) << all.error().message();
  EXPECT_FALSE(all->projects());
  EXPECT_EQ(all->Project(red3).size(), 4u);
}

}  // namespace
}  // namespace pogi::service
