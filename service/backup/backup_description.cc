// Backup ARNs, taking a backup inside a write, stored backup descriptions
// and their summaries.
#include "service/backup/backup_description.h"

#include <cstdio>
#include <random>

#include "service/write/live_counts.h"
#include "service/write/pitr_history.h"

namespace pogi::service {

std::string NewBackupArn(const std::string& table_arn, double now) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  char tail[40];
  snprintf(tail, sizeof tail, "/backup/%014lld-%08x", static_cast<long long>(now * 1000),
           static_cast<unsigned>(rng()));
  return table_arn + tail;
}

v1::StoredBackup MakeStoredBackup(const v1::TableDescription& table, const std::string& arn,
                                  const std::string& name, double now) {
  v1::StoredBackup b;
  auto* details = b.mutable_description()->mutable_backup_details();
  details->set_backup_arn(arn);
  details->set_backup_name(name);
  details->set_backup_size_bytes(table.table_size_bytes());
  details->set_backup_status("AVAILABLE");
  details->set_backup_type("USER");
  details->set_backup_creation_date_time(now);
  auto* src = b.mutable_description()->mutable_source_table_details();
  src->set_table_name(table.table_name());
  src->set_table_id(table.table_id());
  src->set_table_arn(table.table_arn());
  src->set_table_size_bytes(table.table_size_bytes());
  *src->mutable_key_schema() = table.key_schema();
  src->set_table_creation_date_time(table.creation_date_time());
  src->mutable_provisioned_throughput()->set_read_capacity_units(
      table.provisioned_throughput().read_capacity_units());
  src->mutable_provisioned_throughput()->set_write_capacity_units(
      table.provisioned_throughput().write_capacity_units());
  if (table.has_on_demand_throughput()) *src->mutable_on_demand_throughput() = table.on_demand_throughput();
  src->set_item_count(table.item_count());
  src->set_billing_mode(table.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST" ? "PAY_PER_REQUEST"
                                                                                         : "PROVISIONED");
  auto* features = b.mutable_description()->mutable_source_table_feature_details();
  for (const auto& l : table.local_secondary_indexes()) {
    auto* i = features->add_local_secondary_indexes();
    i->set_index_name(l.index_name());
    *i->mutable_key_schema() = l.key_schema();
    *i->mutable_projection() = l.projection();
  }
  for (const auto& g : table.global_secondary_indexes()) {
    auto* i = features->add_global_secondary_indexes();
    i->set_index_name(g.index_name());
    *i->mutable_key_schema() = g.key_schema();
    *i->mutable_projection() = g.projection();
    i->mutable_provisioned_throughput()->set_read_capacity_units(
        g.provisioned_throughput().read_capacity_units());
    i->mutable_provisioned_throughput()->set_write_capacity_units(
        g.provisioned_throughput().write_capacity_units());
    if (g.has_on_demand_throughput()) *i->mutable_on_demand_throughput() = g.on_demand_throughput();
  }
  if (table.has_stream_specification())
    *features->mutable_stream_description() = table.stream_specification();
  if (table.has_sse_description()) *features->mutable_sse_description() = table.sse_description();
  for (const auto& v : table.vector_indexes()) {
    auto* i = features->add_vector_indexes();
    i->set_index_name(v.index_name());
    *i->mutable_vector_attribute() = v.vector_attribute();
    *i->mutable_search_schema() = v.search_schema();
    *i->mutable_projection() = v.projection();
    i->set_dimensions(v.dimensions());
    i->set_distance_function(v.distance_function());
  }
  // The description a restore starts from, without what belongs to the
  // source table alone.
  v1::TableDescription* copy = b.mutable_table();
  *copy = table;
  copy->clear_item_count();
  copy->clear_table_size_bytes();
  copy->clear_restore_summary();
  return b;
}

std::string SystemBackupName(const std::string& table_name) { return table_name + "$DeletedTableBackup"; }

Result<v1::StoredBackup> TakeBackup(storage::WriteTxn& txn, const Table& table, const std::string& name,
                                    const std::string& type, double now, const v1::PitrState* deleted_pitr,
                                    int64_t* id) {
  // The counters as this transaction sees them: the copy's own.
  v1::TableDescription d = table.description;
  POGI_RETURN_IF_ERROR(FillLiveCounts(txn, table, &d));
  std::string arn = NewBackupArn(d.table_arn(), now);
  v1::StoredBackup backup = MakeStoredBackup(d, arn, name, now);
  auto* details = backup.mutable_description()->mutable_backup_details();
  details->set_backup_type(type);
  if (type == "SYSTEM") details->set_backup_expiry_date_time(now + kSystemBackupSeconds);
  if (deleted_pitr) {
    *backup.mutable_deleted_table_pitr() = *deleted_pitr;
    backup.set_deleted_date_time(now);
  }
  storage::BackupRecord record{0, arn, d.table_name(), ToMicros(now), backup.SerializeAsString()};
  POGI_ASSIGN_OR_RETURN(*id, txn.CreateBackup(record, table.id));
  return backup;
}

bool Expired(const v1::StoredBackup& backup, double now) {
  const auto& d = backup.description().backup_details();
  return d.has_backup_expiry_date_time() && d.backup_expiry_date_time() <= now;
}

v1::BackupSummary SummaryOf(const v1::StoredBackup& backup) {
  const auto& d = backup.description().backup_details();
  const auto& src = backup.description().source_table_details();
  v1::BackupSummary s;
  s.set_table_name(src.table_name());
  s.set_table_id(src.table_id());
  s.set_table_arn(src.table_arn());
  s.set_backup_arn(d.backup_arn());
  s.set_backup_name(d.backup_name());
  s.set_backup_creation_date_time(d.backup_creation_date_time());
  if (d.has_backup_expiry_date_time()) s.set_backup_expiry_date_time(d.backup_expiry_date_time());
  s.set_backup_status(d.backup_status());
  s.set_backup_type(d.backup_type());
  s.set_backup_size_bytes(d.backup_size_bytes());
  return s;
}

}  // namespace pogi::service
