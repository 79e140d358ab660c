// Tests for service/item_validation (DynamoDB's checks of values, items and
// keys, with its messages) and value/item (canonical numbers, DynamoDB's item
// size, key encoding order, the stored item format).
#include "service/validate/item_validation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "service/value/item.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

constexpr char kEmptyValue[] =
    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
constexpr char kNesting[] =
    "1 validation error detected: Nesting Levels have exceeded supported limits: Attributes in the item "
    "have nested levels beyond supported limit";
constexpr char kKeyMismatch[] = "The provided key element does not match the schema";
constexpr char kTooBig[] = "Item size has exceeded the maximum allowed size";

using test::B;
using test::N;
using test::S;
V Null() {
  V v;
  v.set_null_value(true);
  return v;
}
V Bool(bool b) {
  V v;
  v.set_bool_value(b);
  return v;
}
V SS(std::vector<std::string> xs) {
  V v;
  for (auto& x : xs) v.mutable_ss()->add_values(x);
  v.mutable_ss();
  return v;
}
V NS(std::vector<std::string> xs) {
  V v;
  for (auto& x : xs) v.mutable_ns()->add_values(x);
  v.mutable_ns();
  return v;
}
V BS(std::vector<std::string> xs) {
  V v;
  for (auto& x : xs) v.mutable_bs()->add_values(x);
  v.mutable_bs();
  return v;
}
V L(std::vector<V> xs) {
  V v;
  v.mutable_l();
  for (auto& x : xs) *v.mutable_l()->add_values() = x;
  return v;
}
V M(std::vector<std::pair<std::string, V>> xs) {
  V v;
  v.mutable_m();
  for (auto& [k, x] : xs) (*v.mutable_m()->mutable_fields())[k] = x;
  return v;
}

AttributeMap Item(std::vector<std::pair<std::string, V>> xs) {
  AttributeMap m;
  for (auto& [k, x] : xs) m[k] = x;
  return m;
}

// `levels` values nested in lists; the innermost is a string.
V Nested(int levels) {
  V v = S("x");
  for (int i = 1; i < levels; ++i) v = L({v});
  return v;
}

// The ValidationException message of validating `v`, or "(ok)".
std::string ValueError(V v) {
  Status s = ValidateValue(&v);
  if (s.ok()) return "(ok)";
  EXPECT_EQ(s.error().code(), ErrorCode::kValidation);
  return s.error().message();
}

Table HashTable(std::string type = "S") {
  Table t;
  t.hash = {"pk", std::move(type)};
  return t;
}

Table CompositeTable(std::string hash_type = "S", std::string range_type = "N") {
  Table t;
  t.hash = {"pk", std::move(hash_type)};
  t.range = KeyAttribute{"sk", std::move(range_type)};
  return t;
}

std::string PutError(const Table& t, AttributeMap item) {
  Status values = ValidateAttributes(&item);
  if (!values.ok()) return values.error().message();
  auto r = ValidateItemForPut(t, item);
  if (r.ok()) return "(ok)";
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation);
  return r.error().message();
}

std::string KeyError(const Table& t, AttributeMap key) {
  Status values = ValidateAttributes(&key);
  if (!values.ok()) return values.error().message();
  auto r = ValidateKey(t, key);
  if (r.ok()) return "(ok)";
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation);
  return r.error().message();
}

std::string Enc(const V& v) { return value::EncodeKeyValue(v); }

// ---------------------------------------------------------------- values

TEST(ItemValidationTest, EveryTypeIsValid) {
  for (const V& v : {S("x"), S(""), N("1"), B("b"), B(""), Null(), Bool(false), SS({"a", "b"}),
                     NS({"1", "2"}), BS({"a", "b"}), L({}), M({}), L({S("x"), N("1")}), M({{"a", S("x")}})}) {
    EXPECT_EQ(ValueError(v), "(ok)") << v.DebugString();
  }
}

TEST(ItemValidationTest, EmptyAttributeValue) {
  EXPECT_EQ(ValueError(V()), kEmptyValue);
  EXPECT_EQ(ValueError(L({S("x"), V()})), kEmptyValue);
  EXPECT_EQ(ValueError(M({{"a", V()}})), kEmptyValue);
}

TEST(ItemValidationTest, NullMustBeTrue) {
  V v;
  v.set_null_value(false);
  EXPECT_EQ(
      ValueError(v),
      "One or more parameter values were invalid: Null attribute value types must have the value of true");
}

TEST(ItemValidationTest, EmptySets) {
  // DynamoDB's wording, double space included.
  EXPECT_EQ(ValueError(SS({})), "One or more parameter values were invalid: An string set  may not be empty");
  EXPECT_EQ(ValueError(NS({})), "One or more parameter values were invalid: An number set  may not be empty");
  EXPECT_EQ(ValueError(BS({})), "One or more parameter values were invalid: Binary sets should not be empty");
}

TEST(ItemValidationTest, DuplicatesInSets) {
  EXPECT_EQ(ValueError(SS({"a", "b", "a"})),
            "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates.");
  EXPECT_EQ(ValueError(BS({"x", "x"})),
            "One or more parameter values were invalid: Input collection [eA==, eA==]of type BS contains "
            "duplicates.");
  // Numbers have their own words: no prefix, no list (DynamoDB's answer).
  EXPECT_EQ(ValueError(NS({"1", "2", "1"})), "Input collection contains duplicates");
  // Numbers are duplicates when numerically equal, whatever their spelling.
  for (auto pair : {std::pair{"1", "1.0"}, {"1e3", "1000"}, {"-0", "0"}, {"0.50", ".5"}}) {
    EXPECT_EQ(ValueError(NS({pair.first, pair.second})), "Input collection contains duplicates");
  }
  // Case and bytes matter for strings.
  EXPECT_EQ(ValueError(SS({"a", "A"})), "(ok)");
}

TEST(ItemValidationTest, InvalidNumbers) {
  EXPECT_EQ(ValueError(N("abc")), "The parameter cannot be converted to a numeric value: abc");
  EXPECT_EQ(ValueError(N("")), "The parameter cannot be converted to a numeric value");
  EXPECT_EQ(ValueError(NS({"1", "x"})), "The parameter cannot be converted to a numeric value: x");
  EXPECT_EQ(ValueError(N("1e126")),
            "Number overflow. Attempting to store a number with magnitude larger than supported range");
  EXPECT_EQ(ValueError(N("1e-131")),
            "Number underflow. Attempting to store a number with magnitude smaller than supported range");
  EXPECT_EQ(ValueError(N("1" + std::string(38, '1'))),
            "Attempting to store more than 38 significant digits in a Number");
  EXPECT_EQ(ValueError(M({{"deep", L({N("1"), N("nope")})}})),
            "The parameter cannot be converted to a numeric value: nope");
}

TEST(ItemValidationTest, NumbersAreCanonicalized) {
  V n = N("001.500");
  ASSERT_TRUE(ValidateValue(&n).ok());
  EXPECT_EQ(n.n(), "1.5");
  V e = N("1e3");
  ASSERT_TRUE(ValidateValue(&e).ok());
  EXPECT_EQ(e.n(), "1000");
  V z = N("-0.0");
  ASSERT_TRUE(ValidateValue(&z).ok());
  EXPECT_EQ(z.n(), "0");
  V ns = NS({"+3", "2.50", "1E-2"});
  ASSERT_TRUE(ValidateValue(&ns).ok());
  // Canonical, and in order of value (value/set_order.h).
  EXPECT_EQ(ns.ns().values(0), "0.01");
  EXPECT_EQ(ns.ns().values(1), "2.5");
  EXPECT_EQ(ns.ns().values(2), "3");
  // Inside documents too.
  AttributeMap item = Item({{"m", M({{"x", L({N("10.0")})}})}});
  ASSERT_TRUE(ValidateAttributes(&item).ok());
  EXPECT_EQ(item.at("m").m().fields().at("x").l().values(0).n(), "10");
}

TEST(ItemValidationTest, NestingDepth) {
  EXPECT_EQ(ValueError(Nested(32)), "(ok)");
  EXPECT_EQ(ValueError(Nested(33)), kNesting);
  // Maps count the same as lists.
  V m = S("x");
  for (int i = 1; i < 32; ++i) m = M({{"k", m}});
  EXPECT_EQ(ValueError(m), "(ok)");
  EXPECT_EQ(ValueError(M({{"k", m}})), kNesting);
}

// ---------------------------------------------------------------- items for PutItem

TEST(ItemValidationTest, PutItemKeys) {
  Table t = CompositeTable();
  EXPECT_EQ(PutError(t, Item({{"pk", S("a")}, {"sk", N("1")}, {"other", Bool(true)}})), "(ok)");
  EXPECT_EQ(PutError(t, Item({{"sk", N("1")}})),
            "One or more parameter values were invalid: Missing the key pk in the item");
  EXPECT_EQ(PutError(t, Item({{"pk", S("a")}})),
            "One or more parameter values were invalid: Missing the key sk in the item");
  EXPECT_EQ(PutError(t, Item({{"pk", N("1")}, {"sk", N("1")}})),
            "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N");
  EXPECT_EQ(PutError(t, Item({{"pk", S("a")}, {"sk", SS({"1"})}})),
            "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: SS");
  EXPECT_EQ(
      PutError(t, Item({{"pk", S("")}, {"sk", N("1")}})),
      "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
      "an empty string value. Key: pk");
  EXPECT_EQ(
      PutError(CompositeTable("S", "B"), Item({{"pk", S("a")}, {"sk", B("")}})),
      "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
      "an empty binary value. Key: sk");
  // Values are checked before keys.
  EXPECT_EQ(PutError(t, Item({{"x", V()}})), kEmptyValue);
}

TEST(ItemValidationTest, PutItemKeySizeLimits) {
  Table t = CompositeTable("S", "B");
  auto item = [](size_t hash, size_t range) {
    return Item({{"pk", S(std::string(hash, 'h'))}, {"sk", B(std::string(range, 'r'))}});
  };
  EXPECT_EQ(PutError(t, item(2048, 1)), "(ok)");
  EXPECT_EQ(PutError(t, item(2049, 1)),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit "
            "of2048 bytes");
  EXPECT_EQ(PutError(t, item(1, 1024)), "(ok)");
  EXPECT_EQ(PutError(t, item(1, 1025)),
            "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the "
            "size limit of 1024 bytes");
  // Limits are in UTF-8 bytes, not characters: 1024 two-byte characters is 2048 bytes.
  std::string two_byte;
  for (int i = 0; i < 1025; ++i) two_byte += "\xc3\xa9";
  EXPECT_NE(PutError(HashTable(), Item({{"pk", S(two_byte)}})), "(ok)");
}

TEST(ItemValidationTest, ItemSizeBoundaryIs400KB) {
  Table t = HashTable();
  // name "pk" (2) + "k" (1) + name "data" (4) + the string.
  constexpr int64_t kOverhead = 2 + 1 + 4;
  AttributeMap exact = Item({{"pk", S("k")}, {"data", S(std::string(409600 - kOverhead, 'x'))}});
  EXPECT_EQ(value::ItemSize(exact), 409600);
  EXPECT_EQ(PutError(t, exact), "(ok)");
  AttributeMap over = Item({{"pk", S("k")}, {"data", S(std::string(409600 - kOverhead + 1, 'x'))}});
  EXPECT_EQ(PutError(t, over), kTooBig);

  // Attribute names count: moving one byte from the value into a name keeps the size.
  AttributeMap renamed = Item({{"pk", S("k")}, {"data5", S(std::string(409600 - kOverhead, 'x'))}});
  EXPECT_EQ(PutError(t, renamed), kTooBig);
}

TEST(ItemValidationTest, ZerosAfterThePointDoNotCountTowardsSize) {
  Table t = HashTable();
  // "1." and 30 zeros is the number 1: 2 bytes, not 17.
  std::string padded = "1." + std::string(30, '0');
  AttributeMap item = Item({{"pk", S("k")}, {"n", N(padded)}});
  ASSERT_EQ(PutError(t, item), "(ok)");
  EXPECT_EQ(value::ItemSize(item), 2 + 1 + 1 + 2);
}

// ---------------------------------------------------------------- keys

TEST(ItemValidationTest, KeysForGetAndDelete) {
  Table t = CompositeTable();
  EXPECT_EQ(KeyError(t, Item({{"pk", S("a")}, {"sk", N("1")}})), "(ok)");
  EXPECT_EQ(KeyError(t, Item({{"pk", S("a")}})), kKeyMismatch);
  EXPECT_EQ(KeyError(t, Item({{"pk", S("a")}, {"sk", N("1")}, {"x", S("y")}})), kKeyMismatch);
  EXPECT_EQ(KeyError(t, Item({{"pk", S("a")}, {"other", N("1")}})), kKeyMismatch);
  EXPECT_EQ(KeyError(t, Item({{"pk", S("a")}, {"sk", S("1")}})), kKeyMismatch);
  // A Key parameter's wording differs from PutItem's Item (behaviours.md V15).
  EXPECT_EQ(
      KeyError(t, Item({{"pk", S("")}, {"sk", N("1")}})),
      "One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain "
      "an empty string value. Key: pk");
  EXPECT_EQ(KeyError(HashTable(), Item({{"pk", S(std::string(2049, 'x'))}})),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit "
            "of2048 bytes");
  EXPECT_EQ(KeyError(HashTable(), Item({{"pk", V()}})), kEmptyValue);
}

TEST(ItemValidationTest, AMarkedValueReportsItsCarriedError) {
  v1::AttributeValue v = S("x");
  MarkInvalidValue(&v, "The parameter cannot be converted to a numeric value: b");
  EXPECT_EQ(v.value_case(), v1::AttributeValue::VALUE_NOT_SET);
  Status s = ValidateValue(&v);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kValidation);
  EXPECT_EQ(s.error().message(), "The parameter cannot be converted to a numeric value: b");
  // Nested, and through a copy (requests are copied before validation).
  v1::AttributeValue outer;
  (*outer.mutable_m()->mutable_fields())["k"] = v;
  AttributeMap item = Item({{"a", outer}});
  EXPECT_EQ(CheckValue(item.at("a")).error().message(),
            "The parameter cannot be converted to a numeric value: b");
}

TEST(ItemValidationTest, StartKeyValuesArePrefixedOnlyForShapeErrors) {
  auto error = [](v1::AttributeValue v) {
    Status s = ValidateStartKeyValues(Item({{"pk", v}}));
    return s.ok() ? std::string("(ok)") : s.error().message();
  };
  const std::string prefix = "The provided starting key is invalid: ";
  EXPECT_EQ(error(S("a")), "(ok)");
  EXPECT_EQ(error(v1::AttributeValue()),
            prefix + "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  v1::AttributeValue null_false;
  null_false.set_null_value(false);
  EXPECT_EQ(error(null_false), prefix +
                                   "One or more parameter values were invalid: Null attribute value types "
                                   "must have the value of true");
  EXPECT_EQ(error(SS({})),
            prefix + "One or more parameter values were invalid: An string set  may not be empty");
  v1::AttributeValue two;
  MarkInvalidValue(&two,
                   "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
                   "supported datatypes");
  EXPECT_EQ(error(two),
            prefix +
                "Supplied AttributeValue has more than one datatypes set, must contain exactly one of "
                "the supported datatypes");
  // Numbers, NS and duplicates keep their own text.
  EXPECT_EQ(error(N("abc")), "The parameter cannot be converted to a numeric value: abc");
  EXPECT_EQ(error(SS({"a", "a"})),
            "One or more parameter values were invalid: Input collection [a, a] contains duplicates.");
  EXPECT_EQ(error(NS({})), "One or more parameter values were invalid: An number set  may not be empty");
}

TEST(ItemValidationTest, EncodedKeyIsCanonical) {
  Table t = CompositeTable("N", "S");
  AttributeMap a = Item({{"pk", N("1e2")}, {"sk", S("s")}});
  AttributeMap b = Item({{"pk", N("100.00")}, {"sk", S("s")}});
  ASSERT_TRUE(ValidateAttributes(&a).ok());
  ASSERT_TRUE(ValidateAttributes(&b).ok());
  auto ka = ValidateKey(t, a);
  auto kb = ValidateItemForPut(t, b);
  ASSERT_TRUE(ka.ok());
  ASSERT_TRUE(kb.ok());
  EXPECT_EQ(ka->partition, kb->partition);
  EXPECT_EQ(ka->sort, "s");
  EXPECT_EQ(a.at("pk").n(), "100");

  auto hash_only = [] {
    AttributeMap m = Item({{"pk", S("k")}});
    return ValidateKey(HashTable(), m);
  }();
  ASSERT_TRUE(hash_only.ok());
  EXPECT_EQ(hash_only->partition, "k");
  EXPECT_EQ(hash_only->sort, "");
}

// ---------------------------------------------------------------- value/item

TEST(ItemTest, ValueSizeOfEachType) {
  using value::ValueSize;
  EXPECT_EQ(ValueSize(S("abc")), 3);
  EXPECT_EQ(ValueSize(S("\xc3\xa9")), 2);  // UTF-8 bytes
  EXPECT_EQ(ValueSize(B(std::string(5, '\0'))), 5);
  // Numbers: 1 byte per two significant digits, plus 1.
  EXPECT_EQ(ValueSize(N("0")), 2);
  EXPECT_EQ(ValueSize(N("7")), 2);
  EXPECT_EQ(ValueSize(N("12")), 2);
  EXPECT_EQ(ValueSize(N("123")), 3);
  EXPECT_EQ(ValueSize(N("1000000")), 2);  // trailing zeros are not significant
  EXPECT_EQ(ValueSize(N("0.001")), 2);    // nor leading ones
  EXPECT_EQ(ValueSize(N("-120.5")), 3);   // 1,2,0,5
  EXPECT_EQ(ValueSize(N(std::string(38, '9'))), 20);
  EXPECT_EQ(ValueSize(SS({"ab", "c"})), 3);
  EXPECT_EQ(ValueSize(NS({"1", "123"})), 2 + 3);
  EXPECT_EQ(ValueSize(BS({"ab", "cde"})), 5);
  EXPECT_EQ(ValueSize(Null()), 1);
  EXPECT_EQ(ValueSize(Bool(false)), 1);
  // Documents: 3 bytes, plus 1 per element, plus names and values.
  EXPECT_EQ(ValueSize(L({})), 3);
  EXPECT_EQ(ValueSize(M({})), 3);
  EXPECT_EQ(ValueSize(L({S("ab"), Null()})), 3 + (2 + 1) + (1 + 1));
  EXPECT_EQ(ValueSize(M({{"key", S("ab")}})), 3 + 3 + 2 + 1);
  EXPECT_EQ(ValueSize(M({{"a", L({N("1")})}})), 3 + 1 + (3 + 2 + 1) + 1);
}

TEST(ItemTest, ItemSizeAddsNames) {
  EXPECT_EQ(value::ItemSize(AttributeMap()), 0);
  EXPECT_EQ(value::ItemSize(Item({{"name", S("value")}, {"n", N("10")}})), 4 + 5 + 1 + 2);
}

TEST(ItemTest, TypeNames) {
  EXPECT_EQ(value::TypeName(S("")), "S");
  EXPECT_EQ(value::TypeName(N("1")), "N");
  EXPECT_EQ(value::TypeName(B("")), "B");
  EXPECT_EQ(value::TypeName(SS({"a"})), "SS");
  EXPECT_EQ(value::TypeName(NS({"1"})), "NS");
  EXPECT_EQ(value::TypeName(BS({"a"})), "BS");
  EXPECT_EQ(value::TypeName(M({})), "M");
  EXPECT_EQ(value::TypeName(L({})), "L");
  EXPECT_EQ(value::TypeName(Null()), "NULL");
  EXPECT_EQ(value::TypeName(Bool(true)), "BOOL");
  EXPECT_EQ(value::TypeName(V()), "");
}

TEST(ItemTest, NumberKeysOrderNumerically) {
  std::vector<std::string> ascending = {
      "-1e10", "-100", "-2",  "-1.5", "-1", "-0.001", "0",    "1e-130",
      "0.001", "1",    "1.5", "2",    "10", "100",    "1e10", "9.9999999999999999999999999999999999999e125"};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(Enc(N(ascending[i])), Enc(N(ascending[i + 1]))) << ascending[i] << " < " << ascending[i + 1];
  }
  // Equal numbers encode equally.
  EXPECT_EQ(Enc(N("1e3")), Enc(N("1000")));
  EXPECT_EQ(Enc(N("1000.0")), Enc(N("1000")));
  EXPECT_EQ(Enc(N("-0")), Enc(N("0")));
}

TEST(ItemTest, StringAndBinaryKeysOrderBytewise) {
  // Bytewise (UTF-8), as DynamoDB orders strings: "Z" < "a" < "é".
  std::vector<std::string> ascending = {"", "A", "Z", "a", "aa", "ab", "b", "\xc3\xa9", "\xef\xbc\xa1"};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(Enc(S(ascending[i])), Enc(S(ascending[i + 1])));
  }
  // Binary values are unsigned bytes: 0x7f < 0x80.
  EXPECT_LT(Enc(B("\x7f")), Enc(B("\x80")));
  EXPECT_LT(Enc(B(std::string("\x00", 1))), Enc(B("\x01")));
  EXPECT_LT(Enc(B("\x01")), Enc(B(std::string("\x01\x00", 2))));
}

TEST(ItemTest, EncodeDecodeRoundTrip) {
  AttributeMap item = Item({{"s", S("x")},
                            {"n", N("1.5")},
                            {"b", B(std::string("\0\1", 2))},
                            {"ss", SS({"a"})},
                            {"ns", NS({"1"})},
                            {"bs", BS({"z"})},
                            {"m", M({{"k", L({Null(), Bool(false)})}})},
                            {"empty", S("")}});
  std::string bytes = value::EncodeItem(item);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes[0], '\x01');  // the format byte
  auto back = value::DecodeItem(bytes);
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->attributes().size(), item.size());
  EXPECT_EQ(value::EncodeItem(back->attributes()).size(), bytes.size());
  EXPECT_EQ(back->attributes().at("n").n(), "1.5");
  EXPECT_EQ(back->attributes().at("b").b(), std::string("\0\1", 2));
  EXPECT_FALSE(back->attributes().at("m").m().fields().at("k").l().values(1).bool_value());
  EXPECT_EQ(back->attributes().at("m").m().fields().at("k").l().values(1).value_case(), V::kBoolValue);

  auto empty = value::DecodeItem(value::EncodeItem(AttributeMap()));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->attributes().empty());
}

TEST(ItemTest, DecodeRejectsCorruptInput) {
  std::string good = value::EncodeItem(Item({{"s", S("hello world")}}));
  for (const std::string& bad : {std::string(), std::string("\x02") + good.substr(1), std::string("\x00", 1),
                                 good.substr(0, good.size() - 3), std::string("\x01\xff\xff\xff", 4)}) {
    auto r = value::DecodeItem(bad);
    ASSERT_FALSE(r.ok()) << "decoded " << bad.size() << " bytes";
    EXPECT_EQ(r.error().code(), ErrorCode::kInternalServerError);
    EXPECT_EQ(r.error().message(), "stored item is corrupt or of an unknown format");
  }
}

}  // namespace
}  // namespace pogi::service
