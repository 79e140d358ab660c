// The control plane through the gRPC door: the generated DynamoDB stub
// against rpc::GrpcServer over an in-memory engine (tags, backups and a
// restore, point-in-time recovery, DescribeEndpoints without an HTTP Host).
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "pogi/v1/dynamodb.grpc.pb.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"
#include "tests/unit/service/rpc/grpc_door_fixture.h"
#include "tests/unit/value_builders.h"

namespace pogi::rpc {
namespace {

using test::S;

class ControlPlaneGrpcTest : public GrpcDoorTest {
 protected:
  void SetUp() override {
    GrpcDoorTest::SetUp();
    if (HasFatalFailure()) return;
    v1::CreateTableRequest create = HashTable("tab1");
    auto* tag = create.add_tags();
    tag->set_key("team");
    tag->set_value("core");
    v1::CreateTableResponse created;
    grpc::Status st = Call(&v1::DynamoDB::Stub::CreateTable, create, &created);
    ASSERT_TRUE(st.ok()) << st.error_message();
    arn_ = created.table_description().table_arn();
    for (const char* pk : {"a", "b"}) {
      v1::PutItemRequest put;
      put.set_table_name("tab1");
      (*put.mutable_item()->mutable_attributes())["pk"] = S(pk);
      v1::PutItemResponse r;
      ASSERT_TRUE(Call(&v1::DynamoDB::Stub::PutItem, put, &r).ok());
    }
  }
  template <typename Req, typename Resp>
  grpc::Status Call(grpc::Status (v1::DynamoDB::Stub::*method)(grpc::ClientContext*, const Req&, Resp*),
                    const Req& req, Resp* resp) {
    grpc::ClientContext ctx;
    return (stub_.get()->*method)(&ctx, req, resp);
  }

  std::string arn_;
};

TEST_F(ControlPlaneGrpcTest, TagsOfCreateTableAndTagResource) {
  v1::TagResourceRequest tag;
  tag.set_resource_arn(arn_);
  auto* t = tag.add_tags();
  t->set_key("env");
  t->set_value("ci");
  v1::TagResourceResponse tagged;
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::TagResource, tag, &tagged).ok());
  v1::ListTagsOfResourceRequest list;
  list.set_resource_arn(arn_);
  v1::ListTagsOfResourceResponse tags;
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::ListTagsOfResource, list, &tags).ok());
  ASSERT_EQ(tags.tags_size(), 2);
  EXPECT_EQ(tags.tags(0).key(), "env");
  EXPECT_EQ(tags.tags(1).key(), "team");
  list.set_resource_arn(arn_ + "x");
  grpc::Status st = Call(&v1::DynamoDB::Stub::ListTagsOfResource, list, &tags);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(st.error_message().find("ResourceNotFoundException"), std::string::npos);
}

TEST_F(ControlPlaneGrpcTest, BackupRestoreAndPitr) {
  v1::UpdateContinuousBackupsRequest pitr;
  pitr.set_table_name("tab1");
  pitr.mutable_point_in_time_recovery_specification()->set_point_in_time_recovery_enabled(true);
  v1::UpdateContinuousBackupsResponse pitr_on;
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::UpdateContinuousBackups, pitr, &pitr_on).ok());
  EXPECT_EQ(
      pitr_on.continuous_backups_description().point_in_time_recovery_description().recovery_period_in_days(),
      35);
  v1::CreateBackupRequest backup;
  backup.set_table_name("tab1");
  backup.set_backup_name("grpc");
  v1::CreateBackupResponse made;
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::CreateBackup, backup, &made).ok());
  v1::RestoreTableFromBackupRequest restore;
  restore.set_target_table_name("tab2");
  restore.set_backup_arn(made.backup_details().backup_arn());
  v1::RestoreTableFromBackupResponse restored;
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::RestoreTableFromBackup, restore, &restored).ok());
  EXPECT_EQ(restored.table_description().item_count(), 2);
  v1::RestoreTableToPointInTimeRequest pit;
  pit.set_source_table_name("tab1");
  pit.set_target_table_name("tab3");
  pit.set_use_latest_restorable_time(true);
  v1::RestoreTableToPointInTimeResponse pit_restored;
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::RestoreTableToPointInTime, pit, &pit_restored).ok());
  EXPECT_EQ(pit_restored.table_description().item_count(), 2);
  EXPECT_EQ(pit_restored.table_description().restore_summary().source_table_arn(), arn_);
  grpc::Status st = Call(&v1::DynamoDB::Stub::RestoreTableFromBackup, restore, &restored);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_NE(st.error_message().find("TableAlreadyExistsException"), std::string::npos);
}

TEST_F(ControlPlaneGrpcTest, DescribeEndpointsNeedsTheAddress) {
  v1::DescribeEndpointsRequest req;
  v1::DescribeEndpointsResponse resp;
  EXPECT_EQ(Call(&v1::DynamoDB::Stub::DescribeEndpoints, req, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  req.set_pogi_host("db.example:7644");
  ASSERT_TRUE(Call(&v1::DynamoDB::Stub::DescribeEndpoints, req, &resp).ok());
  ASSERT_EQ(resp.endpoints_size(), 1);
  EXPECT_EQ(resp.endpoints(0).address(), "db.example:7644");
  EXPECT_EQ(resp.endpoints(0).cache_period_in_minutes(), 1440);
}

}  // namespace
}  // namespace pogi::rpc
