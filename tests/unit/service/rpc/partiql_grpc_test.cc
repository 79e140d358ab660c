// The three PartiQL operations through the gRPC front door: a real channel,
// the generated DynamoDB stub, rpc::GrpcServer over an in-memory engine.
// SELECT pages carry their items as stored bytes; a gRPC client must
// receive them parsed, and errors with DynamoDB's type.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pogi/v1/dynamodb.grpc.pb.h"
#include "service/engine.h"
#include "service/rpc/grpc_server.h"

namespace pogi::rpc {
namespace {

class PartiqlGrpcTest : public ::testing::Test {
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
    stub_ = v1::DynamoDB::NewStub(grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                                      grpc::InsecureChannelCredentials()));
    v1::CreateTableRequest create;
    create.set_table_name("items");
    create.set_billing_mode("PAY_PER_REQUEST");
    auto* def = create.add_attribute_definitions();
    def->set_attribute_name("pk");
    def->set_attribute_type("S");
    auto* k = create.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    v1::CreateTableResponse created;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->CreateTable(&ctx, create, &created).ok());
  }

  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  grpc::Status Execute(const std::string& statement, v1::ExecuteStatementResponse* resp) {
    v1::ExecuteStatementRequest req;
    req.set_statement(statement);
    grpc::ClientContext ctx;
    return stub_->ExecuteStatement(&ctx, req, resp);
  }

  std::unique_ptr<service::Engine> engine_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::DynamoDB::Stub> stub_;
};

TEST_F(PartiqlGrpcTest, StatementsTransactionsAndBatches) {
  v1::ExecuteStatementResponse resp;
  ASSERT_TRUE(Execute("INSERT INTO items VALUE {'pk': 'a', 'n': 1.50}", &resp).ok());
  grpc::Status dup = Execute("INSERT INTO items VALUE {'pk': 'a'}", &resp);
  EXPECT_EQ(dup.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_NE(dup.error_message().find("DuplicateItemException"), std::string::npos) << dup.error_message();

  v1::ExecuteTransactionRequest tx;
  tx.add_transact_statements()->set_statement("UPDATE items SET n = n + 1 WHERE pk = 'a'");
  tx.add_transact_statements()->set_statement("INSERT INTO items VALUE {'pk': 'b'}");
  v1::ExecuteTransactionResponse tx_resp;
  grpc::ClientContext tx_ctx;
  ASSERT_TRUE(stub_->ExecuteTransaction(&tx_ctx, tx, &tx_resp).ok());
  EXPECT_EQ(tx_resp.responses_size(), 0);

  v1::ExecuteStatementResponse selected;
  ASSERT_TRUE(Execute("SELECT * FROM items WHERE pk = 'a'", &selected).ok());
  ASSERT_EQ(selected.items().items_size(), 1);
  EXPECT_EQ(selected.items().items(0).attributes().at("n").n(), "2.5");

  v1::BatchExecuteStatementRequest batch;
  batch.add_statements()->set_statement("SELECT * FROM items WHERE pk = 'b'");
  batch.add_statements()->set_statement("SELECT * FROM items WHERE pk = 'zz'");
  v1::BatchExecuteStatementResponse batch_resp;
  grpc::ClientContext batch_ctx;
  ASSERT_TRUE(stub_->BatchExecuteStatement(&batch_ctx, batch, &batch_resp).ok());
  ASSERT_EQ(batch_resp.responses_size(), 2);
  EXPECT_EQ(batch_resp.responses(0).item().at("pk").s(), "b");
  EXPECT_TRUE(batch_resp.responses(1).item().empty());
  EXPECT_EQ(batch_resp.responses(1).table_name(), "items");
}

}  // namespace
}  // namespace pogi::rpc
