// A test fixture for the gRPC door: an in-memory engine behind a real
// rpc::GrpcServer on a free port, and the generated DynamoDB stub on a
// channel to it.
#pragma once

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pogi/v1/dynamodb.grpc.pb.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"

namespace pogi::rpc {

class GrpcDoorTest : public ::testing::Test {
 protected:
  // Subclasses that override SetUp call this first.
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
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  // An on-demand table keyed by the string attribute "pk".
  static v1::CreateTableRequest HashTable(const std::string& name) {
    v1::CreateTableRequest create;
    create.set_table_name(name);
    create.set_billing_mode("PAY_PER_REQUEST");
    auto* def = create.add_attribute_definitions();
    def->set_attribute_name("pk");
    def->set_attribute_type("S");
    auto* k = create.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    return create;
  }

  std::unique_ptr<service::Engine> engine_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::DynamoDB::Stub> stub_;
};

}  // namespace pogi::rpc
