// Global tables version 2017.11.29 (legacy): what the legacy API keeps of a
// global table, and how it finds the table of a region.
//
// A legacy global table is a group of same-named tables, one per region.
// Two things are kept:
//   - each member table's stored description carries the group as its
//     Replicas, GlobalTableVersion "2017.11.29" and (while the group has
//     more than one member) a replication queue: the 2019.11.21 machinery
//     (write/replication_queue.h, engine/engine_replication.cc) then
//     replicates between them, and the write path adds the aws:rep:*
//     attributes (write/legacy_attributes.h). DescribeTable hides the
//     Replicas and the version, as DynamoDB's does for a legacy table;
//   - the global table's own record, in a value shared by every process on
//     the database ("legacy-global-table:NAME"): a TableDescription used as
//     a record, holding the name, the global table's ARN, its creation
//     time, its ReplicationGroup (as Replicas: region names only) and its
//     transient states (core/transitions.h: kTableCreating shows CREATING,
//     kTableUpdating UPDATING, until pogi's clock passes them).
// The auto scaling settings UpdateGlobalTableSettings stores are each
// member table's, where replica auto scaling keeps them
// (core/auto_scaling_store.h); pogi never scales capacity by itself.
//
// "The table of region R": the table a request signed for R sees
// (SeenFrom). Under --strict-regions that is R's own table. In the default
// mode (one namespace) it is R's own table if there is one, else the table
// every region shares (the home region's, where CreateTable puts tables):
// a user who created the table once (a second CreateTable from another
// region answers ResourceInUseException there, since the table already
// answers that region) can name any region in CreateGlobalTable, and pogi
// makes the member of each region that has no table of its own, empty and
// with the shared table's schema, settings and a NEW_AND_OLD_IMAGES stream,
// as the legacy flow's CreateTable in that region would have.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/catalog.h"
#include "storage/storage.h"

namespace pogi::service {

// "arn:aws:dynamodb::ACCOUNT:global-table/NAME": no region, as DynamoDB's.
std::string GlobalTableArnOf(const std::string& name);

// The table a request signed for `region` sees under `name` (see above),
// or null.
std::shared_ptr<const Table> SeenFrom(const Catalog& catalog, const std::string& name,
                                      const std::string& region);

// The record of legacy global table `name`, its transitions ended up to
// clock time `now` (statuses applied), or nullopt.
Result<std::optional<v1::TableDescription>> ReadLegacyRecord(storage::ReadTxn& txn, const std::string& name,
                                                             double now);
// Stores (or, `record` null, forgets) the record of legacy global table `name`.
Status WriteLegacyRecord(storage::WriteTxn& txn, const std::string& name, const v1::TableDescription* record);

// The legacy API's view of a record.
v1::GlobalTableDescription DescribeLegacyRecord(const v1::TableDescription& record);

}  // namespace pogi::service
