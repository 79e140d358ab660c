// Tests for gateway::HandleRequest, the socket-free core of the HTTP gateway:
// dispatch by X-Amz-Target, the health answer to GET, and how decoding and
// engine errors become DynamoDB's JSON error bodies and HTTP statuses.
#include "gateway/handle_request.h"

#include <gtest/gtest.h>

#include <string>

#include "service/core/region.h"

namespace pogi::gateway {
namespace {

constexpr char kJson10[] = "application/x-amz-json-1.0";
constexpr char kUnknownOperation[] = R"({"__type":"com.amazon.coral.service#UnknownOperationException"})";

class HandleRequestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto r = service::Engine::Open(options, std::make_shared<service::SystemClock>());
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    backend_ = std::make_unique<LocalBackend>(*engine_);
  }

  ApiResponse Call(std::string_view operation, std::string_view body,
                   std::string_view content_type = kJson10) {
    target_ = "DynamoDB_20120810." + std::string(operation);
    return HandleRequest(*backend_, Signed({"POST", "/", target_, content_type, body}));
  }

  // `request` with a well-formed (unverified) Authorization header, which
  // DynamoDB requires of every request.
  static ApiRequest Signed(ApiRequest request) {
    request.require_authorization = true;
    request.has_authorization = true;
    request.authorization =
        "AWS4-HMAC-SHA256 Credential=pogi/20260101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host;x-amz-date, Signature=00";
    request.has_date = true;
    return request;
  }

  void CreateTable(const std::string& name) {
    ApiResponse r = Call("CreateTable", R"({"TableName":")" + name + R"(",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "BillingMode":"PAY_PER_REQUEST"})");
    ASSERT_EQ(r.status, 200) << r.body;
  }

  std::unique_ptr<service::Engine> engine_;
  std::unique_ptr<LocalBackend> backend_;
  std::string target_;
};

TEST_F(HandleRequestTest, GetIsAHealthCheck) {
  ApiRequest get{"GET", "/", "", "", ""};
  get.host = "localhost:7644";
  ApiResponse r = HandleRequest(*backend_, get);
  EXPECT_EQ(r.status, 200);
  // DynamoDB names its regional endpoint (trailing space included), not the
  // host the client used.
  EXPECT_EQ(r.body, "healthy: dynamodb.us-east-1.amazonaws.com ");
  EXPECT_EQ(r.content_type, "text/plain");
  service::SetRegion("eu-west-3");
  get.target = "/?x=1";
  r = HandleRequest(*backend_, get);
  service::SetRegion(service::kDefaultRegion);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "healthy: dynamodb.eu-west-3.amazonaws.com ");
}

TEST_F(HandleRequestTest, DispatchesByTarget) {
  ApiResponse list = Call("ListTables", "{}");
  EXPECT_EQ(list.status, 200);
  EXPECT_EQ(list.body, R"({"TableNames":[]})");
  EXPECT_EQ(list.content_type, "application/x-amz-json-1.0");

  CreateTable("Music");
  list = Call("ListTables", "{}");
  EXPECT_EQ(list.body, R"({"TableNames":["Music"]})");

  ApiResponse describe = Call("DescribeTable", R"({"TableName":"Music"})");
  EXPECT_EQ(describe.status, 200);
  EXPECT_NE(describe.body.find(R"("TableStatus":"ACTIVE")"), std::string::npos) << describe.body;
  EXPECT_NE(describe.body.find(R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST")"), std::string::npos)
      << describe.body;
}

TEST_F(HandleRequestTest, ItemRoundTripThroughJson) {
  CreateTable("Music");
  ApiResponse put = Call("PutItem", R"({"TableName":"Music","Item":{"pk":{"S":"a"},"n":{"N":"1.50"},
                                        "b":{"B":"AQID"}}})");
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(put.body, "{}");

  ApiResponse get = Call("GetItem", R"({"TableName":"Music","Key":{"pk":{"S":"a"}}})");
  ASSERT_EQ(get.status, 200) << get.body;
  EXPECT_NE(get.body.find(R"("n":{"N":"1.5"})"), std::string::npos) << get.body;
  EXPECT_NE(get.body.find(R"("b":{"B":"AQID"})"), std::string::npos) << get.body;

  ApiResponse miss = Call("GetItem", R"({"TableName":"Music","Key":{"pk":{"S":"zzz"}}})");
  EXPECT_EQ(miss.body, "{}");

  ApiResponse del = Call("DeleteItem",
                         R"({"TableName":"Music","Key":{"pk":{"S":"a"}},"ReturnValues":"ALL_OLD",
                             "ReturnConsumedCapacity":"TOTAL"})");
  ASSERT_EQ(del.status, 200) << del.body;
  EXPECT_NE(del.body.find(R"("Attributes":{)"), std::string::npos) << del.body;
  EXPECT_NE(del.body.find(R"("ConsumedCapacity":{"TableName":"Music","CapacityUnits":1})"), std::string::npos)
      << del.body;
}

TEST_F(HandleRequestTest, JsonContentTypesAreAcceptedAndEchoed) {
  ApiResponse r = Call("ListTables", "{}", "application/x-amz-json-1.0; charset=utf-8");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "application/x-amz-json-1.0");
  r = Call("ListTables", "{}", "  application/json ; x");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
}

TEST_F(HandleRequestTest, NotAnApiCallIs404) {
  const std::string kBody = "<UnknownOperationException/>\n";
  // DynamoDB speaks only x-amz-json-1.0 and plain JSON.
  for (const char* ct : {"", "text/plain", "application/x-amz-json-1.1", "application/jsonx"}) {
    ApiResponse r = Call("ListTables", "{}", ct);
    EXPECT_EQ(r.status, 404) << ct;
    EXPECT_EQ(r.body, kBody) << ct;
  }
  for (const char* method : {"PUT", "DELETE", "OPTIONS", "PATCH"}) {
    ApiResponse r =
        HandleRequest(*backend_, Signed({method, "/", "DynamoDB_20120810.ListTables", kJson10, "{}"}));
    EXPECT_EQ(r.status, 404) << method;
    EXPECT_EQ(r.body, kBody) << method;
  }
  ApiResponse r = HandleRequest(*backend_, {"GET", "/other", "", "", ""});
  EXPECT_EQ(r.status, 404);
  // A POST without a body needs no content type: it is judged on its target.
  r = HandleRequest(*backend_, Signed({"POST", "/", "", "", ""}));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, kUnknownOperation);
  EXPECT_EQ(r.content_type, "application/json");
}

TEST_F(HandleRequestTest, AuthorizationIsRequired) {
  ApiRequest req{"POST", "/", "DynamoDB_20120810.ListTables", kJson10, "{}"};
  req.require_authorization = true;
  ApiResponse r = HandleRequest(*backend_, req);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#MissingAuthenticationTokenException",)"
                    R"("message":"Request is missing Authentication Token"})");
  // Not JSON wins over the missing header, an unknown target over both.
  req.body = "hi";
  EXPECT_EQ(HandleRequest(*backend_, req).body,
            R"({"__type":"com.amazon.coral.service#SerializationException"})");
  req.body = "{}";
  req.amz_target = "DynamoDB_20120810.Nope";
  EXPECT_EQ(HandleRequest(*backend_, req).body, kUnknownOperation);
  // Without the requirement (--allow-unsigned), no header is needed.
  req.amz_target = "DynamoDB_20120810.ListTables";
  req.require_authorization = false;
  EXPECT_EQ(HandleRequest(*backend_, req).status, 200);
}

TEST_F(HandleRequestTest, UnknownTargetIsUnknownOperation) {
  for (const char* op : {"Nope", "CreateGlobalTables", "listTables", ""}) {
    ApiResponse r = Call(op, "{}");
    EXPECT_EQ(r.status, 400) << op;
    EXPECT_EQ(r.body, kUnknownOperation) << op;
  }
  // The service prefix must be DynamoDB's.
  for (std::string_view target : {"DynamoDB_20111205.ListTables", "ListTables", "", "DynamoDB_20120810"}) {
    ApiResponse r = HandleRequest(*backend_, Signed({"POST", "/", target, kJson10, "{}"}));
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_EQ(r.body, kUnknownOperation) << target;
  }
}

TEST_F(HandleRequestTest, MalformedJsonIsSerializationException) {
  ApiResponse r = Call("ListTables", "{not json");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
  EXPECT_EQ(r.content_type, "application/x-amz-json-1.0");
}

TEST_F(HandleRequestTest, WrongMemberTypeIsSerializationException) {
  ApiResponse r = Call("DescribeTable", R"({"TableName": 12})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"NUMBER_VALUE cannot be converted to String"})");
}

TEST_F(HandleRequestTest, ValidationExceptionBody) {
  ApiResponse r = Call("Scan", "{}");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"1 validation error )"
            R"(detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"})");
}

TEST_F(HandleRequestTest, ResourceErrors) {
  ApiResponse missing = Call("DescribeTable", R"({"TableName":"nope"})");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                          R"("message":"Requested resource not found: Table: nope not found"})");

  CreateTable("Music");
  ApiResponse again = Call("CreateTable", R"({"TableName":"Music",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}], "BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_EQ(again.status, 400);
  EXPECT_EQ(again.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceInUseException",)"
                        R"("message":"Table already exists: Music"})");
}

TEST_F(HandleRequestTest, ErrorResponseUsesTheTableStatus) {
  EXPECT_EQ(ErrorResponse(Error::Internal("boom")).status, 500);
  EXPECT_EQ(ErrorResponse(Error(ErrorCode::kRequestEntityTooLarge, "too big")).status, 413);
  ApiResponse v = ErrorResponse(Error::Validation("m"));
  EXPECT_EQ(v.status, 400);
  EXPECT_EQ(v.content_type, "application/x-amz-json-1.0");
  EXPECT_EQ(v.body, R"({"__type":"com.amazon.coral.validate#ValidationException","message":"m"})");
}

}  // namespace
}  // namespace pogi::gateway
