// Tests for streams, TTL, the clock and the change feed through the gRPC
// door: pogi.v1.DynamoDBStreams over the generic service, and the Admin
// clock calls and WatchChanges stream, against a real channel.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "pogi/v1/admin.grpc.pb.h"
#include "pogi/v1/dynamodb.grpc.pb.h"
#include "pogi/v1/streams.grpc.pb.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"
#include "tests/unit/value_builders.h"

namespace pogi::rpc {
namespace {

using test::N;
using test::S;

constexpr double kT0 = 1893456000;

class StreamsGrpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto engine = service::Engine::Open(options, std::make_shared<service::ControllableClock>(kT0, true));
    ASSERT_TRUE(engine.ok()) << engine.error().message();
    engine_ = std::move(engine).value();
    auto server = GrpcServer::Start(*engine_, "127.0.0.1", 0, [] {});
    ASSERT_TRUE(server.ok()) << server.error().message();
    server_ = std::move(server).value();
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                       grpc::InsecureChannelCredentials());
    dynamo_ = v1::DynamoDB::NewStub(channel);
    streams_ = v1::DynamoDBStreams::NewStub(channel);
    admin_ = v1::Admin::NewStub(channel);

    v1::CreateTableRequest create;
    create.set_table_name("items");
    create.set_billing_mode("PAY_PER_REQUEST");
    auto* def = create.add_attribute_definitions();
    def->set_attribute_name("pk");
    def->set_attribute_type("S");
    auto* k = create.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    create.mutable_stream_specification()->set_stream_enabled(true);
    create.mutable_stream_specification()->set_stream_view_type("NEW_AND_OLD_IMAGES");
    v1::CreateTableResponse created;
    grpc::ClientContext ctx;
    ASSERT_TRUE(dynamo_->CreateTable(&ctx, create, &created).ok());
    arn_ = created.table_description().latest_stream_arn();
  }

  void Put(const std::string& pk, const std::string& exp) {
    v1::PutItemRequest put;
    put.set_table_name("items");
    (*put.mutable_item()->mutable_attributes())["pk"] = S(pk);
    (*put.mutable_item()->mutable_attributes())["exp"] = N(exp);
    v1::PutItemResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(dynamo_->PutItem(&ctx, put, &resp).ok());
  }

  std::unique_ptr<service::Engine> engine_;
  std::unique_ptr<GrpcServer> server_;
  std::unique_ptr<v1::DynamoDB::Stub> dynamo_;
  std::unique_ptr<v1::DynamoDBStreams::Stub> streams_;
  std::unique_ptr<v1::Admin::Stub> admin_;
  std::string arn_;
};

TEST_F(StreamsGrpcTest, TtlExpiryByAdvanceClockAndItsRecordOverStreams) {
  v1::UpdateTimeToLiveRequest ttl;
  ttl.set_table_name("items");
  ttl.mutable_time_to_live_specification()->set_enabled(true);
  ttl.mutable_time_to_live_specification()->set_attribute_name("exp");
  v1::UpdateTimeToLiveResponse ttl_resp;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(dynamo_->UpdateTimeToLive(&ctx, ttl, &ttl_resp).ok());
  }
  Put("a", std::to_string(static_cast<int64_t>(kT0) + 3600));

  // Watch from here on.
  grpc::ClientContext watch_ctx;
  v1::WatchChangesRequest watch;
  watch.set_table_name("items");
  auto reader = admin_->WatchChanges(&watch_ctx, watch);
  v1::ChangeEvent event;
  ASSERT_TRUE(reader->Read(&event));
  EXPECT_EQ(event.event_name(), "WATCHING");

  v1::AdvanceClockRequest advance;
  advance.set_seconds(3600);
  v1::ClockState clock;
  {
    grpc::ClientContext ctx;
    grpc::Status st = admin_->AdvanceClock(&ctx, advance, &clock);
    ASSERT_TRUE(st.ok()) << st.error_message();
  }
  EXPECT_EQ(clock.now(), kT0 + 3600);
  EXPECT_TRUE(clock.frozen());

  ASSERT_TRUE(reader->Read(&event));
  EXPECT_EQ(event.event_name(), "REMOVE");
  EXPECT_TRUE(event.ttl());
  EXPECT_EQ(event.keys().at("pk").s(), "a");
  EXPECT_EQ(event.old_item().attributes().at("exp").n(), std::to_string(static_cast<int64_t>(kT0) + 3600));
  EXPECT_FALSE(event.has_new_item());
  EXPECT_FALSE(event.sequence_number().empty());
  watch_ctx.TryCancel();
  reader->Finish();

  v1::DescribeStreamRequest describe;
  describe.set_stream_arn(arn_);
  v1::DescribeStreamResponse described;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(streams_->DescribeStream(&ctx, describe, &described).ok());
  }
  ASSERT_EQ(described.stream_description().shards_size(), 1);
  v1::GetShardIteratorRequest it_req;
  it_req.set_stream_arn(arn_);
  it_req.set_shard_id(described.stream_description().shards(0).shard_id());
  it_req.set_shard_iterator_type("TRIM_HORIZON");
  v1::GetShardIteratorResponse it;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(streams_->GetShardIterator(&ctx, it_req, &it).ok());
  }
  v1::GetRecordsRequest get;
  get.set_shard_iterator(it.shard_iterator());
  v1::GetRecordsResponse records;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(streams_->GetRecords(&ctx, get, &records).ok());
  }
  ASSERT_EQ(records.records_size(), 2);
  EXPECT_EQ(records.records(0).event_name(), "INSERT");
  EXPECT_EQ(records.records(1).event_name(), "REMOVE");
  EXPECT_EQ(records.records(1).user_identity().principal_id(), "dynamodb.amazonaws.com");
  EXPECT_EQ(records.records(1).dynamodb().sequence_number(), event.sequence_number());
}

TEST_F(StreamsGrpcTest, StreamsOperationsAreNotDynamoDbOperations) {
  // The generic door dispatches by service: a streams operation under
  // pogi.v1.DynamoDB is unknown.
  grpc::GenericStub generic(grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                                grpc::InsecureChannelCredentials()));
  v1::ListStreamsRequest req;
  grpc::Slice slice(req.SerializeAsString());
  grpc::ByteBuffer request(&slice, 1), response;
  grpc::ClientContext ctx;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  grpc::Status status;
  generic.UnaryCall(&ctx, "/pogi.v1.DynamoDB/ListStreams", grpc::StubOptions(), &request, &response,
                    [&](grpc::Status s) {
                      std::lock_guard lock(mu);
                      status = s;
                      done = true;
                      cv.notify_one();
                    });
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return done; });
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

}  // namespace
}  // namespace pogi::rpc
