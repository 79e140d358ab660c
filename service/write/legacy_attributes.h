// Global tables version 2017.11.29 (legacy): the attributes DynamoDB's
// legacy replication adds to every item of a member table, kept by the one
// write path. DynamoDB documents three, and says not to alter them nor to
// create attributes of the same names:
//   aws:rep:updateregion  S     the region the item's last write was made in
//   aws:rep:updatetime    N     that write's time, seconds since the epoch
//                               with microseconds ("1554766902.780001")
//   aws:rep:deleting      BOOL  false (DynamoDB's replication sets it while
//                               it carries out a delete; never seen on an
//                               item a read returns here)
// DynamoDB adds them after the write, in a second write of its own (so a
// legacy table's stream shows each write twice); pogi adds them in the
// write itself: the item is never seen without them, its stream record
// shows them once, and a replicated write carries them from the region it
// was made in. The answer of the write itself (ReturnValues) does not show
// them, as DynamoDB's does not.
#pragma once

#include <string_view>

#include "service/core/catalog.h"
#include "service/value/item.h"

namespace pogi::service {

// The GlobalTableVersion a legacy member's stored description carries
// (DescribeTable does not show it: DynamoDB tells legacy tables by
// DescribeGlobalTable).
inline constexpr std::string_view kLegacyGlobalTableVersion = "2017.11.29";

inline bool IsLegacyGlobalMember(const v1::TableDescription& d) {
  return d.global_table_version() == kLegacyGlobalTableVersion;
}

// `item` with the three attributes of a write made in `region` at `now`
// (seconds since the epoch).
value::AttributeMap WithLegacyAttributes(const value::AttributeMap& item, std::string_view region,
                                         double now);

}  // namespace pogi::service
