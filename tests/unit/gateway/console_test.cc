// Tests for gateway::HandleConsole and ConsoleLive without sockets: the
// embedded assets, the API's dispatch to DynamoDB operations and Admin
// calls, its refusals (unknown call, bad JSON, other origins, missing
// credentials) and the change feed and request tail polls.
#include "gateway/console.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/console_assets.h"

namespace pogi::gateway {
namespace {

class ConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto r = service::Engine::Open(options, std::make_shared<service::ControllableClock>());
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    live_ = std::make_unique<ConsoleLive>(*engine_);
  }

  ApiResponse Get(std::string target) {
    target_ = std::move(target);
    ConsoleRequest req{"GET", target_, "", "127.0.0.1:7644"};
    req.credentials = credentials_;
    return HandleConsole(*engine_, *live_, req);
  }
  ApiResponse Post(std::string target, std::string body) {
    target_ = std::move(target);
    body_ = std::move(body);
    ConsoleRequest req{"POST", target_, body_, "127.0.0.1:7644"};
    req.credentials = credentials_;
    req.access_key_id = key_;
    req.secret_access_key = secret_;
    return HandleConsole(*engine_, *live_, req);
  }

  void CreateTable(const std::string& name) {
    ApiResponse r = Post("/_pogi/api/dynamodb/CreateTable", R"({"TableName":")" + name + R"(",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"})");
    ASSERT_EQ(r.status, 200) << r.body;
  }

  std::unique_ptr<service::Engine> engine_;
  std::unique_ptr<ConsoleLive> live_;
  const Credentials* credentials_ = nullptr;
  std::string key_, secret_, target_, body_;
};

TEST(ConsoleTarget, OnlyPogiPathsButTheMetrics) {
  EXPECT_TRUE(IsConsoleTarget("/_pogi/"));
  EXPECT_TRUE(IsConsoleTarget("/_pogi/api/admin/Tables"));
  EXPECT_FALSE(IsConsoleTarget("/_pogi/metrics"));
  EXPECT_FALSE(IsConsoleTarget("/"));
  EXPECT_FALSE(IsConsoleTarget("/_pogi"));
}

TEST_F(ConsoleTest, ServesTheEmbeddedPage) {
  ApiResponse r = Get("/_pogi/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_NE(r.body.find("/_pogi/console.js"), std::string::npos);
  EXPECT_EQ(Get("/_pogi/console.js").content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(Get("/_pogi/console.css").status, 200);
  ASSERT_NE(FindConsoleAsset(""), nullptr);
  EXPECT_EQ(FindConsoleAsset("")->name, "index.html");
  // Anything else is DynamoDB's answer to a path it does not serve.
  EXPECT_EQ(Get("/_pogi/nothing.txt").status, 404);
  EXPECT_EQ(Post("/_pogi/", "").status, 404);
}

TEST_F(ConsoleTest, RunsDynamoDbOperationsWithDynamoDbErrors) {
  CreateTable("items");
  ApiResponse put = Post("/_pogi/api/dynamodb/PutItem",
                         R"({"TableName":"items","Item":{"pk":{"S":"a"},"n":{"N":"1.50"}}})");
  ASSERT_EQ(put.status, 200) << put.body;
  ApiResponse get = Post("/_pogi/api/dynamodb/GetItem", R"({"TableName":"items","Key":{"pk":{"S":"a"}}})");
  // Compared as JSON: an item's attribute order is not defined.
  EXPECT_EQ(nlohmann::json::parse(get.body),
            nlohmann::json::parse(R"({"Item":{"pk":{"S":"a"},"n":{"N":"1.5"}}})"));
  ApiResponse missing = Post("/_pogi/api/dynamodb/GetItem", R"({"TableName":"nope","Key":{"pk":{"S":"a"}}})");
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body.find("ResourceNotFoundException"), std::string::npos);
  ApiResponse bad = Post("/_pogi/api/dynamodb/PutItem", R"({"TableName":"items",)");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("SerializationException"), std::string::npos);
  ApiResponse unknown = Post("/_pogi/api/dynamodb/Explode", "{}");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("UnknownOperationException"), std::string::npos);
}

TEST_F(ConsoleTest, RunsAdminCalls) {
  CreateTable("tab1");
  ApiResponse r = Post("/_pogi/api/admin/Tables", "");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("TableName":"tab1")"), std::string::npos) << r.body;
  ApiResponse bad = Post("/_pogi/api/admin/CreateSnapshot", R"({"Name":"../x"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("invalid snapshot name"), std::string::npos);
  EXPECT_EQ(Post("/_pogi/api/admin/Nope", "{}").status, 400);
  EXPECT_EQ(Get("/_pogi/api/nothing").status, 404);
}

TEST_F(ConsoleTest, RefusesOtherOriginsAndHostNames) {
  target_ = "/_pogi/api/admin/Tables";
  ConsoleRequest req{"POST", target_, "{}", "127.0.0.1:7644"};
  req.has_origin = true;
  req.origin = "http://127.0.0.1:7644";
  EXPECT_EQ(HandleConsole(*engine_, *live_, req).status, 200);
  req.origin = "https://evil.example";
  ApiResponse r = HandleConsole(*engine_, *live_, req);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("AccessDeniedException"), std::string::npos);
  req.has_origin = false;
  req.host = "rebound.example:7644";
  EXPECT_NE(HandleConsole(*engine_, *live_, req).body.find("AccessDeniedException"), std::string::npos);
  req.host = "localhost:7644";
  EXPECT_EQ(HandleConsole(*engine_, *live_, req).status, 200);
}

TEST_F(ConsoleTest, WithCheckedSignaturesNeedsTheCredentials) {
  Credentials creds{"AKID", "s3cret"};
  credentials_ = &creds;
  ApiResponse none = Post("/_pogi/api/admin/Tables", "{}");
  EXPECT_NE(none.body.find("MissingAuthenticationTokenException"), std::string::npos) << none.body;
  key_ = "AKID";
  secret_ = "wrong!";
  EXPECT_NE(Post("/_pogi/api/admin/Tables", "{}").body.find("InvalidSignatureException"), std::string::npos);
  key_ = "OTHER";
  EXPECT_NE(Post("/_pogi/api/admin/Tables", "{}").body.find("UnrecognizedClientException"),
            std::string::npos);
  key_ = "AKID";
  secret_ = "s3cret";
  EXPECT_EQ(Post("/_pogi/api/admin/Tables", "{}").status, 200);
  // The page itself holds no data: it loads, then asks for the credentials.
  EXPECT_EQ(Get("/_pogi/").status, 200);
}

TEST_F(ConsoleTest, PollsChangesAfterACursor) {
  CreateTable("feed");
  ApiResponse first = Get("/_pogi/api/changes");  // starts watching
  EXPECT_EQ(first.body, R"({"Events":[],"Next":0,"Dropped":0})");
  ASSERT_EQ(Post("/_pogi/api/dynamodb/PutItem", R"({"TableName":"feed","Item":{"pk":{"S":"x"}}})").status,
            200);
  ASSERT_EQ(Post("/_pogi/api/dynamodb/DeleteItem", R"({"TableName":"feed","Key":{"pk":{"S":"x"}}})").status,
            200);
  ApiResponse both = Get("/_pogi/api/changes?after=0");
  EXPECT_NE(both.body.find(R"("EventName":"INSERT")"), std::string::npos) << both.body;
  EXPECT_NE(both.body.find(R"("EventName":"REMOVE")"), std::string::npos);
  EXPECT_NE(both.body.find(R"("Next":2)"), std::string::npos) << both.body;
  ApiResponse after = Get("/_pogi/api/changes?after=1");
  EXPECT_EQ(after.body.find("INSERT"), std::string::npos);
  EXPECT_NE(after.body.find("REMOVE"), std::string::npos);
  // A cursor from before a restart starts over.
  ApiResponse stale = Get("/_pogi/api/changes?after=99");
  EXPECT_NE(stale.body.find("INSERT"), std::string::npos);
  EXPECT_NE(stale.body.find(R"("Next":2)"), std::string::npos);
}

TEST_F(ConsoleTest, PollsTheRequestTail) {
  EXPECT_EQ(Get("/_pogi/api/requests").body, R"({"Requests":[],"Next":0})");
  service::RequestRecord record;
  record.door = "http";
  record.operation = "GetItem";
  record.table = "t\"q";
  record.status = 200;
  record.latency_us = 42;
  engine_->request_observers().Publish(record);
  ApiResponse r = Get("/_pogi/api/requests?after=0");
  EXPECT_NE(r.body.find(R"("Operation":"GetItem","TableName":"t\"q","Status":200)"), std::string::npos)
      << r.body;
  EXPECT_EQ(Get("/_pogi/api/requests?after=1").body, R"({"Requests":[],"Next":1})");
}

}  // namespace
}  // namespace pogi::gateway
