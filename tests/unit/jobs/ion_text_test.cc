// The Ion text DynamoDB's exports hold, value type by value type.
#include "jobs/ion_text.h"

#include <gtest/gtest.h>

#include "tests/unit/value_builders.h"

namespace pogi::jobs {
namespace {

using test::B;
using test::N;
using test::S;

std::string Ion(const v1::AttributeValue& v) {
  std::string out;
  AppendIonValue(v, &out);
  return out;
}

TEST(IonTextTest, Scalars) {
  EXPECT_EQ(Ion(S("a \"q\" \\ \n\x01")), "\"a \\\"q\\\" \\\\ \\n\\x01\"");
  EXPECT_EQ(Ion(S("héllo")), "\"héllo\"");
  EXPECT_EQ(Ion(N("12")), "12.");  // a decimal, not an Ion int
  EXPECT_EQ(Ion(N("-1.5")), "-1.5");
  EXPECT_EQ(Ion(N("1.5E+130")), "1.5d+130");
  EXPECT_EQ(Ion(B(std::string("\x00\xff", 2))), "{{AP8=}}");
  v1::AttributeValue t;
  t.set_bool_value(true);
  EXPECT_EQ(Ion(t), "true");
  v1::AttributeValue n;
  n.set_null_value(true);
  EXPECT_EQ(Ion(n), "null");
}

TEST(IonTextTest, SetsAreAnnotatedLists) {
  v1::AttributeValue ss, ns, bs;
  ss.mutable_ss()->add_values("a");
  ss.mutable_ss()->add_values("b");
  ns.mutable_ns()->add_values("1");
  ns.mutable_ns()->add_values("2.5");
  bs.mutable_bs()->add_values("x");
  EXPECT_EQ(Ion(ss), "$dynamodb_SS::[\"a\",\"b\"]");
  EXPECT_EQ(Ion(ns), "$dynamodb_NS::[1.,2.5]");
  EXPECT_EQ(Ion(bs), "$dynamodb_BS::[{{eA==}}]");
}

TEST(IonTextTest, StructsInNameOrderWithQuotedSymbols) {
  value::AttributeMap item;
  item["pk"] = S("k");
  item["odd name"] = N("1");
  item["null"] = S("keyword");
  item["$x"] = S("dollar");
  v1::AttributeValue list;
  *list.mutable_l()->add_values() = N("3");
  (*list.mutable_l()->add_values()->mutable_m()->mutable_fields())["in"] = S("deep");
  item["l"] = list;
  std::string out;
  AppendIonItem(item, &out);
  EXPECT_EQ(out, "{'$x':\"dollar\",l:[3.,{in:\"deep\"}],'null':\"keyword\",'odd name':1.,pk:\"k\"}");
}

}  // namespace
}  // namespace pogi::jobs
