// The engine's background work: TTL deletions, shard roll-overs and stream
// retention (admin/maintenance.h runs it on a timer; the admin API on demand).
#include "service/engine/engine.h"
#include "service/engine/ttl.h"
#include "service/write/item_write.h"

namespace pogi::service {

Status Engine::SweepExpiredItems() {
  // At most this many deletions per table per pass, so that one pass never
  // holds many keys in memory; the next pass takes the rest.
  constexpr size_t kMaxPerPass = 10000;
  for (const auto& table : catalog_.All()) {
    const auto& ttl = table->description.pogi_time_to_live();
    if (ttl.time_to_live_status() != "ENABLED" || !table->serves_items) continue;
    const std::string attr = ttl.attribute_name();
    double now = clock_->Now();
    std::vector<storage::EncodedKey> expired;
    // In chunks, each its own read: writes go on between them.
    constexpr size_t kChunk = 1000;
    std::optional<storage::RowPosition> after;
    for (size_t rows = kChunk; rows == kChunk && expired.size() < kMaxPerPass;) {
      rows = 0;
      Status s = storage_->Read([&](storage::ReadTxn& txn) -> Status {
        storage::RangeRead chunk;
        chunk.id = table->id;
        chunk.start_after = after;
        return txn.ReadRange(chunk, [&](const storage::Row& row) {
          after = storage::RowPosition{std::string(row.partition), std::string(row.sort), "", ""};
          auto item = value::DecodeItem(row.item);
          if (item.ok()) {
            auto it = item->attributes().find(attr);
            if (it != item->attributes().end() && IsExpired(it->second, now)) {
              expired.push_back({std::string(row.partition), std::string(row.sort)});
            }
          }
          return ++rows < kChunk && expired.size() < kMaxPerPass;
        });
      });
      POGI_RETURN_IF_ERROR(s);
    }
    for (const auto& key : expired) {
      // Checked again inside the write: the item may have changed since.
      Decide decide = [&](const value::AttributeMap* old,
                          std::optional<value::AttributeMap>*) -> Result<std::optional<value::AttributeMap>> {
        if (!old) return std::optional<value::AttributeMap>();
        auto it = old->find(attr);
        if (it == old->end() || !IsExpired(it->second, now)) return Error::ConditionalCheckFailed();
        return std::optional<value::AttributeMap>();
      };
      auto r = ModifyItem(*storage_, catalog_, *table, key, decide, ChangeSource::kTimeToLive);
      if (!r.ok()) {
        ErrorCode c = r.error().code();
        if (c == ErrorCode::kConditionalCheckFailed || c == ErrorCode::kResourceNotFound) continue;
        return r.error();
      }
    }
  }
  return Status::Ok();
}

Status Engine::RunMaintenance(bool leased) {
  POGI_RETURN_IF_ERROR(FollowCatalog());
  if (leased) {
    // Of the processes sharing a database, the lease's holder does the
    // timer's work; another takes over within the lease once it is gone.
    POGI_ASSIGN_OR_RETURN(bool mine, storage_->HoldLease("maintenance", kMaintenanceLeaseSeconds));
    if (!mine) return Status::Ok();
  }
  {
    auto state = LockState();
    POGI_RETURN_IF_ERROR(SettleTransitions());
  }
  std::lock_guard lock(maintenance_mu_);
  POGI_RETURN_IF_ERROR(SweepExpiredItems());
  return streams_.Maintain(*storage_);
}

Result<std::pair<std::string, std::string>> Engine::CloseStreamShard(const std::string& name) {
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(name));
  if (table->stream_id == 0) return Error::Validation("Table " + name + " has no enabled stream");
  std::lock_guard lock(maintenance_mu_);
  return streams_.CloseShard(*storage_, table->stream_id);
}

}  // namespace pogi::service
