// Tests for the ConsumedCapacity shapes: an index read shows Table (0, or an
// LSI's fetches from the table) beside the index under INDEXES.
#include "service/validate/capacity.h"

#include <gtest/gtest.h>

namespace pogi::service {
namespace {

TEST(CapacityTest, IndexReadShowsTableZero) {
  v1::ConsumedCapacity c;
  FillIndexReadConsumed("INDEXES", "t", {"by-g", true, 0.5}, 0, &c);
  EXPECT_EQ(c.table_name(), "t");
  EXPECT_EQ(c.capacity_units(), 0.5);
  ASSERT_TRUE(c.has_table());
  EXPECT_EQ(c.table().capacity_units(), 0);
  EXPECT_EQ(c.global_secondary_indexes().at("by-g").capacity_units(), 0.5);
  EXPECT_TRUE(c.local_secondary_indexes().empty());
}

// Recorded: an LSI Query fetching ~8.3 KB of items, consistent: Table 3,
// index 1, total 4.
TEST(CapacityTest, LocalIndexFetchIsChargedToTheTable) {
  v1::ConsumedCapacity c;
  FillIndexReadConsumed("INDEXES", "t", {"by-l", false, ReadUnits(300, true)}, ReadUnits(8400, true), &c);
  EXPECT_EQ(c.capacity_units(), 4);
  EXPECT_EQ(c.table().capacity_units(), 3);
  EXPECT_EQ(c.local_secondary_indexes().at("by-l").capacity_units(), 1);
}

TEST(CapacityTest, TotalHasNoBreakdown) {
  v1::ConsumedCapacity c;
  FillIndexReadConsumed("TOTAL", "t", {"by-g", true, 1}, 0, &c);
  EXPECT_EQ(c.capacity_units(), 1);
  EXPECT_FALSE(c.has_table());
  EXPECT_TRUE(c.global_secondary_indexes().empty());
}

}  // namespace
}  // namespace pogi::service
