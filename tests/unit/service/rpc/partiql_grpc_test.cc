// The three PartiQL operations through the gRPC front door: a real channel,
// the generated DynamoDB stub, rpc::GrpcServer over an in-memory engine.
// SELECT pages carry their items as stored bytes; a gRPC client must
// receive them parsed, and errors with DynamoDB's type.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pogi/v1/dynamodb.grpc.pb.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"
#include "tests/unit/service/rpc/grpc_door_fixture.h"

namespace pogi::rpc {
namespace {

class PartiqlGrpcTest : public GrpcDoorTest {
 protected:
  void SetUp() override {
    GrpcDoorTest::SetUp();
    if (HasFatalFailure()) return;
    v1::CreateTableRequest create = HashTable("items");
    v1::CreateTableResponse created;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->CreateTable(&ctx, create, &created).ok());
  }

  grpc::Status Execute(const std::string& statement, v1::ExecuteStatementResponse* resp) {
    v1::ExecuteStatementRequest req;
    req.set_statement(statement);
    grpc::ClientContext ctx;
    return stub_->ExecuteStatement(&ctx, req, resp);
  }
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
