// Transient states kept in a table's description: the statuses they show,
// their ends in order, and what DynamoDB refuses while they last.
#include "service/core/transitions.h"

#include <gtest/gtest.h>

#include "service/core/catalog.h"
#include "service/core/region.h"

namespace pogi::service {
namespace {

v1::TableDescription TableWithIndexes() {
  v1::TableDescription d;
  d.set_table_name("orders");
  d.set_table_status("ACTIVE");
  for (const char* a : {"pk", "g", "h"}) {
    auto* def = d.add_attribute_definitions();
    def->set_attribute_name(a);
    def->set_attribute_type("S");
  }
  auto* k = d.add_key_schema();
  k->set_attribute_name("pk");
  k->set_key_type("HASH");
  for (auto [name, key] : {std::pair{"by-g", "g"}, std::pair{"by-h", "h"}}) {
    auto* g = d.add_global_secondary_indexes();
    g->set_index_name(name);
    g->set_index_status("ACTIVE");
    auto* gk = g->add_key_schema();
    gk->set_attribute_name(key);
    gk->set_key_type("HASH");
    g->mutable_projection()->set_projection_type("ALL");
  }
  return d;
}

const v1::GlobalSecondaryIndexDescription& Gsi(const v1::TableDescription& d, const std::string& name) {
  for (const auto& g : d.global_secondary_indexes()) {
    if (g.index_name() == name) return g;
  }
  static const v1::GlobalSecondaryIndexDescription none;
  return none;
}

TEST(TransitionsTest, NoneUnderWay) {
  v1::TableDescription d = TableWithIndexes();
  EXPECT_EQ(NextTransitionEnd(d), kNoTransition);
  EXPECT_TRUE(EndTransitionsDue(d, 1e12).empty());
  EXPECT_TRUE(TableServesItems(d));
  EXPECT_TRUE(IndexReadable(d, "by-g"));
  EXPECT_TRUE(CheckTableChangeable(d, true).ok());
  EXPECT_TRUE(CheckNoIndexInTransition(d).ok());
}

TEST(TransitionsTest, TableCreatingShowsItsIndexesCreatingWithoutBackfilling) {
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kTableCreating, "", 100);
  ApplyTransitionStatuses(d);
  EXPECT_EQ(d.table_status(), "CREATING");
  EXPECT_EQ(Gsi(d, "by-g").index_status(), "CREATING");
  EXPECT_FALSE(Gsi(d, "by-g").has_backfilling());  // made with its table
  EXPECT_FALSE(TableServesItems(d));
  EXPECT_FALSE(IndexReadable(d, "by-g"));
  EXPECT_EQ(NextTransitionEnd(d), 100);
  Status s = CheckTableChangeable(d, false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kResourceInUse);
  EXPECT_EQ(s.error().message(),
            "Attempt to change a resource which is still in use: Table is being created: orders");

  EXPECT_TRUE(EndTransitionsDue(d, 99.9).empty());  // not yet
  auto ended = EndTransitionsDue(d, 100);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].phase(), kTableCreating);
  EXPECT_EQ(d.table_status(), "ACTIVE");
  EXPECT_EQ(Gsi(d, "by-g").index_status(), "ACTIVE");
  EXPECT_TRUE(TableServesItems(d));
  EXPECT_EQ(NextTransitionEnd(d), kNoTransition);
}

TEST(TransitionsTest, AddedIndexIsAllocatedThenBackfilledThenActive) {
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kIndexCreating, "by-h", 10);
  BeginTransition(d, kIndexBackfilling, "by-h", 25);
  ApplyTransitionStatuses(d);
  // Allocation: the table UPDATING, the index CREATING, Backfilling false.
  EXPECT_EQ(d.table_status(), "UPDATING");
  EXPECT_EQ(Gsi(d, "by-h").index_status(), "CREATING");
  ASSERT_TRUE(Gsi(d, "by-h").has_backfilling());
  EXPECT_FALSE(Gsi(d, "by-h").backfilling());
  EXPECT_EQ(Gsi(d, "by-g").index_status(), "ACTIVE");
  EXPECT_TRUE(TableServesItems(d));  // items are served meanwhile
  EXPECT_FALSE(IndexReadable(d, "by-h"));
  EXPECT_TRUE(IndexReadable(d, "by-g"));
  EXPECT_EQ(CheckNoIndexInTransition(d).error().message(),
            "Attempt to change a resource which is still in use: Cannot delete table while indexes are being "
            "created, updated, or deleted.");
  EXPECT_EQ(CheckTableChangeable(d, true).error().message(),
            "Attempt to change a resource which is still in use: Table is being updated: orders");

  // Backfilling: the table ACTIVE again, the index still not readable.
  EXPECT_EQ(EndTransitionsDue(d, 12).size(), 1u);
  EXPECT_EQ(d.table_status(), "ACTIVE");
  EXPECT_EQ(Gsi(d, "by-h").index_status(), "CREATING");
  EXPECT_TRUE(Gsi(d, "by-h").backfilling());
  EXPECT_FALSE(IndexReadable(d, "by-h"));
  EXPECT_TRUE(CheckTableChangeable(d, true).ok());

  EXPECT_EQ(EndTransitionsDue(d, 25).size(), 1u);
  EXPECT_EQ(Gsi(d, "by-h").index_status(), "ACTIVE");
  EXPECT_FALSE(Gsi(d, "by-h").has_backfilling());
  EXPECT_TRUE(IndexReadable(d, "by-h"));
}

TEST(TransitionsTest, AClockJumpEndsEveryPhaseInOrder) {
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kIndexBackfilling, "by-h", 25);  // begun out of order on purpose
  BeginTransition(d, kIndexCreating, "by-h", 10);
  ApplyTransitionStatuses(d);
  EXPECT_FALSE(Gsi(d, "by-h").backfilling());  // the earliest phase is the current one
  auto ended = EndTransitionsDue(d, 1000);
  ASSERT_EQ(ended.size(), 2u);
  EXPECT_EQ(ended[0].phase(), kIndexCreating);
  EXPECT_EQ(ended[1].phase(), kIndexBackfilling);
  EXPECT_EQ(d.table_status(), "ACTIVE");
  EXPECT_EQ(Gsi(d, "by-h").index_status(), "ACTIVE");
  EXPECT_EQ(d.pogi_transitions_size(), 0);
}

TEST(TransitionsTest, DeletedIndexLeavesWithItsAttributeDefinitionWhenDeletingEnds) {
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kIndexDeleting, "by-h", 50);
  ApplyTransitionStatuses(d);
  EXPECT_EQ(d.table_status(), "UPDATING");
  EXPECT_EQ(Gsi(d, "by-h").index_status(), "DELETING");
  EXPECT_EQ(d.attribute_definitions_size(), 3);  // h is still in use
  EndTransitionsDue(d, 50);
  EXPECT_EQ(d.global_secondary_indexes_size(), 1);
  EXPECT_EQ(d.global_secondary_indexes(0).index_name(), "by-g");
  EXPECT_EQ(d.attribute_definitions_size(), 2);
  for (const auto& a : d.attribute_definitions()) EXPECT_NE(a.attribute_name(), "h");
  EXPECT_EQ(d.table_status(), "ACTIVE");
}

TEST(TransitionsTest, TableDeletingRefusesItsItemsAndChanges) {
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kTableDeleting, "", 5);
  ApplyTransitionStatuses(d);
  EXPECT_EQ(d.table_status(), "DELETING");
  EXPECT_FALSE(TableServesItems(d));
  EXPECT_EQ(CheckTableChangeable(d, false).error().message(),
            "Attempt to change a resource which is still in use: Table is being deleted: orders");
  auto ended = EndTransitionsDue(d, 5);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].phase(), kTableDeleting);  // the engine drops the table
}

TEST(TransitionsTest, ReadOfAnIndexBeingCreated) {
  Error e = IndexNotReadable("by-h");
  EXPECT_EQ(e.code(), ErrorCode::kValidation);
  EXPECT_EQ(e.message(), "Cannot read from backfilling global secondary index: by-h");
}

TEST(TransitionsTest, CatalogLeavesOutAnIndexBeingDeletedAndTracksTheNextEnd) {
  Catalog catalog;
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kIndexDeleting, "by-h", 50);
  BeginTransition(d, kTableUpdating, "", 40);
  ApplyTransitionStatuses(d);
  catalog.Put(catalog.Make(1, d, {{"by-g", 11}}));
  auto t = catalog.Find("orders");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->indexes.size(), 1u);
  EXPECT_EQ(t->indexes[0].name, "by-g");
  EXPECT_TRUE(t->serves_items);
  EXPECT_EQ(t->transition_end, 40);
  EXPECT_EQ(catalog.next_transition_end(), 40);
  catalog.Remove("orders", Region());
  EXPECT_EQ(catalog.next_transition_end(), kNoTransition);
}

TEST(TransitionsTest, CatalogMarksAnIndexBeingCreatedUnreadable) {
  Catalog catalog;
  v1::TableDescription d = TableWithIndexes();
  BeginTransition(d, kIndexBackfilling, "by-h", 50);
  ApplyTransitionStatuses(d);
  auto t = catalog.Make(1, d, {{"by-g", 11}, {"by-h", 12}});
  ASSERT_EQ(t->indexes.size(), 2u);
  EXPECT_TRUE(t->FindIndex("by-g")->readable);
  EXPECT_FALSE(t->FindIndex("by-h")->readable);
}

TEST(TransitionsTest, Delays) {
  TransientDelays none;
  EXPECT_EQ(none.table_creating, 0);
  EXPECT_EQ(none.index_deleting, 0);
  TransientDelays all = TransientDelays::Uniform(7);
  EXPECT_EQ(all.table_creating, 7);
  EXPECT_EQ(all.table_deleting, 7);
  EXPECT_EQ(all.index_backfilling, 7);
  EXPECT_EQ(all.replica_creating, 7);
  EXPECT_EQ(all.replica_deleting, 7);
  // DynamoDB Local's flag delays online index changes only.
  TransientDelays local = TransientDelays::DynamoDbLocal();
  EXPECT_EQ(local.table_creating, 0);
  EXPECT_EQ(local.table_updating, 0);
  EXPECT_EQ(local.index_creating + local.index_backfilling, 30);
  EXPECT_EQ(local.index_deleting, 15);
}

// A global table's replica: CREATING then ACTIVE; DELETING then out of
// the list, which goes with GlobalTableVersion once one replica is left.
TEST(TransitionsTest, ReplicaStatuses) {
  v1::TableDescription d = TableWithIndexes();
  for (const char* region : {"us-east-1", "us-west-2", "eu-west-1"})
    d.add_replicas()->set_region_name(region);
  d.set_global_table_version("2019.11.21");
  BeginTransition(d, kReplicaCreating, ReplicaSubject("eu-west-1"), 10);
  BeginTransition(d, kReplicaDeleting, ReplicaSubject("us-west-2"), 20);
  ApplyTransitionStatuses(d);
  EXPECT_EQ(d.table_status(), "UPDATING");
  EXPECT_EQ(d.replicas(0).replica_status(), "ACTIVE");
  EXPECT_EQ(d.replicas(1).replica_status(), "DELETING");
  EXPECT_EQ(d.replicas(2).replica_status(), "CREATING");
  EndTransitionsDue(d, 10);
  EXPECT_EQ(d.replicas(2).replica_status(), "ACTIVE");
  EXPECT_EQ(d.table_status(), "UPDATING");
  EndTransitionsDue(d, 20);
  ASSERT_EQ(d.replicas_size(), 2);
  EXPECT_EQ(d.replicas(1).region_name(), "eu-west-1");
  EXPECT_EQ(d.table_status(), "ACTIVE");
  EXPECT_EQ(d.global_table_version(), "2019.11.21");
  // The last but one replica deleted: a regional table again.
  BeginTransition(d, kReplicaDeleting, ReplicaSubject("eu-west-1"), 30);
  EndTransitionsDue(d, 30);
  EXPECT_EQ(d.replicas_size(), 0);
  EXPECT_FALSE(d.has_global_table_version());
  // A replica subject is never an index's name.
  EXPECT_EQ(ReplicaSubject("us-west-2"), "replica:us-west-2");
}

}  // namespace
}  // namespace pogi::service
