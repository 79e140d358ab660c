// Tests for gateway::JsonToMessage / MessageToJson / ErrorToJson: DynamoDB
// JSON requests into protos, SerializationException texts for shapes of the
// wrong kind, the AttributeValue codec, and the JSON of responses and errors.
#include "gateway/json_codec.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pogi/v1/dynamodb.pb.h"
#include "service/expr/legacy.h"
#include "service/validate/item_validation.h"
#include "service/validate/member_presence.h"

namespace pogi::gateway {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr char kTwoTypes[] =
    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
    "supported datatypes";
constexpr char kNesting[] =
    "1 validation error detected: Nesting Levels have exceeded supported limits: Attributes in the item "
    "have nested levels beyond supported limit";

template <typename M>
M Decode(const std::string& json) {
  M m;
  Status s = JsonToMessage(json, &m);
  EXPECT_TRUE(s.ok()) << json << ": " << s.error().message();
  return m;
}

// The error of decoding `json` into M; fails the test when decoding succeeds.
template <typename M>
Error DecodeError(const std::string& json) {
  M m;
  Status s = JsonToMessage(json, &m);
  EXPECT_FALSE(s.ok()) << json << " decoded";
  return s.ok() ? Error::Internal("(decoded)") : s.error();
}

// The SerializationException message of decoding `json` into M.
template <typename M>
std::string SerializationMessage(const std::string& json) {
  Error e = DecodeError<M>(json);
  EXPECT_EQ(e.code(), ErrorCode::kSerialization) << json << ": " << e.message();
  return e.message();
}

std::string Encode(const google::protobuf::Message& m) {
  std::string out;
  MessageToJson(m, &out);
  return out;
}

// `levels` AttributeValues nested in lists, the innermost {"S":"x"}.
std::string NestedList(int levels) {
  std::string v;
  for (int i = 1; i < levels; ++i) v += R"({"L":[)";
  v += R"({"S":"x"})";
  for (int i = 1; i < levels; ++i) v += "]}";
  return v;
}

// ---------------------------------------------------------------- requests

TEST(JsonCodecTest, CreateTableRequestWithNestedLists) {
  auto req = Decode<v1::CreateTableRequest>(R"({
    "TableName": "Music",
    "AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"},
                             {"AttributeName": "Year", "AttributeType": "N"}],
    "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"},
                  {"AttributeName": "Year", "KeyType": "RANGE"}],
    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 10},
    "GlobalSecondaryIndexes": [{
      "IndexName": "ByYear",
      "KeySchema": [{"AttributeName": "Year", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["Album", "Genre"]}
    }],
    "SSESpecification": {"Enabled": true, "SSEType": "KMS", "KMSMasterKeyId": "k1"},
    "Tags": [{"Key": "team", "Value": "blue"}],
    "DeletionProtectionEnabled": false
  })");
  EXPECT_EQ(req.table_name(), "Music");
  ASSERT_EQ(req.attribute_definitions_size(), 2);
  EXPECT_EQ(req.attribute_definitions(1).attribute_name(), "Year");
  EXPECT_EQ(req.attribute_definitions(1).attribute_type(), "N");
  ASSERT_EQ(req.key_schema_size(), 2);
  EXPECT_EQ(req.key_schema(0).key_type(), "HASH");
  EXPECT_EQ(req.key_schema(1).attribute_name(), "Year");
  EXPECT_EQ(req.provisioned_throughput().read_capacity_units(), 5);
  EXPECT_EQ(req.provisioned_throughput().write_capacity_units(), 10);
  ASSERT_EQ(req.global_secondary_indexes_size(), 1);
  const auto& gsi = req.global_secondary_indexes(0);
  EXPECT_EQ(gsi.index_name(), "ByYear");
  EXPECT_EQ(gsi.key_schema(0).attribute_name(), "Year");
  EXPECT_EQ(gsi.projection().projection_type(), "INCLUDE");
  ASSERT_EQ(gsi.projection().non_key_attributes_size(), 2);
  EXPECT_EQ(gsi.projection().non_key_attributes(1), "Genre");
  // Members whose json_name is spelled out ("SSEType", "KMSMasterKeyId").
  EXPECT_TRUE(req.sse_specification().enabled());
  EXPECT_EQ(req.sse_specification().sse_type(), "KMS");
  EXPECT_EQ(req.sse_specification().kms_master_key_id(), "k1");
  ASSERT_EQ(req.tags_size(), 1);
  EXPECT_EQ(req.tags(0).value(), "blue");
  EXPECT_TRUE(req.has_deletion_protection_enabled());
  EXPECT_FALSE(req.deletion_protection_enabled());
}

TEST(JsonCodecTest, PutItemRequestWithEveryAttributeValueType) {
  auto req = Decode<v1::PutItemRequest>(R"({
    "TableName": "t",
    "Item": {
      "s": {"S": "héllo \"q\""},
      "n": {"N": "-1.50"},
      "b": {"B": "AQID"},
      "ss": {"SS": ["a", "b"]},
      "ns": {"NS": ["1", "2.5"]},
      "bs": {"BS": ["AA==", "AP8="]},
      "m": {"M": {"inner": {"N": "7"}, "deep": {"M": {"x": {"BOOL": true}}}}},
      "l": {"L": [{"S": "one"}, {"NULL": true}, {"L": []}]},
      "nul": {"NULL": true},
      "t": {"BOOL": true},
      "f": {"BOOL": false}
    },
    "ReturnValues": "ALL_OLD",
    "ExpressionAttributeNames": {"#a": "attr"},
    "ExpressionAttributeValues": {":v": {"S": "x"}}
  })");
  const auto& item = req.item().attributes();
  ASSERT_EQ(item.size(), 11u);
  EXPECT_EQ(item.at("s").s(), "héllo \"q\"");
  EXPECT_EQ(item.at("n").n(), "-1.50");  // canonicalization is the engine's job
  EXPECT_EQ(item.at("b").b(), std::string("\x01\x02\x03", 3));
  EXPECT_EQ(item.at("ss").ss().values_size(), 2);
  EXPECT_EQ(item.at("ns").ns().values(1), "2.5");
  ASSERT_EQ(item.at("bs").bs().values_size(), 2);
  EXPECT_EQ(item.at("bs").bs().values(0), std::string("\x00", 1));
  EXPECT_EQ(item.at("bs").bs().values(1), std::string("\x00\xff", 2));
  EXPECT_EQ(item.at("m").m().fields().at("inner").n(), "7");
  EXPECT_TRUE(item.at("m").m().fields().at("deep").m().fields().at("x").bool_value());
  ASSERT_EQ(item.at("l").l().values_size(), 3);
  EXPECT_EQ(item.at("l").l().values(0).s(), "one");
  EXPECT_EQ(item.at("l").l().values(1).value_case(), v1::AttributeValue::kNullValue);
  EXPECT_EQ(item.at("l").l().values(2).value_case(), v1::AttributeValue::kL);
  EXPECT_EQ(item.at("nul").value_case(), v1::AttributeValue::kNullValue);
  EXPECT_TRUE(item.at("nul").null_value());
  EXPECT_EQ(item.at("t").value_case(), v1::AttributeValue::kBoolValue);
  EXPECT_TRUE(item.at("t").bool_value());
  // BOOL false is still a set BOOL, not an empty value.
  EXPECT_EQ(item.at("f").value_case(), v1::AttributeValue::kBoolValue);
  EXPECT_FALSE(item.at("f").bool_value());
  EXPECT_EQ(req.return_values(), "ALL_OLD");
  EXPECT_EQ(req.expression_attribute_names().names().at("#a"), "attr");
  EXPECT_EQ(req.expression_attribute_values().attributes().at(":v").s(), "x");
}

TEST(JsonCodecTest, OtherOperations) {
  auto get = Decode<v1::GetItemRequest>(
      R"({"TableName":"t","Key":{"pk":{"N":"1"}},"ConsistentRead":true,"AttributesToGet":["a","b"]})");
  EXPECT_EQ(get.key().attributes().at("pk").n(), "1");
  EXPECT_TRUE(get.consistent_read());
  EXPECT_EQ(get.attributes_to_get().values_size(), 2);

  auto list = Decode<v1::ListTablesRequest>(R"({"ExclusiveStartTableName":"abc","Limit":3})");
  EXPECT_EQ(list.exclusive_start_table_name(), "abc");
  EXPECT_EQ(list.limit(), 3);

  auto del = Decode<v1::DeleteItemRequest>(
      R"({"TableName":"t","Key":{"pk":{"S":"k"}},"Expected":{"a":{"Value":{"S":"v"},"Exists":true}}})");
  EXPECT_EQ(del.expected().at("a").value().s(), "v");
  EXPECT_TRUE(del.expected().at("a").exists());

  auto empty = Decode<v1::DescribeTableRequest>("{}");
  EXPECT_FALSE(empty.has_table_name());
}

TEST(JsonCodecTest, DecodingClearsTheMessageFirst) {
  v1::DescribeTableRequest req;
  req.set_table_name("old");
  ASSERT_TRUE(JsonToMessage("{}", &req).ok());
  EXPECT_FALSE(req.has_table_name());
}

TEST(JsonCodecTest, UnknownMembersAreIgnored) {
  auto req = Decode<v1::CreateTableRequest>(R"({
    "TableName": "t",
    "Bogus": {"a": [1, 2, {"b": null}]},
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH", "Extra": 1}],
    "tableName": "lowercase is another member"
  })");
  EXPECT_EQ(req.table_name(), "t");
  EXPECT_EQ(req.key_schema(0).attribute_name(), "pk");
}

TEST(JsonCodecTest, NullIsAbsent) {
  auto req = Decode<v1::PutItemRequest>(
      R"({"TableName": null, "ReturnValues": null, "Item": {"b": {"S": "x"}},
          "Expected": null, "ExpressionAttributeValues": null})");
  EXPECT_FALSE(req.has_table_name());
  EXPECT_FALSE(req.has_return_values());
  EXPECT_EQ(req.item().attributes().size(), 1u);
  EXPECT_TRUE(req.expected().empty());
  EXPECT_FALSE(req.has_expression_attribute_values());

  // Inside an AttributeValue a null member is not a type: {"S": null, "N": "1"}
  // is a number, and {"S": null} is an empty value for the engine to refuse.
  auto item = Decode<v1::PutItemRequest>(R"({"Item": {"a": {"S": null, "N": "1"}, "e": {"S": null}}})");
  EXPECT_EQ(item.item().attributes().at("a").n(), "1");
  EXPECT_EQ(item.item().attributes().at("e").value_case(), v1::AttributeValue::VALUE_NOT_SET);
}

// [] and {} are present, a missing member or null absent: the reader marks
// the first on the parent message (member_presence.h), nothing else.
TEST(JsonCodecTest, ListsAndMapsSentEmptyAreMarked) {
  using R = v1::CreateTableRequest;
  auto req = Decode<R>(R"({"KeySchema": [], "LocalSecondaryIndexes": null,
      "GlobalSecondaryIndexes": [{"IndexName": "g", "KeySchema": [], "Projection": {"NonKeyAttributes": []}}],
      "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}]})");
  EXPECT_TRUE(service::SentEmpty(req, R::kKeySchemaFieldNumber));
  EXPECT_FALSE(service::SentEmpty(req, R::kLocalSecondaryIndexesFieldNumber));
  EXPECT_FALSE(service::SentEmpty(req, R::kAttributeDefinitionsFieldNumber));
  EXPECT_FALSE(service::SentEmpty(req, R::kTagsFieldNumber));
  EXPECT_TRUE(service::Sent(req, R::kAttributeDefinitionsFieldNumber, req.attribute_definitions_size()));
  const auto& g = req.global_secondary_indexes(0);
  EXPECT_TRUE(service::SentEmpty(g, v1::GlobalSecondaryIndex::kKeySchemaFieldNumber));
  EXPECT_TRUE(service::SentEmpty(g.projection(), v1::Projection::kNonKeyAttributesFieldNumber));

  auto put = Decode<v1::PutItemRequest>(R"({"Expected": {}, "Item": {"a": {"S": "x"}}})");
  EXPECT_TRUE(service::SentEmpty(put, v1::PutItemRequest::kExpectedFieldNumber));
  // A request without empty members carries no mark at all.
  auto plain = Decode<v1::PutItemRequest>(R"({"TableName": "t", "Item": {"a": {"L": []}}})");
  EXPECT_EQ(plain.GetReflection()->GetUnknownFields(plain).field_count(), 0);
}

TEST(JsonCodecTest, EmptyAttributeValueIsLeftForTheEngine) {
  auto req = Decode<v1::PutItemRequest>(R"({"Item": {"a": {}, "b": {"Unknown": "x"}}})");
  EXPECT_EQ(req.item().attributes().at("a").value_case(), v1::AttributeValue::VALUE_NOT_SET);
  EXPECT_EQ(req.item().attributes().at("b").value_case(), v1::AttributeValue::VALUE_NOT_SET);
}

TEST(JsonCodecTest, WrongTypesAreSerializationExceptions) {
  // DynamoDB's texts, as recorded against it (dynalite's type tests).
  using CT = v1::CreateTableRequest;
  EXPECT_EQ(SerializationMessage<CT>(R"({"TableName": 5})"), "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<CT>(R"({"TableName": 1.5})"), "DECIMAL_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<CT>(R"({"TableName": true})"), "TRUE_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<CT>(R"({"TableName": false})"), "FALSE_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<CT>(R"({"TableName": {}})"),
            "Start of structure or map found where not expected");
  EXPECT_EQ(SerializationMessage<CT>(R"({"TableName": ["t"]})"),
            "Unrecognized collection type class java.lang.String");
  EXPECT_EQ(SerializationMessage<CT>(R"({"KeySchema": "HASH"})"), "Unexpected field type");
  EXPECT_EQ(SerializationMessage<CT>(R"({"KeySchema": {}})"),
            "Start of structure or map found where not expected");
  EXPECT_EQ(SerializationMessage<CT>(R"({"KeySchema": [5]})"), "Unexpected value type in payload");
  EXPECT_EQ(SerializationMessage<CT>(R"({"KeySchema": [[]]})"),
            "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.KeySchemaElement");
  EXPECT_EQ(SerializationMessage<CT>(R"({"KeySchema": [{"AttributeName": 1}]})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<CT>(R"({"ProvisionedThroughput": 5})"), "Unexpected field type");
  EXPECT_EQ(SerializationMessage<CT>(R"({"ProvisionedThroughput": []})"),
            "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
  EXPECT_EQ(SerializationMessage<CT>(R"({"ProvisionedThroughput": {"ReadCapacityUnits": "5"}})"),
            "STRING_VALUE cannot be converted to Long");
  EXPECT_EQ(SerializationMessage<CT>(R"({"ProvisionedThroughput": {"ReadCapacityUnits": true}})"),
            "TRUE_VALUE cannot be converted to Long");
  EXPECT_EQ(SerializationMessage<CT>(R"({"ProvisionedThroughput": {"ReadCapacityUnits": []}})"),
            "Unrecognized collection type class java.lang.Long");
  EXPECT_EQ(SerializationMessage<CT>(R"({"DeletionProtectionEnabled": "maybe"})"),
            "Unexpected token received from parser");
  EXPECT_EQ(SerializationMessage<CT>(R"({"DeletionProtectionEnabled": 1})"),
            "NUMBER_VALUE cannot be converted to Boolean");
  EXPECT_EQ(SerializationMessage<CT>(R"({"DeletionProtectionEnabled": 34.5})"),
            "DECIMAL_VALUE cannot be converted to Boolean");
  EXPECT_EQ(SerializationMessage<CT>(R"({"DeletionProtectionEnabled": []})"),
            "Unrecognized collection type class java.lang.Boolean");

  using LT = v1::ListTablesRequest;
  EXPECT_EQ(SerializationMessage<LT>(R"({"Limit": "23"})"), "STRING_VALUE cannot be converted to Integer");
  EXPECT_EQ(SerializationMessage<LT>(R"({"Limit": false})"), "FALSE_VALUE cannot be converted to Integer");

  using Put = v1::PutItemRequest;
  const std::string kAttributeMap =
      "Unrecognized collection type java.util.Map<java.lang.String, "
      "com.amazonaws.dynamodb.v20120810.AttributeValue>";
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": []})"), kAttributeMap);
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": "x"})"), "Unexpected field type");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": "x"}})"), "Unexpected value type in payload");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": []}})"),
            "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"S": 1}}})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"N": 1}}})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"SS": "x"}}})"), "Unexpected field type");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"SS": [true]}}})"),
            "TRUE_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"L": {}}}})"),
            "Start of structure or map found where not expected");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"L": [5]}}})"), "Unexpected value type in payload");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"M": []}}})"), kAttributeMap);
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"M": {"b": true}}}})"),
            "Unexpected value type in payload");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"L": [{"M": {"b": {"BS": [1]}}}]}}})"),
            "only base-64-encoded strings are convertible to bytes");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"B": []}}})"),
            "Unrecognized collection type class java.nio.ByteBuffer");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"BOOL": "x"}}})"),
            "Unexpected token received from parser");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"NULL": 1}}})"),
            "NUMBER_VALUE cannot be converted to Boolean");
  EXPECT_EQ(SerializationMessage<Put>(R"({"ExpressionAttributeNames": {"#a": 1}})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(SerializationMessage<Put>(R"({"ExpressionAttributeNames": []})"),
            "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Expected": {"a": 1}})"), "Unexpected value type in payload");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Expected": {"a": {"Value": 1}}})"), "Unexpected field type");

  using BW = v1::BatchWriteItemRequest;
  EXPECT_EQ(SerializationMessage<BW>(R"({"RequestItems": []})"),
            "Unrecognized collection type java.util.Map<java.lang.String, "
            "java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>>");
  EXPECT_EQ(
      SerializationMessage<BW>(R"({"RequestItems": {"t": 5}})"),
      "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class "
      "java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class "
      "are in module java.base of loader 'bootstrap')");
  EXPECT_EQ(
      SerializationMessage<BW>(R"({"RequestItems": {"t": [{"PutRequest": {"Item": {"a": {"S": true}}}}]}})"),
      "TRUE_VALUE cannot be converted to String");
}

TEST(JsonCodecTest, StringsAndDecimalsConvertLikeDynamoDB) {
  auto ct = Decode<v1::CreateTableRequest>(R"({"DeletionProtectionEnabled": "YES"})");
  EXPECT_TRUE(ct.deletion_protection_enabled());
  ct = Decode<v1::CreateTableRequest>(R"({"DeletionProtectionEnabled": "0"})");
  EXPECT_FALSE(ct.deletion_protection_enabled());
  auto put = Decode<v1::PutItemRequest>(R"({"Item": {"a": {"BOOL": "true"}}})");
  EXPECT_TRUE(put.item().attributes().at("a").bool_value());
  auto lt = Decode<v1::ListTablesRequest>(R"({"Limit": 34.56})");
  EXPECT_EQ(lt.limit(), 34);
}

TEST(JsonCodecTest, InvalidBase64IsASerializationException) {
  using Put = v1::PutItemRequest;
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"B": "AQI"}}})"),
            "Base64 encoded length is expected a multiple of 4 bytes but found: 3");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"BS": ["AA==", "AAAAA"]}}})"),
            "Base64 encoded length is expected a multiple of 4 bytes but found: 5");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"B": "=+/="}}})"),
            "Invalid last non-pad Base64 character dectected");
  EXPECT_EQ(SerializationMessage<Put>(R"({"Item": {"a": {"B": 5}}})"),
            "only base-64-encoded strings are convertible to bytes");
  // The empty string is valid base64 for zero bytes.
  EXPECT_EQ(Decode<Put>(R"({"Item": {"a": {"B": ""}}})").item().attributes().at("a").b(), "");
}

TEST(JsonCodecTest, MalformedJsonIsASerializationException) {
  for (const char* text : {"", "{", "{\"TableName\": }", "{\"TableName\": \"t\",}", "nul", "{\"a\":1}x",
                           "{\"TableName\": \"\xff\"}"}) {
    Error e = DecodeError<v1::DescribeTableRequest>(text);
    EXPECT_EQ(e.code(), ErrorCode::kSerialization) << text;
  }
  // Valid JSON that is not an object.
  EXPECT_EQ(DecodeError<v1::DescribeTableRequest>("[]").code(), ErrorCode::kSerialization);
  EXPECT_EQ(DecodeError<v1::DescribeTableRequest>("\"t\"").code(), ErrorCode::kSerialization);
  EXPECT_EQ(DecodeError<v1::DescribeTableRequest>("null").code(), ErrorCode::kSerialization);
}

// The value's error, as item validation reports it after decoding.
std::string ItemValueError(const std::string& item) {
  auto put = Decode<v1::PutItemRequest>(std::string(R"({"Item": )") + item + "}");
  auto attributes = put.item().attributes();
  Status s = service::ValidateAttributes(&attributes);
  EXPECT_FALSE(s.ok()) << item;
  if (s.ok()) return "(valid)";
  EXPECT_EQ(s.error().code(), ErrorCode::kValidation) << item;
  return s.error().message();
}

TEST(JsonCodecTest, TwoTypesInOneAttributeValueIsAValidationException) {
  // Decoding succeeds: the value carries its error to validation, which
  // DynamoDB runs after the member constraints.
  for (const char* item : {R"({"a": {"S": "x", "N": "1"}})", R"({"a": {"NULL": true, "BOOL": false}})",
                           R"({"a": {"L": [{"SS": ["a"], "NS": ["1"]}]}})"}) {
    EXPECT_EQ(ItemValueError(item), kTwoTypes) << item;
  }
  // Each member's content is checked first, in member order (DynamoDB's
  // order): a bad number or set wins over the two types.
  for (auto [item, message] : std::initializer_list<std::pair<const char*, const char*>>{
           {R"({"a": {"S": "a", "N": ""}})", "The parameter cannot be converted to a numeric value"},
           {R"({"a": {"S": "a", "N": "b"}})", "The parameter cannot be converted to a numeric value: b"},
           {R"({"a": {"NS": ["1", "b"], "S": "a"}})",
            "The parameter cannot be converted to a numeric value: b"},
           {R"({"a": {"S": "a", "NS": ["1", "1"]}})", "Input collection contains duplicates"},
           {R"({"a": {"SS": [], "S": "a"}})",
            "One or more parameter values were invalid: An string set  may not be empty"}}) {
    EXPECT_EQ(ItemValueError(item), message) << item;
  }
  // A serialization error anywhere in the request still wins.
  EXPECT_EQ(
      SerializationMessage<v1::PutItemRequest>(R"({"Item": {"a": {"S": "a", "N": "b"}, "c": {"S": 5}}})"),
      "NUMBER_VALUE cannot be converted to String");
}

// A null where an AttributeValue or an ExpressionAttributeNames name belongs
// is not an absent entry: DynamoDB refuses it, so the entry is kept, marked.
TEST(JsonCodecTest, NullValuesAndNamesAreKeptForValidationToRefuse) {
  auto req = Decode<v1::PutItemRequest>(
      R"({"Item": {"a": null, "b": {"S": "x"}}, "ExpressionAttributeNames": {"#n": null, "#m": "m"}})");
  EXPECT_EQ(req.item().attributes().size(), 2u);
  EXPECT_EQ(req.item().attributes().at("a").value_case(), v1::AttributeValue::VALUE_NOT_SET);
  EXPECT_EQ(req.expression_attribute_names().names().at("#n"), "");
  EXPECT_TRUE(service::NameSentNull(req.expression_attribute_names(), "#n"));
  EXPECT_FALSE(service::NameSentNull(req.expression_attribute_names(), "#m"));
  EXPECT_EQ(req.expression_attribute_names().names().at("#m"), "m");
  auto legacy = Decode<v1::PutItemRequest>(R"({"Expected": {"x": null}})");
  EXPECT_TRUE(expr::SentNull(legacy.expected().at("x")));
  auto scan = Decode<v1::ScanRequest>(R"({"ScanFilter": {"s": null}})");
  EXPECT_TRUE(expr::SentNull(scan.scan_filter().at("s")));
  // The marks cross the gRPC door with the request.
  v1::ScanRequest copy;
  ASSERT_TRUE(copy.ParseFromString(scan.SerializeAsString()));
  EXPECT_TRUE(expr::SentNull(copy.scan_filter().at("s")));
  v1::PutItemRequest names;
  ASSERT_TRUE(names.ParseFromString(req.SerializeAsString()));
  EXPECT_TRUE(service::NameSentNull(names.expression_attribute_names(), "#n"));
  // A map entry is named; a list element is not, nor the map that holds it.
  EXPECT_EQ(ItemValueError(R"({"a": null})"), "The supplied Item contains a null AttributeValue: a is null");
  EXPECT_EQ(ItemValueError(R"({"a": {"M": {"k": null}}})"),
            "The supplied Item contains a null AttributeValue: k is null");
  EXPECT_EQ(ItemValueError(R"({"a": {"L": [{"S": "x"}, null]}})"),
            "The supplied Item contains a null AttributeValue");
  // A map member that is not the proto's Item wrapper: ExclusiveStartKey.
  auto query = Decode<v1::QueryRequest>(R"({"ExclusiveStartKey": {"pk": null}})");
  EXPECT_EQ(query.exclusive_start_key().at("pk").value_case(), v1::AttributeValue::VALUE_NOT_SET);
  EXPECT_FALSE(service::CheckValue(query.exclusive_start_key().at("pk")).ok());
}

TEST(JsonCodecTest, ValueNestingIsBoundedBeforeAnyWork) {
  // The codec admits what item validation then judges (32 levels); one level
  // more than the codec's bound is refused here.
  auto ok = Decode<v1::PutItemRequest>(R"({"Item": {"a": )" + NestedList(33) + "}}");
  EXPECT_EQ(ok.item().attributes().at("a").value_case(), v1::AttributeValue::kL);

  Error e = DecodeError<v1::PutItemRequest>(R"({"Item": {"a": )" + NestedList(34) + "}}");
  EXPECT_EQ(e.code(), ErrorCode::kValidation);
  EXPECT_EQ(e.message(), kNesting);

  // Absurd depth is refused without exhausting the stack.
  Error deep = DecodeError<v1::PutItemRequest>(R"({"Item": {"a": )" + NestedList(100000) + "}}");
  EXPECT_EQ(deep.message(), kNesting);
}

TEST(JsonCodecTest, ValueNestingCountsFromTheValueWhereverTheRequestHoldsIt) {
  // An item inside BatchWriteItem (four messages down) or a PartiQL
  // parameter (inside a list wrapper) nests as deeply as PutItem's.
  auto batch = [](int levels) {
    return R"({"RequestItems": {"t": [{"PutRequest": {"Item": {"a": )" + NestedList(levels) + "}}}]}}";
  };
  auto ok = Decode<v1::BatchWriteItemRequest>(batch(33));
  EXPECT_EQ(ok.request_items().at("t").requests(0).put_request().item().at("a").value_case(),
            v1::AttributeValue::kL);
  EXPECT_EQ(DecodeError<v1::BatchWriteItemRequest>(batch(34)).message(), kNesting);
  auto params = [](int levels) {
    return R"({"Statement": "SELECT * FROM t", "Parameters": [)" + NestedList(levels) + "]}";
  };
  EXPECT_EQ(Decode<v1::ExecuteStatementRequest>(params(33)).parameters().values_size(), 1);
  EXPECT_EQ(DecodeError<v1::ExecuteStatementRequest>(params(34)).message(), kNesting);
}

TEST(JsonCodecTest, ParametersTellAnEmptyListFromAnAbsentOne) {
  auto absent = Decode<v1::ExecuteStatementRequest>(R"({"Statement": "SELECT * FROM t"})");
  EXPECT_FALSE(absent.has_parameters());
  auto empty = Decode<v1::ExecuteStatementRequest>(R"({"Statement": "SELECT * FROM t", "Parameters": []})");
  EXPECT_TRUE(empty.has_parameters());
  EXPECT_EQ(empty.parameters().values_size(), 0);
  auto batch = Decode<v1::BatchExecuteStatementRequest>(
      R"({"Statements": [{"Statement": "s", "Parameters": [{"S": "a"}, {"N": "1"}]}, {"Statement": "s"}]})");
  EXPECT_EQ(batch.statements(0).parameters().values(1).n(), "1");
  EXPECT_FALSE(batch.statements(1).has_parameters());
  auto tx = Decode<v1::ExecuteTransactionRequest>(
      R"({"TransactStatements": [{"Statement": "s", "Parameters": []}]})");
  EXPECT_TRUE(tx.transact_statements(0).has_parameters());
}

TEST(JsonCodecTest, DeepJsonInAnUnknownMemberDoesNotCrash) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto req = Decode<v1::DescribeTableRequest>(R"({"TableName": "t", "Junk": )" + deep + "}");
  EXPECT_EQ(req.table_name(), "t");
}

// ---------------------------------------------------------------- responses

TEST(JsonCodecTest, GetItemResponseWithoutItemHasNoItemMember) {
  v1::GetItemResponse resp;
  EXPECT_EQ(Encode(resp), "{}");
}

TEST(JsonCodecTest, GetItemResponseWithEmptyItemStillHasItemMember) {
  v1::GetItemResponse resp;
  resp.mutable_item();
  EXPECT_EQ(Encode(resp), R"({"Item":{}})");
}

TEST(JsonCodecTest, GetItemResponseWithItemRoundTrips) {
  v1::GetItemResponse resp;
  auto& a = *resp.mutable_item()->mutable_attributes();
  a["s"].set_s("line\nbreak \"quoted\" back\\slash \x01 tab\t é");
  a["n"].set_n("-12.5");
  a["b"].set_b(std::string("\x00\xff\x10", 3));
  a["ss"].mutable_ss()->add_values("x");
  a["ns"].mutable_ns()->add_values("1");
  a["ns"].mutable_ns()->add_values("2");
  a["bs"].mutable_bs()->add_values(std::string("\x01", 1));
  (*a["m"].mutable_m()->mutable_fields())["k"].set_bool_value(false);
  a["l"].mutable_l()->add_values()->set_null_value(true);
  a["l"].mutable_l()->add_values()->set_s("");
  a["t"].set_bool_value(true);
  a["z"].set_null_value(true);
  resp.mutable_consumed_capacity()->set_table_name("t");
  resp.mutable_consumed_capacity()->set_capacity_units(0.5);

  std::string json = Encode(resp);
  EXPECT_NE(json.find(R"("b":{"B":"AP8Q"})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("z":{"NULL":true})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("l":{"L":[{"NULL":true},{"S":""}]})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5})"), std::string::npos)
      << json;
  EXPECT_NE(json.find(R"(\u0001)"), std::string::npos) << json;

  auto back = Decode<v1::GetItemResponse>(json);
  EXPECT_TRUE(MessageDifferencer::Equals(resp, back)) << json;
}

TEST(JsonCodecTest, ListTablesResponseAlwaysHasTableNames) {
  v1::ListTablesResponse empty;
  EXPECT_EQ(Encode(empty), R"({"TableNames":[]})");

  v1::ListTablesResponse two;
  two.add_table_names("a");
  two.add_table_names("b");
  two.set_last_evaluated_table_name("b");
  EXPECT_EQ(Encode(two), R"({"TableNames":["a","b"],"LastEvaluatedTableName":"b"})");
}

TEST(JsonCodecTest, OtherEmptyRepeatedFieldsAreOmitted) {
  v1::TableDescription d;
  d.set_table_name("t");
  EXPECT_EQ(Encode(d), R"({"TableName":"t"})");
}

TEST(JsonCodecTest, NumbersRoundTrip) {
  v1::DescribeTableResponse resp;
  auto* d = resp.mutable_table();
  d->set_table_name("t");
  d->set_creation_date_time(1700000000.123456);
  d->set_item_count(9007199254740993);  // not representable as a double
  d->set_table_size_bytes(0);
  d->mutable_provisioned_throughput()->set_read_capacity_units(5);
  d->mutable_provisioned_throughput()->set_number_of_decreases_today(0);
  d->set_deletion_protection_enabled(false);
  d->mutable_sse_description()->set_sse_type("KMS");

  std::string json = Encode(resp);
  EXPECT_NE(json.find(R"("ItemCount":9007199254740993)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("TableSizeBytes":0)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("CreationDateTime":1700000000.123456)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("DeletionProtectionEnabled":false)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("SSEDescription":{"SSEType":"KMS"})"), std::string::npos) << json;

  auto back = Decode<v1::DescribeTableResponse>(json);
  EXPECT_TRUE(MessageDifferencer::Equals(resp, back)) << json;
  EXPECT_EQ(back.table().item_count(), 9007199254740993);
  EXPECT_EQ(back.table().creation_date_time(), 1700000000.123456);
}

TEST(JsonCodecTest, ConsumedCapacityMapsRoundTrip) {
  v1::PutItemResponse resp;
  auto* c = resp.mutable_consumed_capacity();
  c->set_table_name("t");
  c->set_capacity_units(1);
  c->mutable_table()->set_capacity_units(1);
  (*c->mutable_global_secondary_indexes())["g"].set_read_capacity_units(2.5);
  (*resp.mutable_item_collection_metrics()->mutable_item_collection_key())["pk"].set_s("k");
  resp.mutable_item_collection_metrics()->add_size_estimate_range_gb(0);
  resp.mutable_item_collection_metrics()->add_size_estimate_range_gb(1);
  std::string json = Encode(resp);
  EXPECT_NE(json.find(R"("GlobalSecondaryIndexes":{"g":{"ReadCapacityUnits":2.5}})"), std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("SizeEstimateRangeGB":[0,1])"), std::string::npos) << json;
  auto back = Decode<v1::PutItemResponse>(json);
  EXPECT_TRUE(MessageDifferencer::Equals(resp, back)) << json;
}

// ---------------------------------------------------------------- errors

TEST(JsonCodecTest, ErrorToJsonShape) {
  EXPECT_EQ(ErrorToJson(Error::Validation("bad \"thing\"")),
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"bad \"thing\""})");
  EXPECT_EQ(ErrorToJson(Error::ResourceNotFound("Requested resource not found")),
            R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
            R"("message":"Requested resource not found"})");
  // No message member at all when there is no message.
  EXPECT_EQ(ErrorToJson(Error(ErrorCode::kUnknownOperation, "")),
            R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
}

TEST(JsonCodecTest, ErrorToJsonCarriesTheItemDetail) {
  Error e = Error::ConditionalCheckFailed();
  auto detail = std::make_shared<v1::ErrorDetail>();
  (*detail->mutable_item()->mutable_attributes())["pk"].set_s("k");
  e.set_detail(detail);
  EXPECT_EQ(ErrorToJson(e), R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
                            R"("message":"The conditional request failed","Item":{"pk":{"S":"k"}}})");
}

TEST(JsonCodecTest, ErrorToJsonCarriesCancellationReasons) {
  Error e(ErrorCode::kTransactionCanceled, "Transaction cancelled");
  auto detail = std::make_shared<v1::ErrorDetail>();
  auto* r1 = detail->add_cancellation_reasons();
  r1->set_code("ConditionalCheckFailed");
  r1->set_message("The conditional request failed");
  (*r1->mutable_item()->mutable_attributes())["n"].set_n("1");
  detail->add_cancellation_reasons()->set_code("None");
  e.set_detail(detail);
  EXPECT_EQ(
      ErrorToJson(e),
      R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
      R"("message":"Transaction cancelled","CancellationReasons":[)"
      R"({"Item":{"n":{"N":"1"}},"Code":"ConditionalCheckFailed","Message":"The conditional request failed"},)"
      R"({"Code":"None"}]})");
}

TEST(JsonCodecTest, ErrorDetailWithoutItemAddsNothing) {
  Error e = Error::Validation("m");
  e.set_detail(std::make_shared<v1::ErrorDetail>());
  EXPECT_EQ(ErrorToJson(e), R"({"__type":"com.amazon.coral.validate#ValidationException","message":"m"})");
}

}  // namespace
}  // namespace pogi::gateway
