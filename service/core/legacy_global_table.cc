// Legacy global tables' records, and the table a region sees.
#include "service/core/legacy_global_table.h"

#include "service/core/region.h"
#include "service/core/transitions.h"

namespace pogi::service {
namespace {

std::string RecordKey(const std::string& name) { return "legacy-global-table:" + name; }

}  // namespace

std::string GlobalTableArnOf(const std::string& name) {
  return "arn:aws:dynamodb::" + AccountId() + ":global-table/" + name;
}

std::shared_ptr<const Table> SeenFrom(const Catalog& catalog, const std::string& name,
                                      const std::string& region) {
  if (auto own = catalog.FindIn(name, region)) return own;
  if (StrictRegions()) return nullptr;
  // One namespace: what Catalog::Find answers a request of a region with
  // no table of its own.
  if (auto home = catalog.FindIn(name, Region())) return home;
  auto all = catalog.AllNamed(name);
  return all.empty() ? nullptr : all.front();
}

Result<std::optional<v1::TableDescription>> ReadLegacyRecord(storage::ReadTxn& txn, const std::string& name,
                                                             double now) {
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetSharedValue(RecordKey(name), 0));
  // A forgotten record reads as empty until pruned.
  if (!bytes || bytes->empty()) return std::optional<v1::TableDescription>();
  v1::TableDescription record;
  if (!record.ParseFromString(*bytes)) return Error::Internal("unreadable global table record: " + name);
  EndTransitionsDue(record, now);
  ApplyTransitionStatuses(record);
  return std::optional<v1::TableDescription>(std::move(record));
}

Status WriteLegacyRecord(storage::WriteTxn& txn, const std::string& name,
                         const v1::TableDescription* record) {
  // A forgotten record expires at once (shared values have no delete).
  if (!record) return txn.PutSharedValue(RecordKey(name), "", 1);
  return txn.PutSharedValue(RecordKey(name), record->SerializeAsString(), 0);
}

v1::GlobalTableDescription DescribeLegacyRecord(const v1::TableDescription& record) {
  v1::GlobalTableDescription g;
  for (const auto& r : record.replicas()) g.add_replication_group()->set_region_name(r.region_name());
  g.set_global_table_arn(record.table_arn());
  g.set_creation_date_time(record.creation_date_time());
  g.set_global_table_status(record.table_status());
  g.set_global_table_name(record.table_name());
  return g;
}

}  // namespace pogi::service
