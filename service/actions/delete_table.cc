// DeleteTable: remove a table and all its items; answers DynamoDB's short
// description of the table being deleted. A table with point-in-time
// recovery on leaves a SYSTEM backup that keeps its items and its history.
// With a table_deleting delay (core/transitions.h) the table stays DELETING
// for it, then goes.
#include "service/backup/backup_description.h"
#include "service/engine/engine.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/write/pitr_history.h"

namespace pogi::service {

Result<v1::DeleteTableResponse> Engine::DeleteTable(const v1::DeleteTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
  v1::DeleteTableResponse resp;
  double now = clock_->Now();
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    auto table = catalog_.FindNamed(name, req.table_name());
    if (!table) {
      return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() +
                                     " not found");
    }
    // A table being created or deleted, then one with an index in
    // transition (even while the table is ACTIVE), then one being updated:
    // DynamoDB's ResourceInUseException for each.
    POGI_RETURN_IF_ERROR(CheckTableChangeable(table->description, /*updating_too=*/false));
    POGI_RETURN_IF_ERROR(CheckNoIndexInTransition(table->description));
    POGI_RETURN_IF_ERROR(CheckTableChangeable(table->description, /*updating_too=*/true));
    if (table->description.deletion_protection_enabled()) {
      return Error::Validation(
          "Resource cannot be deleted as it is currently protected against "
          "deletion. Disable deletion protection first.");
    }
    POGI_ASSIGN_OR_RETURN(auto rec, txn.GetTable(table->id));
    // DynamoDB answers a short description: name, status DELETING, sizes,
    // throughput, identity and billing; no CreationDateTime, KeySchema,
    // attribute definitions or indexes.
    const v1::TableDescription& full = table->description;
    auto* d = resp.mutable_table_description();
    d->set_table_name(full.table_name());
    d->set_table_status("DELETING");
    *d->mutable_provisioned_throughput() = full.provisioned_throughput();
    if (full.has_table_arn()) d->set_table_arn(full.table_arn());
    if (full.has_table_id()) d->set_table_id(full.table_id());
    if (full.has_billing_mode_summary()) *d->mutable_billing_mode_summary() = full.billing_mode_summary();
    d->set_item_count(0);
    d->set_table_size_bytes(0);
    if (rec) {
      d->set_item_count(rec->item_count);
      d->set_table_size_bytes(rec->size_bytes);
    }
    if (delays_.table_deleting > 0) {
      // DELETING until the clock passes the delay: listed and described,
      // refusing its items; Engine::SettleTransitions drops it then.
      v1::TableDescription deleting = full;
      BeginTransition(deleting, kTableDeleting, "", now + delays_.table_deleting);
      ApplyTransitionStatuses(deleting);
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(table->id, deleting.SerializeAsString()));
      catalog_.Put(catalog_.Make(table->id, std::move(deleting), table->IndexIds()));
      return Status::Ok();
    }
    return DropTableInTxn(txn, *table, now);
  });
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

Status Engine::DropTableInTxn(storage::WriteTxn& txn, const Table& table, double now) {
  if (table.settings.pitr().enabled()) {
    // DynamoDB keeps a SYSTEM backup of the table as it was just before
    // the deletion, for 35 days. pogi's also keeps the table's history, so
    // RestoreTableToPointInTime by SourceTableArn still reaches any
    // instant of the recovery window as it stood at the deletion.
    int64_t id = 0;
    POGI_RETURN_IF_ERROR(TakeBackup(txn, table, SystemBackupName(table.description.table_name()), "SYSTEM",
                                    now, &table.settings.pitr(), &id));
    // The window stops moving at the deletion: what it no longer reaches
    // is dropped now, once.
    POGI_RETURN_IF_ERROR(
        txn.PruneHistory(table.id, ToMicros(EarliestRestorable(table.settings.pitr(), now))));
    POGI_RETURN_IF_ERROR(txn.MoveHistoryToBackup(table.id, id));
  }
  // The stream outlives its table for its retention, disabled.
  if (table.stream_id != 0) POGI_RETURN_IF_ERROR(streams_.Disable(txn, table.stream_id));
  // The Kinesis destinations go with the table's settings; the changes not
  // yet delivered go with its queue.
  if (table.settings.kinesis_queue_id() != 0)
    POGI_RETURN_IF_ERROR(txn.DeleteStream(table.settings.kinesis_queue_id()));
  // A global table's replica leaves its group (DynamoDB deletes a replica
  // by DeleteTable in its region too).
  if (table.description.replicas_size() > 0) POGI_RETURN_IF_ERROR(LeaveReplicationGroup(txn, table));
  POGI_RETURN_IF_ERROR(txn.DropTable(table.id));
  for (const auto& v : table.vector_indexes) vector_cache_.Forget(v.id);  // ids may be given again
  catalog_.Remove(table.description.table_name(), table.region);
  return Status::Ok();
}

}  // namespace pogi::service
