// Tests for gateway/grpc_backend.h: the same HTTP requests answered through
// the engine in process (LocalBackend) and through an engine behind its real
// gRPC door (GrpcBackend, as `pogi gateway` does), on two engines that start
// alike on a frozen clock: the answers are the same JSON, errors with their
// payloads included (apart from each table's random TableId, and the order
// of a map's members, which a protobuf map does not keep in either door and
// DynamoDB does not define). An engine that is gone answers
// ServiceUnavailable.
#include "gateway/grpc_backend.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gateway/handle_request.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"

namespace pogi::gateway {
namespace {

std::unique_ptr<service::Engine> FrozenEngine() {
  storage::Options options;
  options.in_memory = true;
  auto engine = service::Engine::Open(
      options, std::make_shared<service::ControllableClock>(1'900'000'000.0, /*frozen=*/true));
  EXPECT_TRUE(engine.ok());
  return std::move(engine).value();
}

class GrpcBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    local_engine_ = FrozenEngine();
    remote_engine_ = FrozenEngine();
    auto server = rpc::GrpcServer::Start(*remote_engine_, "127.0.0.1", 0, [] {});
    ASSERT_TRUE(server.ok()) << server.error().message();
    server_ = std::move(server).value();
    local_ = std::make_unique<LocalBackend>(*local_engine_);
    remote_ = std::make_unique<GrpcBackend>("127.0.0.1:" + std::to_string(server_->port()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  // An answer's JSON, without the table's random id.
  static nlohmann::json Json(const std::string& body) {
    nlohmann::json j = nlohmann::json::parse(body);
    for (const char* d : {"Table", "TableDescription"}) {
      if (j.contains(d)) j[d].erase("TableId");
    }
    return j;
  }

  static ApiResponse Ask(Backend& backend, const std::string& target, const std::string& body) {
    const std::string amz_target = "DynamoDB_20120810." + target;
    ApiRequest req{"POST", "/", amz_target, "application/x-amz-json-1.0", body};
    return HandleRequest(backend, req);
  }

  std::unique_ptr<service::Engine> local_engine_, remote_engine_;
  std::unique_ptr<rpc::GrpcServer> server_;
  std::unique_ptr<LocalBackend> local_;
  std::unique_ptr<GrpcBackend> remote_;
};

TEST_F(GrpcBackendTest, AnswersAreTheBytesOfTheEngineInProcess) {
  const std::vector<std::pair<std::string, std::string>> requests = {
      {"CreateTable",
       R"j({"TableName":"tab","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk",)j"
       R"j("AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)j"
       R"j("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}})j"},
      {"PutItem", R"j({"TableName":"tab","Item":{"pk":{"S":"a"},"n":{"N":"1"},"b":{"B":"AAE="}}})j"},
      {"GetItem", R"j({"TableName":"tab","Key":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"INDEXES"})j"},
      // A failed condition, with the item it met.
      {"PutItem",
       R"j({"TableName":"tab","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)",)j"
       R"j("ReturnValuesOnConditionCheckFailure":"ALL_OLD"})j"},
      // A cancelled transaction, with its reasons.
      {"TransactWriteItems",
       R"j({"TransactItems":[{"ConditionCheck":{"TableName":"tab","Key":{"pk":{"S":"a"}},)j"
       R"j("ConditionExpression":"n = :two","ExpressionAttributeValues":{":two":{"N":"2"}}}},)j"
       R"j({"Put":{"TableName":"tab","Item":{"pk":{"S":"b"}}}}]})j"},
      {"DescribeTable", R"j({"TableName":"tab"})j"},
      {"DescribeTable", R"j({"TableName":"missing"})j"},
      {"Query", R"j({"TableName":"tab","KeyConditionExpression":"pk = :a"})j"},
      {"Scan", R"j({"TableName":"tab","Limit":0})j"},
      {"ListTables", R"j({})j"},
      {"ExecuteStatement", R"j({"Statement":"SELECT * FROM \"tab\""})j"},
  };
  std::vector<ApiResponse> answers;
  for (const auto& [target, body] : requests) {
    ApiResponse want = Ask(*local_, target, body);
    ApiResponse got = Ask(*remote_, target, body);
    EXPECT_EQ(got.status, want.status) << target << " " << body;
    EXPECT_EQ(got.error_type, want.error_type) << target;
    EXPECT_EQ(Json(got.body), Json(want.body)) << target << " " << body;
    answers.push_back(std::move(got));
  }
  // What was compared: successes, and errors with their payloads.
  EXPECT_EQ(answers[2].status, 200);
  EXPECT_NE(answers[2].body.find(R"("b":{"B":"AAE="})"), std::string::npos) << answers[2].body;
  EXPECT_EQ(answers[3].error_type, "ConditionalCheckFailedException");
  EXPECT_NE(answers[3].body.find(R"("Item":{)"), std::string::npos) << answers[3].body;
  EXPECT_EQ(answers[4].error_type, "TransactionCanceledException");
  EXPECT_NE(answers[4].body.find("CancellationReasons"), std::string::npos) << answers[4].body;
  EXPECT_EQ(answers[6].error_type, "ResourceNotFoundException");
}

// Past gRPC's defaults: an answer over 4 MB (a BatchGetItem of 20 items of
// 300 KB), and an error whose details carry a 300 KB item.
TEST_F(GrpcBackendTest, LargeAnswersAndLargeErrorsPass) {
  const std::string big(300 * 1024, 'x');
  std::string get = R"j({"RequestItems":{"tab":{"Keys":[)j";
  for (Backend* b : {static_cast<Backend*>(local_.get()), static_cast<Backend*>(remote_.get())}) {
    Ask(*b, "CreateTable",
        R"j({"TableName":"tab","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk",)j"
        R"j("AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})j");
    for (int i = 0; i < 20; ++i) {
      ApiResponse put = Ask(*b, "PutItem",
                            R"j({"TableName":"tab","Item":{"pk":{"S":"k)j" + std::to_string(i) +
                                R"j("},"v":{"S":")j" + big + R"j("}}})j");
      ASSERT_EQ(put.status, 200) << put.body;
    }
  }
  for (int i = 0; i < 20; ++i)
    get += std::string(i ? "," : "") + R"j({"pk":{"S":"k)j" + std::to_string(i) + "\"}}";
  get += "]}}}";
  const std::string fail =
      R"j({"TableName":"tab","Item":{"pk":{"S":"k0"}},"ConditionExpression":"attribute_not_exists(pk)",)j"
      R"j("ReturnValuesOnConditionCheckFailure":"ALL_OLD"})j";
  for (const auto& [target, body] :
       {std::pair<std::string, std::string>{"BatchGetItem", get}, {"PutItem", fail}}) {
    ApiResponse want = Ask(*local_, target, body), got = Ask(*remote_, target, body);
    EXPECT_EQ(got.status, want.status) << got.body.substr(0, 300);
    EXPECT_GT(got.body.size(), 300u * 1024) << got.body.substr(0, 300);
    EXPECT_EQ(Json(got.body), Json(want.body)) << target;
  }
}

TEST_F(GrpcBackendTest, StreamsGoToTheStreamsService) {
  for (Backend* b : {static_cast<Backend*>(local_.get()), static_cast<Backend*>(remote_.get())}) {
    Ask(*b, "CreateTable",
        R"j({"TableName":"strm","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk",)j"
        R"j("AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)j"
        R"j("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}})j");
  }
  ApiRequest req{"POST", "/", "DynamoDBStreams_20120810.ListStreams", "application/x-amz-json-1.0", "{}"};
  ApiResponse want = HandleRequest(*local_, req), got = HandleRequest(*remote_, req);
  EXPECT_EQ(got.status, 200);
  EXPECT_EQ(got.body, want.body);
}

TEST_F(GrpcBackendTest, AGoneEngineAnswersServiceUnavailable) {
  server_->Shutdown();
  server_.reset();
  ApiResponse r = Ask(*remote_, "ListTables", "{}");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.error_type, "ServiceUnavailable");
  EXPECT_NE(r.body.find("is not reachable"), std::string::npos) << r.body;
}

TEST_F(GrpcBackendTest, TheDoorsOwnPathsAreLeftToTheEngine) {
  ApiRequest metrics{"GET", "/_pogi/metrics", "", "", ""};
  EXPECT_EQ(HandleRequest(*local_, metrics).status, 200);
  EXPECT_EQ(HandleRequest(*remote_, metrics).status, 404);
}

}  // namespace
}  // namespace pogi::gateway
