// Tests for the gRPC front door through a real channel: the generated
// DynamoDB stub against rpc::GrpcServer over an in-memory engine. Query and
// Scan answers carry their items as stored bytes (value::CarryItemList);
// here a gRPC client must receive them as ordinary, fully parsed items.
#include "service/rpc/grpc_server.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pogi/v1/dynamodb.grpc.pb.h"
#include "service/engine/engine.h"
#include "tests/unit/value_builders.h"

namespace pogi::rpc {
namespace {

using test::N;
using test::S;

class GrpcServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto engine = service::Engine::Open(options, std::make_shared<service::SystemClock>());
    ASSERT_TRUE(engine.ok()) << engine.error().message();
    engine_ = std::move(engine).value();
    auto server = GrpcServer::Start(*engine_, "127.0.0.1", 0, [] {});
    ASSERT_TRUE(server.ok()) << server.error().message();
    server_ = std::move(server).value();
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                       grpc::InsecureChannelCredentials());
    stub_ = v1::DynamoDB::NewStub(channel);

    v1::CreateTableRequest create;
    create.set_table_name("items");
    create.set_billing_mode("PAY_PER_REQUEST");
    for (auto [name, type, key] : {std::tuple{"pk", "S", "HASH"}, std::tuple{"sk", "N", "RANGE"}}) {
      auto* def = create.add_attribute_definitions();
      def->set_attribute_name(name);
      def->set_attribute_type(type);
      auto* k = create.add_key_schema();
      k->set_attribute_name(name);
      k->set_key_type(key);
    }
    v1::CreateTableResponse created;
    grpc::ClientContext ctx;
    grpc::Status st = stub_->CreateTable(&ctx, create, &created);
    ASSERT_TRUE(st.ok()) << st.error_code() << " " << st.error_message();
    for (int i = 0; i < 30; ++i) {
      v1::PutItemRequest put;
      put.set_table_name("items");
      auto& item = *put.mutable_item()->mutable_attributes();
      item["pk"] = S("p");
      item["sk"] = N(std::to_string(i));
      item["payload"] = S(std::string(i, 'x'));
      if (i % 3 == 0) (*item["nested"].mutable_m()->mutable_fields())["n"] = N("1.5");
      v1::PutItemResponse put_resp;
      grpc::ClientContext put_ctx;
      ASSERT_TRUE(stub_->PutItem(&put_ctx, put, &put_resp).ok());
    }
  }

  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  std::unique_ptr<service::Engine> engine_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::DynamoDB::Stub> stub_;
};

TEST_F(GrpcServerTest, QueryItemsArriveParsedAndInOrder) {
  v1::QueryRequest q;
  q.set_table_name("items");
  q.set_key_condition_expression("pk = :p");
  (*q.mutable_expression_attribute_values()->mutable_attributes())[":p"] = S("p");
  q.set_limit(20);
  v1::QueryResponse resp;
  grpc::ClientContext ctx;
  grpc::Status status = stub_->Query(&ctx, q, &resp);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(resp.count(), 20);
  ASSERT_EQ(resp.items().items_size(), 20);
  for (int i = 0; i < 20; ++i) {
    const auto& item = resp.items().items(i).attributes();
    EXPECT_EQ(item.at("sk").n(), std::to_string(i));
    EXPECT_EQ(item.at("payload").s(), std::string(i, 'x'));
    EXPECT_EQ(item.count("nested"), i % 3 == 0 ? 1u : 0u);
  }
  EXPECT_EQ(resp.last_evaluated_key().at("sk").n(), "19");
}

TEST_F(GrpcServerTest, ScanAndProjectedQueryItemsArriveParsed) {
  v1::ScanRequest scan;
  scan.set_table_name("items");
  v1::ScanResponse scanned;
  grpc::ClientContext scan_ctx;
  ASSERT_TRUE(stub_->Scan(&scan_ctx, scan, &scanned).ok());
  EXPECT_EQ(scanned.items().items_size(), 30);

  v1::QueryRequest q;
  q.set_table_name("items");
  q.set_key_condition_expression("pk = :p");
  q.set_projection_expression("sk");
  (*q.mutable_expression_attribute_values()->mutable_attributes())[":p"] = S("p");
  v1::QueryResponse projected;
  grpc::ClientContext q_ctx;
  ASSERT_TRUE(stub_->Query(&q_ctx, q, &projected).ok());
  ASSERT_EQ(projected.items().items_size(), 30);
  for (const auto& item : projected.items().items()) EXPECT_EQ(item.attributes().size(), 1u);

  q.set_select("COUNT");
  q.clear_projection_expression();
  v1::QueryResponse counted;
  grpc::ClientContext c_ctx;
  ASSERT_TRUE(stub_->Query(&c_ctx, q, &counted).ok());
  EXPECT_EQ(counted.count(), 30);
  EXPECT_FALSE(counted.has_items());
}

}  // namespace
}  // namespace pogi::rpc
