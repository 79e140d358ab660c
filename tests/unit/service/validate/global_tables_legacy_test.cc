// Tests for the legacy global tables API's checks: member constraints, the
// regions of a ReplicationGroup and of ReplicaUpdates, and the rules a table
// must meet to join a legacy global table.
#include "service/validate/global_tables_legacy.h"

#include <gtest/gtest.h>

namespace pogi::service {
namespace {

v1::TableDescription Member(const std::string& name) {
  v1::TableDescription d;
  d.set_table_name(name);
  auto* a = d.add_attribute_definitions();
  a->set_attribute_name("pk");
  a->set_attribute_type("S");
  auto* k = d.add_key_schema();
  k->set_attribute_name("pk");
  k->set_key_type("HASH");
  d.mutable_stream_specification()->set_stream_enabled(true);
  d.mutable_stream_specification()->set_stream_view_type("NEW_AND_OLD_IMAGES");
  d.mutable_billing_mode_summary()->set_billing_mode("PAY_PER_REQUEST");
  return d;
}

TEST(GlobalTablesLegacyTest, CreateMemberConstraints) {
  v1::CreateGlobalTableRequest req;
  req.set_global_table_name("ab");
  Status s = CheckCreateGlobalTableMembers(req);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kValidation);
  EXPECT_EQ(
      s.error().message(),
      "2 validation errors detected: Value 'ab' at 'globalTableName' failed to satisfy constraint: Member "
      "must have length greater than or equal to 3; Value null at 'replicationGroup' failed to satisfy "
      "constraint: Member must not be null");
  req.set_global_table_name("good");
  req.add_replication_group()->set_region_name("us-east-1");
  EXPECT_TRUE(CheckCreateGlobalTableMembers(req).ok());
}

TEST(GlobalTablesLegacyTest, ReplicationGroupRegions) {
  EXPECT_TRUE(CheckReplicationGroup({"us-east-1", "eu-west-1"}).ok());
  Status twice = CheckReplicationGroup({"us-east-1", "us-east-1"});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message(),
            "One or more parameter values were invalid: Duplicate region in ReplicationGroup: us-east-1");
  Status bad = CheckReplicationGroup({"moon"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message(), "One or more parameter values were invalid: Invalid region: moon");
}

TEST(GlobalTablesLegacyTest, ReplicaUpdatesOneActionEach) {
  v1::UpdateGlobalTableRequest req;
  req.set_global_table_name("g");
  req.add_replica_updates()->mutable_create()->set_region_name("eu-west-1");
  req.add_replica_updates()->mutable_delete_()->set_region_name("us-west-2");
  std::vector<std::string> create, remove;
  ASSERT_TRUE(CheckReplicaUpdates(req, &create, &remove).ok());
  EXPECT_EQ(create, std::vector<std::string>{"eu-west-1"});
  EXPECT_EQ(remove, std::vector<std::string>{"us-west-2"});

  auto* both = req.add_replica_updates();
  both->mutable_create()->set_region_name("ap-south-1");
  both->mutable_delete_()->set_region_name("ap-south-1");
  create.clear();
  remove.clear();
  EXPECT_FALSE(CheckReplicaUpdates(req, &create, &remove).ok());

  v1::UpdateGlobalTableRequest none;
  none.set_global_table_name("good");
  Status s = CheckUpdateGlobalTableMembers(none);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.error().message(),
      "1 validation error detected: Value null at 'replicaUpdates' failed to satisfy constraint: Member must "
      "not be null");
}

TEST(GlobalTablesLegacyTest, ListLimitAtLeastOne) {
  v1::ListGlobalTablesRequest req;
  req.set_limit(0);
  Status s = CheckListGlobalTablesMembers(req);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.error().message(),
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have "
      "value greater than or equal to 1");
}

TEST(GlobalTablesLegacyTest, SettingsMemberConstraints) {
  v1::UpdateGlobalTableSettingsRequest req;
  req.set_global_table_name("good");
  req.set_global_table_billing_mode("FREE");
  req.set_global_table_provisioned_write_capacity_units(0);
  req.add_replica_settings_update()->set_replica_table_class("GOLD");
  Status s = CheckUpdateGlobalTableSettingsMembers(req);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message().find("4 validation errors detected"), std::string::npos)
      << s.error().message();
  EXPECT_NE(s.error().message().find("'replicaSettingsUpdate.1.member.regionName'"), std::string::npos);
}

TEST(GlobalTablesLegacyTest, MemberNeedsNewAndOldImages) {
  v1::TableDescription d = Member("t");
  EXPECT_TRUE(CheckLegacyMember(d, "us-east-1", nullptr).ok());
  d.mutable_stream_specification()->set_stream_view_type("NEW_IMAGE");
  Status s = CheckLegacyMember(d, "us-east-1", nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.error().message(),
      "One or more parameter values were invalid: Table: t in region: us-east-1 must have DynamoDB Streams "
      "enabled with StreamViewType NEW_AND_OLD_IMAGES");
  d.clear_stream_specification();
  EXPECT_FALSE(CheckLegacyMember(d, "us-east-1", nullptr).ok());
}

TEST(GlobalTablesLegacyTest, MemberMatchesTheOthers) {
  const v1::TableDescription model = Member("t");
  v1::TableDescription other = Member("t");
  EXPECT_TRUE(CheckLegacyMember(other, "us-west-2", &model).ok());
  // The key's type differs.
  other.mutable_attribute_definitions(0)->set_attribute_type("N");
  EXPECT_NE(CheckLegacyMember(other, "us-west-2", &model).error().message().find("key schema"),
            std::string::npos);
  // An index the model lacks.
  other = Member("t");
  auto* g = other.add_global_secondary_indexes();
  g->set_index_name("by-pk");
  *g->mutable_key_schema() = other.key_schema();
  EXPECT_NE(CheckLegacyMember(other, "us-west-2", &model).error().message().find("global secondary indexes"),
            std::string::npos);
  // Provisioned against on-demand; then different write units.
  other = Member("t");
  other.clear_billing_mode_summary();
  other.mutable_provisioned_throughput()->set_write_capacity_units(5);
  EXPECT_NE(CheckLegacyMember(other, "us-west-2", &model).error().message().find("write capacity"),
            std::string::npos);
  v1::TableDescription provisioned = other;
  provisioned.mutable_provisioned_throughput()->set_write_capacity_units(6);
  EXPECT_FALSE(CheckLegacyMember(other, "us-west-2", &provisioned).ok());
  provisioned.mutable_provisioned_throughput()->set_write_capacity_units(5);
  EXPECT_TRUE(CheckLegacyMember(other, "us-west-2", &provisioned).ok());
}

}  // namespace
}  // namespace pogi::service
