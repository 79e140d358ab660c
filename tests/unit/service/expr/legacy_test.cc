// Legacy parameter tests: Expected / filters / AttributeUpdates /
// AttributesToGet converted to the AST, evaluated and applied, and every
// validation message.
#include "service/expr/legacy.h"

#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/entry_order.h"
#include "service/expr/evaluator.h"
#include "service/expr/projection.h"
#include "service/expr/value_ops.h"
#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::expr {
namespace {

using namespace testing;  // NOLINT

using ExpectedMap = google::protobuf::Map<std::string, v1::ExpectedAttributeValue>;
using FilterMap = google::protobuf::Map<std::string, v1::Condition>;
using UpdateMap = google::protobuf::Map<std::string, v1::AttributeValueUpdate>;

AttributeValue B(std::string b) {
  AttributeValue v;
  v.set_b(std::move(b));
  return v;
}
AttributeValue Null() {
  AttributeValue v;
  v.set_null_value(true);
  return v;
}

v1::Condition Cond(const std::string& op, std::vector<AttributeValue> values = {}) {
  v1::Condition c;
  c.set_comparison_operator(op);
  for (auto& v : values) *c.add_attribute_value_list() = v;
  return c;
}

// One ScanFilter entry on attribute "a", evaluated against `item`.
bool Filter(const std::string& op, std::vector<AttributeValue> values, const AttributeMap& item) {
  FilterMap f;
  f["a"] = Cond(op, std::move(values));
  auto c = ConvertFilter(f, nullptr, "ScanFilter");
  EXPECT_TRUE(c.ok()) << op << ": " << (c.ok() ? "" : c.error().message());
  if (!c.ok()) return false;
  auto r = Evaluate(*c, item);
  return r.ok() && *r;
}

std::string FilterError(const FilterMap& f, const std::string* conditional_operator = nullptr,
                        std::string_view parameter = "ScanFilter") {
  auto c = ConvertFilter(f, conditional_operator, parameter);
  return c.ok() ? "(ok)" : c.error().message();
}

std::string FilterError(const std::string& op, std::vector<AttributeValue> values) {
  FilterMap f;
  f["a"] = Cond(op, std::move(values));
  return FilterError(f);
}

v1::ExpectedAttributeValue Value(const AttributeValue& v) {
  v1::ExpectedAttributeValue e;
  *e.mutable_value() = v;
  return e;
}

bool Expected(const ExpectedMap& expected, const AttributeMap& item,
              const std::string* conditional_operator = nullptr) {
  auto c = ConvertExpected(expected, conditional_operator);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message());
  if (!c.ok()) return false;
  auto r = Evaluate(*c, item);
  return r.ok() && *r;
}

std::string ExpectedError(const ExpectedMap& expected, const std::string* conditional_operator = nullptr) {
  auto c = ConvertExpected(expected, conditional_operator);
  return c.ok() ? "(ok)" : c.error().message();
}

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

// ------------------------------------------------------------------ operators

TEST(ExprLegacyTest, EqAndNe) {
  AttributeMap item = Item({{"a", N("10")}});
  EXPECT_TRUE(Filter("EQ", {N("1e1")}, item));
  EXPECT_FALSE(Filter("EQ", {S("10")}, item));  // different type: no match
  EXPECT_FALSE(Filter("EQ", {N("10")}, {}));    // missing: no match
  EXPECT_TRUE(Filter("EQ", {SS({"y", "x"})}, Item({{"a", SS({"x", "y"})}})));
  EXPECT_FALSE(Filter("EQ", {N("6")}, Item({{"a", NS({"6"})}})));
  EXPECT_TRUE(Filter("EQ", {L({N("1")})}, Item({{"a", L({N("1")})}})));  // lists and maps too
  EXPECT_FALSE(Filter("NE", {N("10")}, item));
  EXPECT_TRUE(Filter("NE", {S("10")}, item));  // different type: not equal
  EXPECT_TRUE(Filter("NE", {N("10")}, {}));    // missing: not equal
}

TEST(ExprLegacyTest, Ordering) {
  AttributeMap item = Item({{"a", N("5")}});
  EXPECT_TRUE(Filter("LT", {N("6")}, item));
  EXPECT_FALSE(Filter("LT", {N("5")}, item));
  EXPECT_TRUE(Filter("LE", {N("5")}, item));
  EXPECT_TRUE(Filter("GT", {N("4.99")}, item));
  EXPECT_FALSE(Filter("GT", {N("5")}, item));
  EXPECT_TRUE(Filter("GE", {N("5")}, item));
  EXPECT_FALSE(Filter("GE", {S("5")}, item));  // different type: false
  EXPECT_FALSE(Filter("LT", {N("6")}, {}));
  EXPECT_TRUE(Filter("LT", {S("dog")}, Item({{"a", S("cat")}})));
  EXPECT_TRUE(Filter("GT", {S("A")}, Item({{"a", S("a")}})));        // byte order
  EXPECT_TRUE(Filter("GT", {B("\x01")}, Item({{"a", B("\xff")}})));  // unsigned bytes
}

TEST(ExprLegacyTest, InAndBetween) {
  AttributeMap item = Item({{"a", N("3")}, {"s", NS({"2", "4"})}});
  EXPECT_TRUE(Filter("IN", {N("2"), N("3"), N("8")}, item));
  EXPECT_FALSE(Filter("IN", {N("1"), N("2")}, item));
  EXPECT_FALSE(Filter("IN", {N("3")}, {}));
  // IN tests the attribute's value, not membership in a set attribute.
  FilterMap f;
  f["s"] = Cond("IN", {N("2")});
  EXPECT_FALSE(*Evaluate(*ConvertFilter(f, nullptr, "ScanFilter"), item));

  EXPECT_TRUE(Filter("BETWEEN", {N("1"), N("3")}, item));  // inclusive
  EXPECT_TRUE(Filter("BETWEEN", {N("3"), N("4")}, item));
  EXPECT_FALSE(Filter("BETWEEN", {N("0"), N("1")}, item));
  EXPECT_FALSE(Filter("BETWEEN", {S("a"), S("z")}, item));
  EXPECT_FALSE(Filter("BETWEEN", {N("0"), N("100")}, {}));
  EXPECT_TRUE(Filter("BETWEEN", {S("aardvark"), S("dog")}, Item({{"a", S("cat")}})));
}

TEST(ExprLegacyTest, NullAndNotNull) {
  // NULL / NOT_NULL test existence, not the NULL type.
  EXPECT_TRUE(Filter("NULL", {}, {}));
  EXPECT_FALSE(Filter("NULL", {}, Item({{"a", Null()}})));
  EXPECT_FALSE(Filter("NULL", {}, Item({{"a", S("x")}})));
  EXPECT_TRUE(Filter("NOT_NULL", {}, Item({{"a", Null()}})));
  EXPECT_FALSE(Filter("NOT_NULL", {}, Item({{"b", S("x")}})));
}

TEST(ExprLegacyTest, ContainsAndNotContains) {
  EXPECT_TRUE(Filter("CONTAINS", {S("ell")}, Item({{"a", S("hello")}})));
  EXPECT_FALSE(Filter("CONTAINS", {S("dog")}, Item({{"a", S("hello")}})));
  EXPECT_FALSE(Filter("CONTAINS", {N("1")}, Item({{"a", S("hello 1")}})));
  EXPECT_TRUE(Filter("CONTAINS", {N("4.0")}, Item({{"a", NS({"2", "4", "7"})}})));
  EXPECT_TRUE(Filter("CONTAINS", {S("x")}, Item({{"a", SS({"x", "y"})}})));
  EXPECT_TRUE(Filter("CONTAINS", {N("4")}, Item({{"a", L({N("2"), N("4")})}})));  // lists too
  EXPECT_TRUE(Filter("CONTAINS", {Null()}, Item({{"a", L({Null()})}})));
  EXPECT_TRUE(Filter("CONTAINS", {B("her")}, Item({{"a", B("hi there")}})));
  EXPECT_FALSE(Filter("CONTAINS", {N("1")}, {}));

  EXPECT_TRUE(Filter("NOT_CONTAINS", {S("dog")}, Item({{"a", S("hello")}})));
  EXPECT_FALSE(Filter("NOT_CONTAINS", {S("ell")}, Item({{"a", S("hello")}})));
  EXPECT_TRUE(Filter("NOT_CONTAINS", {N("1")}, Item({{"a", NS({"2", "4"})}})));
  EXPECT_FALSE(Filter("NOT_CONTAINS", {N("4")}, Item({{"a", L({N("2"), N("4")})}})));
  EXPECT_TRUE(Filter("NOT_CONTAINS", {N("1")}, Item({{"a", N("1")}})));  // not a container
  // Unlike NE, NOT_CONTAINS on a missing attribute is false.
  EXPECT_FALSE(Filter("NOT_CONTAINS", {N("1")}, {}));
}

TEST(ExprLegacyTest, BeginsWith) {
  EXPECT_TRUE(Filter("BEGINS_WITH", {S("hell")}, Item({{"a", S("hello")}})));
  EXPECT_FALSE(Filter("BEGINS_WITH", {S("dog")}, Item({{"a", S("hello")}})));
  EXPECT_TRUE(Filter("BEGINS_WITH", {B("hi")}, Item({{"a", B("hi there")}})));
  EXPECT_FALSE(Filter("BEGINS_WITH", {S("3")}, Item({{"a", N("3")}})));  // just false
  EXPECT_FALSE(Filter("BEGINS_WITH", {S("h")}, {}));
}

TEST(ExprLegacyTest, ConditionalOperatorAndKeyConditions) {
  AttributeMap item = Item({{"a", N("1")}, {"b", N("2")}});
  FilterMap f;
  f["a"] = Cond("EQ", {N("1")});
  f["b"] = Cond("EQ", {N("999")});
  std::string op_or = "OR", op_and = "AND";
  EXPECT_FALSE(*Evaluate(*ConvertFilter(f, nullptr, "QueryFilter"), item));  // AND by default
  EXPECT_FALSE(*Evaluate(*ConvertFilter(f, &op_and, "QueryFilter"), item));
  EXPECT_TRUE(*Evaluate(*ConvertFilter(f, &op_or, "QueryFilter"), item));
  // KeyConditions are always ANDed; ConditionalOperator belongs to QueryFilter.
  EXPECT_FALSE(*Evaluate(*ConvertFilter(f, &op_or, "KeyConditions"), item));
  // Empty: always true.
  auto empty = ConvertFilter(FilterMap(), nullptr, "ScanFilter");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->kind, Condition::Kind::kTrue);
  EXPECT_TRUE(*Evaluate(*empty, item));
}

// ------------------------------------------------------------------ Expected

TEST(ExprLegacyTest, ExpectedValueAndExists) {
  AttributeMap item = Item({{"a", N("1")}});
  ExpectedMap e;
  e["a"] = Value(N("1"));
  EXPECT_TRUE(Expected(e, item));
  e["a"] = Value(N("2"));
  EXPECT_FALSE(Expected(e, item));
  e.clear();
  e["z"] = Value(N("1"));
  EXPECT_FALSE(Expected(e, item));  // missing attribute: fails

  e.clear();
  e["a"] = Value(N("1"));
  e["a"].set_exists(true);
  EXPECT_TRUE(Expected(e, item));

  e.clear();
  e["z"].set_exists(false);
  EXPECT_TRUE(Expected(e, item));
  EXPECT_FALSE(Expected(e, Item({{"z", Null()}})));

  EXPECT_TRUE(Expected(ExpectedMap(), item));  // empty Expected: success
  EXPECT_TRUE(Expected(ExpectedMap(), {}));
}

TEST(ExprLegacyTest, ExpectedComparisonOperators) {
  AttributeMap item = Item({{"a", N("1")}, {"b", S("cat")}, {"c", N("3")}});
  ExpectedMap e;
  e["a"].set_comparison_operator("EQ");
  *e["a"].add_attribute_value_list() = N("1");
  EXPECT_TRUE(Expected(e, item));
  // Value as the single argument of a ComparisonOperator.
  e.clear();
  e["b"] = Value(S("d"));
  e["b"].set_comparison_operator("LT");
  EXPECT_TRUE(Expected(e, item));
  e.clear();
  e["q"].set_comparison_operator("NULL");
  EXPECT_TRUE(Expected(e, item));
  e.clear();
  e["c"].set_comparison_operator("IN");
  *e["c"].add_attribute_value_list() = N("2");
  *e["c"].add_attribute_value_list() = N("3");
  EXPECT_TRUE(Expected(e, item));
}

TEST(ExprLegacyTest, ExpectedConditionalOperator) {
  AttributeMap item = Item({{"a", N("1")}, {"b", N("2")}});
  ExpectedMap e;
  e["a"] = Value(N("74"));
  e["b"].set_comparison_operator("EQ");
  *e["b"].add_attribute_value_list() = N("999");
  e["c"].set_exists(false);
  std::string op_or = "OR", op_and = "AND";
  EXPECT_FALSE(Expected(e, item));
  EXPECT_FALSE(Expected(e, item, &op_and));
  EXPECT_TRUE(Expected(e, item, &op_or));  // c does not exist
  e["c"] = Value(N("3"));
  EXPECT_FALSE(Expected(e, item, &op_or));
}

// ------------------------------------------------------------------ messages

TEST(ExprLegacyTest, ExpectedMessages) {
  ExpectedMap e;
  e["a"].set_exists(true);
  EXPECT_EQ(ExpectedError(e),
            std::string(kInvalid) + "Value must be provided when Exists is true for Attribute: a");
  e["a"].clear_exists();
  EXPECT_EQ(ExpectedError(e),
            std::string(kInvalid) + "Value must be provided when Exists is null for Attribute: a");
  e["a"] = Value(N("1"));
  e["a"].set_exists(false);
  EXPECT_EQ(ExpectedError(e),
            std::string(kInvalid) + "Value cannot be used when Exists is false for Attribute: a");
  e["a"].set_comparison_operator("LT");
  EXPECT_EQ(ExpectedError(e), std::string(kInvalid) +
                                  "Exists and ComparisonOperator cannot be used together for "
                                  "Attribute: a");
  e["a"] = v1::ExpectedAttributeValue();
  e["a"].set_comparison_operator("LT");
  EXPECT_EQ(ExpectedError(e), std::string(kInvalid) +
                                  "Value or AttributeValueList must be used with "
                                  "ComparisonOperator: LT for Attribute: a");
  e["a"].set_comparison_operator("NULL");
  EXPECT_EQ(ExpectedError(e), "(ok)");
  e["a"] = Value(S("a"));
  e["a"].set_comparison_operator("LT");
  *e["a"].add_attribute_value_list() = S("a");
  EXPECT_EQ(ExpectedError(e), std::string(kInvalid) +
                                  "Value and AttributeValueList cannot be used together for "
                                  "Attribute: a");
  e["a"].clear_value();
  e["a"].clear_comparison_operator();
  EXPECT_EQ(ExpectedError(e), std::string(kInvalid) +
                                  "AttributeValueList can only be used with a ComparisonOperator "
                                  "for Attribute: a");
  e["a"].set_exists(true);  // still the AttributeValueList message (dynalite's test)
  EXPECT_EQ(ExpectedError(e), std::string(kInvalid) +
                                  "AttributeValueList can only be used with a ComparisonOperator "
                                  "for Attribute: a");
  // Value counts as the argument: NULL takes none.
  e["a"] = Value(N("1"));
  e["a"].set_comparison_operator("NULL");
  EXPECT_EQ(ExpectedError(e),
            std::string(kInvalid) + "Invalid number of argument(s) for the NULL ComparisonOperator");
  e["a"] = Value(SS({"x"}));
  e["a"].set_comparison_operator("BEGINS_WITH");
  EXPECT_EQ(ExpectedError(e), std::string(kInvalid) +
                                  "ComparisonOperator BEGINS_WITH is not valid for SS "
                                  "AttributeValue type");
}

TEST(ExprLegacyTest, EnumMessages) {
  ExpectedMap e;
  e["a"].set_comparison_operator("XX");
  EXPECT_EQ(ExpectedError(e),
            "1 validation error detected: Value 'XX' at 'expected.a.member.comparisonOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, "
            "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
  // Member constraints come before every other check, and are reported together.
  e["b"].set_exists(true);
  std::string bad = "AN";
  EXPECT_EQ(ExpectedError(e, &bad),
            "2 validation errors detected: Value 'XX' at 'expected.a.member.comparisonOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, "
            "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]; "
            "Value 'AN' at 'conditionalOperator' failed to satisfy constraint: Member must "
            "satisfy enum value set: [OR, AND]");

  FilterMap f;
  f["a"] = v1::Condition();
  EXPECT_EQ(FilterError(f, nullptr, "QueryFilter"),
            "1 validation error detected: Value null at 'queryFilter.a.member.comparisonOperator' "
            "failed to satisfy constraint: Member must not be null");
  f["a"].set_comparison_operator("");
  EXPECT_EQ(FilterError(f, nullptr, "KeyConditions"),
            "1 validation error detected: Value '' at 'keyConditions.a.member.comparisonOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, "
            "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
}

TEST(ExprLegacyTest, ConditionalOperatorUse) {
  std::string op = "OR";
  EXPECT_EQ(ExpectedError(ExpectedMap(), &op),
            "ConditionalOperator cannot be used without Filter or Expected");
  ExpectedMap e;
  e["a"] = Value(N("1"));
  EXPECT_EQ(ExpectedError(e, &op),
            "ConditionalOperator can only be used when Filter or Expected has two or more "
            "elements");
  FilterMap f;
  f["a"] = Cond("NULL");
  EXPECT_EQ(FilterError(f, &op),
            "ConditionalOperator can only be used when Filter or Expected has two or more "
            "elements");
  EXPECT_EQ(FilterError(f, &op, "KeyConditions"), "(ok)");
}

TEST(ExprLegacyTest, ArgumentMessages) {
  auto count = [](const std::string& op) {
    return std::string(kInvalid) + "Invalid number of argument(s) for the " + op + " ComparisonOperator";
  };
  EXPECT_EQ(FilterError("EQ", {}), count("EQ"));
  EXPECT_EQ(FilterError("NE", {N("1"), N("2")}), count("NE"));
  EXPECT_EQ(FilterError("NULL", {N("1")}), count("NULL"));
  EXPECT_EQ(FilterError("NOT_NULL", {N("1")}), count("NOT_NULL"));
  EXPECT_EQ(FilterError("IN", {}), count("IN"));
  EXPECT_EQ(FilterError("BETWEEN", {N("1")}), count("BETWEEN"));
  EXPECT_EQ(FilterError("BETWEEN", {N("1"), N("2"), N("3")}), count("BETWEEN"));
  EXPECT_EQ(FilterError("CONTAINS", {}), count("CONTAINS"));
  EXPECT_EQ(FilterError("BEGINS_WITH", {S("a"), S("b")}), count("BEGINS_WITH"));

  auto type = [](const std::string& op, const std::string& t) {
    return std::string(kInvalid) + "ComparisonOperator " + op + " is not valid for " + t +
           " AttributeValue type";
  };
  EXPECT_EQ(FilterError("LT", {SS({"a"})}), type("LT", "SS"));
  EXPECT_EQ(FilterError("GE", {Bool(true)}), type("GE", "BOOL"));
  EXPECT_EQ(FilterError("IN", {L({N("1")}), L({N("2")})}), type("IN", "L"));
  EXPECT_EQ(FilterError("BETWEEN", {NS({"1"}), NS({"2"})}), type("BETWEEN", "NS"));
  EXPECT_EQ(FilterError("BEGINS_WITH", {N("3")}), type("BEGINS_WITH", "N"));
  EXPECT_EQ(FilterError("CONTAINS", {L({N("1")})}), type("CONTAINS", "L"));
  EXPECT_EQ(FilterError("NOT_CONTAINS", {M({})}), type("NOT_CONTAINS", "M"));
  EXPECT_EQ(FilterError("CONTAINS", {Bool(true)}), "(ok)");
  EXPECT_EQ(FilterError("EQ", {M({{"k", N("1")}})}), "(ok)");

  const std::string same =
      std::string(kInvalid) + "AttributeValues inside AttributeValueList must be of same type";
  EXPECT_EQ(FilterError("IN", {N("3"), S("dog")}), same);
  EXPECT_EQ(FilterError("BETWEEN", {N("4"), S("dog")}), same);
  // The types are compared with each other before the operator judges them
  // (behaviours.md O2).
  EXPECT_EQ(FilterError("IN", {M({{"k", N("1")}}), S("dog")}), same);

  const std::string bounds =
      "The BETWEEN condition was provided a range where the lower bound is greater than the "
      "upper bound";
  EXPECT_EQ(FilterError("BETWEEN", {N("4"), N("3")}), bounds);
  EXPECT_EQ(FilterError("BETWEEN", {N("10"), N("9")}), bounds);  // numerically, not as text
  EXPECT_EQ(FilterError("BETWEEN", {S("dog"), S("aardvark")}), bounds);
  EXPECT_EQ(FilterError("BETWEEN", {N("3"), N("3")}), "(ok)");
}

// ------------------------------------------------------------------ AttributeUpdates

v1::AttributeValueUpdate Upd(const char* action, std::optional<AttributeValue> value) {
  v1::AttributeValueUpdate u;
  if (action != nullptr) u.set_action(action);
  if (value) *u.mutable_value() = *value;
  return u;
}

Status ApplyLegacy(const UpdateMap& updates, AttributeMap* item, std::vector<Path>* paths = nullptr) {
  auto u = ConvertAttributeUpdates(updates);
  if (!u.ok()) return u.error();
  return ApplyAttributeUpdates(*u, item, paths);
}

TEST(ExprLegacyTest, AttributeUpdatesPutAndDelete) {
  AttributeMap item = Item({{"a", N("1")}, {"s", SS({"x", "y", "z"})}, {"gone", S("v")}});
  UpdateMap u;
  u["a"] = Upd("PUT", S("new"));
  u["b"] = Upd(nullptr, N("7"));  // Action omitted: PUT
  u["gone"] = Upd("DELETE", std::nullopt);
  u["never"] = Upd("DELETE", std::nullopt);  // removing a missing attribute is fine
  u["s"] = Upd("DELETE", SS({"x", "q"}));
  std::vector<Path> paths;
  ASSERT_TRUE(ApplyLegacy(u, &item, &paths).ok());
  EXPECT_EQ(item["a"].s(), "new");
  EXPECT_EQ(item["b"].n(), "7");
  EXPECT_FALSE(item.contains("gone"));
  EXPECT_FALSE(item.contains("never"));
  EXPECT_TRUE(ValuesEqual(item["s"], SS({"y", "z"})));
  EXPECT_EQ(paths.size(), 5u);

  u.clear();
  u["s"] = Upd("DELETE", SS({"y", "z"}));  // emptied set: attribute removed
  u["t"] = Upd("DELETE", SS({"y"}));       // missing attribute: no-op
  ASSERT_TRUE(ApplyLegacy(u, &item).ok());
  EXPECT_FALSE(item.contains("s"));
  EXPECT_FALSE(item.contains("t"));
}

TEST(ExprLegacyTest, AttributeUpdatesAdd) {
  AttributeMap item = Item({{"n", N("1.5")}, {"s", SS({"x"})}, {"l", L({N("1")})}});
  UpdateMap u;
  u["n"] = Upd("ADD", N("2"));
  u["m"] = Upd("ADD", N("-3"));  // missing: starts from 0
  u["s"] = Upd("ADD", SS({"x", "y"}));
  u["ns"] = Upd("ADD", NS({"1"}));
  u["l"] = Upd("ADD", L({N("2"), S("b")}));  // legacy ADD on a list appends
  u["l2"] = Upd("ADD", L({N("9")}));         // missing: the list itself
  ASSERT_TRUE(ApplyLegacy(u, &item).ok());
  EXPECT_EQ(item["n"].n(), "3.5");
  EXPECT_EQ(item["m"].n(), "-3");
  EXPECT_TRUE(ValuesEqual(item["s"], SS({"x", "y"})));
  EXPECT_TRUE(ValuesEqual(item["ns"], NS({"1"})));
  EXPECT_TRUE(ValuesEqual(item["l"], L({N("1"), N("2"), S("b")})));
  EXPECT_TRUE(ValuesEqual(item["l2"], L({N("9")})));

  // Run-time type mismatches, in DynamoDB's AttributeUpdates wording.
  for (auto [name, update] :
       std::vector<std::pair<std::string, v1::AttributeValueUpdate>>{{"s", Upd("ADD", N("1"))},
                                                                     {"n", Upd("ADD", NS({"1"}))},
                                                                     {"s", Upd("DELETE", NS({"1"}))},
                                                                     {"n", Upd("DELETE", NS({"1"}))},
                                                                     {"n", Upd("ADD", L({N("1")}))}}) {
    UpdateMap bad;
    bad[name] = update;
    AttributeMap before = item;
    Status s = ApplyLegacy(bad, &item);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.error().message(), "Type mismatch for attribute to update") << name;
    EXPECT_EQ(item.size(), before.size());
  }
}

TEST(ExprLegacyTest, AttributeUpdatesMessages) {
  auto error = [](const UpdateMap& u) {
    auto r = ConvertAttributeUpdates(u);
    return r.ok() ? std::string("(ok)") : r.error().message();
  };
  UpdateMap u;
  u["a"] = Upd("PUT", std::nullopt);
  EXPECT_EQ(error(u),
            std::string(kInvalid) + "Only DELETE action is allowed when no attribute value is specified");
  u["a"] = Upd(nullptr, std::nullopt);
  EXPECT_EQ(error(u),
            std::string(kInvalid) + "Only DELETE action is allowed when no attribute value is specified");
  u["a"] = Upd("ADD", std::nullopt);
  EXPECT_EQ(error(u),
            std::string(kInvalid) + "Only DELETE action is allowed when no attribute value is specified");
  for (const auto& v : {S("1"), B("b"), Null(), Bool(true), M({}), N("1"), L({})}) {
    u["a"] = Upd("DELETE", v);
    EXPECT_EQ(error(u), std::string(kInvalid) + "DELETE action with value is not supported for the type " +
                            std::string(TypeName(v)));
  }
  for (const auto& v : {S("1"), B("b"), Null(), Bool(true), M({})}) {
    u["a"] = Upd("ADD", v);
    EXPECT_EQ(error(u),
              std::string(kInvalid) + "ADD action is not supported for the type " + std::string(TypeName(v)));
  }
  u["a"] = Upd("REPLACE", N("1"));
  EXPECT_EQ(error(u),
            "1 validation error detected: Value 'REPLACE' at 'attributeUpdates.a.member.action' "
            "failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, "
            "DELETE]");
  EXPECT_EQ(error(UpdateMap()), "(ok)");
}

// ------------------------------------------------------------------ AttributesToGet

TEST(ExprLegacyTest, AttributesToGet) {
  google::protobuf::RepeatedPtrField<std::string> names;
  names.Add("b");
  names.Add("a.b");  // a literal top-level name, not a path
  auto p = ConvertAttributesToGet(names);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->paths.size(), 2u);
  EXPECT_EQ(p->paths[1].size(), 1u);
  EXPECT_EQ(p->paths[1][0].name, "a.b");
  AttributeMap projected =
      Project(*p, Item({{"a", M({{"b", N("1")}})}, {"a.b", N("2")}, {"b", N("3")}, {"c", N("4")}}));
  EXPECT_EQ(projected.size(), 2u);
  EXPECT_EQ(projected["a.b"].n(), "2");
  EXPECT_EQ(projected["b"].n(), "3");

  names.Add("b");
  auto dup = ConvertAttributesToGet(names);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().message(),
            "One or more parameter values were invalid: Duplicate value in attribute name: b");
}

// The caller's value rule runs after the member constraints and, for each
// entry, before its own rules (behaviours.md O2, V32).
Status RefuseEmptyStrings(const AttributeValue& v) {
  if (v.has_s() && v.s().empty()) return Error::Validation("empty string refused");
  return Status::Ok();
}

TEST(LegacyTest, ValuesAreCheckedBeforeTheirCountsAndTypes) {
  FilterMap f;
  f["a"] = Cond("BEGINS_WITH", {S(""), N("1")});  // a count error too
  auto c = ConvertFilter(f, nullptr, "ScanFilter", &RefuseEmptyStrings);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message(), "empty string refused");
  // The constraints still come first.
  f["b"] = Cond("BOGUS", {});
  c = ConvertFilter(f, nullptr, "ScanFilter", &RefuseEmptyStrings);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message().find("validation error detected"), std::string::npos);

  // In Expected the entry's shape comes first (O3), then its values, then
  // their count and types (DynamoDB Local 2026-05-28 and dynalite agree).
  ExpectedMap e;
  e["a"] = Value(S(""));
  e["a"].add_attribute_value_list();  // Value with AttributeValueList
  auto x = ConvertExpected(e, nullptr, &RefuseEmptyStrings);
  ASSERT_FALSE(x.ok());
  EXPECT_EQ(x.error().message(),
            std::string(kInvalid) + "Value and AttributeValueList cannot be used together for Attribute: a");
  ExpectedMap gone;
  gone["a"] = Value(S(""));
  gone["a"].set_exists(false);
  x = ConvertExpected(gone, nullptr, &RefuseEmptyStrings);
  ASSERT_FALSE(x.ok());
  EXPECT_EQ(x.error().message(),
            std::string(kInvalid) + "Value cannot be used when Exists is false for Attribute: a");
  ExpectedMap two;
  two["a"].set_comparison_operator("EQ");
  *two["a"].add_attribute_value_list() = S("");
  *two["a"].add_attribute_value_list() = S("x");  // a count error too
  x = ConvertExpected(two, nullptr, &RefuseEmptyStrings);
  ASSERT_FALSE(x.ok());
  EXPECT_EQ(x.error().message(), "empty string refused");

  // An AttributeValueList sent as [] is present (behaviours.md V1): with EQ
  // it has the wrong number of arguments; left out, EQ lacks its values.
  ExpectedMap eq;
  eq["a"].set_comparison_operator("EQ");
  EXPECT_EQ(ExpectedError(eq), std::string(kInvalid) +
                                   "Value or AttributeValueList must be used with ComparisonOperator: EQ for "
                                   "Attribute: a");
  auto sent = [](const v1::ExpectedAttributeValue&) { return true; };
  auto y = ConvertExpected(eq, nullptr, nullptr, sent);
  ASSERT_FALSE(y.ok());
  EXPECT_EQ(y.error().message(),
            std::string(kInvalid) + "Invalid number of argument(s) for the EQ ComparisonOperator");
  ExpectedMap alone;
  alone["a"].set_exists(true);
  y = ConvertExpected(alone, nullptr, nullptr, sent);
  ASSERT_FALSE(y.ok());
  EXPECT_EQ(y.error().message(),
            std::string(kInvalid) +
                "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");

  google::protobuf::Map<std::string, v1::AttributeValueUpdate> u;
  u["a"].set_action("ADD");
  *u["a"].mutable_value() = S("");  // ADD of a string is refused too, after the value
  auto up = ConvertAttributeUpdates(u, &RefuseEmptyStrings);
  ASSERT_FALSE(up.ok());
  EXPECT_EQ(up.error().message(), "empty string refused");
}

// An entry sent as JSON null is refused by name, in its turn (the reader
// marks it with kSentNullField); the member constraints pass it by.
TEST(LegacyTest, AnEntrySentAsNullIsRefusedByName) {
  ExpectedMap e;
  e["x"].GetReflection()->MutableUnknownFields(&e["x"])->AddVarint(kSentNullField, 1);
  EXPECT_TRUE(ExpectedConstraints(e).empty());
  EXPECT_EQ(ExpectedError(e),
            std::string(kInvalid) + "ExpectedAttributeValue must not be null for Attribute: x");
  FilterMap f;
  f["pk"].GetReflection()->MutableUnknownFields(&f["pk"])->AddVarint(kSentNullField, 1);
  EXPECT_TRUE(FilterConstraints(f, "KeyConditions").empty());
  EXPECT_EQ(FilterError(f, nullptr, "KeyConditions"),
            "The filter condition for an attribute cannot be null: pk");
}

// The client's order as a fixed list of names.
class FixedOrder final : public EntryOrder {
 public:
  explicit FixedOrder(std::vector<std::string> order) : order_(std::move(order)) {}
  bool Sort(std::vector<const std::string*>& names) const override {
    auto rank = [&](const std::string* n) {
      return std::find(order_.begin(), order_.end(), *n) - order_.begin();
    };
    std::sort(names.begin(), names.end(), [&](auto* a, auto* b) { return rank(a) < rank(b); });
    return true;
  }

 private:
  std::vector<std::string> order_;
};

// With two bad entries, each one whole (values, then its rules) in the
// client's order: the first written answers, whatever its error's kind.
TEST(LegacyTest, OfTwoBadEntriesTheFirstTheClientWroteAnswers) {
  FilterMap f;
  f["pk"] = Cond("EQ", {});                 // a count error
  f["lsk"] = Cond("BEGINS_WITH", {S("")});  // a value error
  const std::string count =
      std::string(kInvalid) + "Invalid number of argument(s) for the EQ ComparisonOperator";
  {
    FixedOrder order({"pk", "lsk"});
    EntryOrderScope scope(&order);
    auto c = ConvertFilter(f, nullptr, "KeyConditions", &RefuseEmptyStrings);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().message(), count);
  }
  {
    FixedOrder order({"lsk", "pk"});
    EntryOrderScope scope(&order);
    auto c = ConvertFilter(f, nullptr, "KeyConditions", &RefuseEmptyStrings);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().message(), "empty string refused");
  }

  UpdateMap u;
  u["s"].set_action("ADD");
  *u["s"].mutable_value() = S("x");  // ADD of a string
  *u["n"].mutable_value() = S("");   // a value error
  for (auto [first, message] :
       {std::pair<std::string, std::string>{
            "s", std::string(kInvalid) + "ADD action is not supported for the type S"},
        {"n", "empty string refused"}}) {
    FixedOrder order({first});
    EntryOrderScope scope(&order);
    auto up = ConvertAttributeUpdates(u, &RefuseEmptyStrings);
    ASSERT_FALSE(up.ok());
    EXPECT_EQ(up.error().message(), message) << first;
  }

  ExpectedMap e;
  e["b"].set_exists(true);  // Exists true without a Value
  e["a"] = Value(S(""));
  for (auto [first, message] : {std::pair<std::string, std::string>{
                                    "b", std::string(kInvalid) + "Value must be provided when Exists is "
                                                                 "true for Attribute: b"},
                                {"a", "empty string refused"}}) {
    FixedOrder order({first});
    EntryOrderScope scope(&order);
    auto x = ConvertExpected(e, nullptr, &RefuseEmptyStrings);
    ASSERT_FALSE(x.ok());
    EXPECT_EQ(x.error().message(), message) << first;
  }
}

}  // namespace
}  // namespace pogi::expr
