// LaggedReadTxn: a read view of one table (and its indexes) as it was when
// the table's read lag window began: the storage snapshot with every item
// changed since replaced by its version from before (ReadLag's overlay).
// Eventually consistent reads run on it while the table lags.
#pragma once

#include <optional>

#include "service/core/catalog.h"
#include "service/core/read_lag.h"
#include "storage/storage.h"

namespace pogi::service {

class LaggedReadTxn final : public storage::ReadTxn {
 public:
  // REQUIRES: `base` and `table` outlive this view.
  LaggedReadTxn(storage::ReadTxn& base, const Table& table, ReadLag::Overlay overlay)
      : base_(base), table_(table), overlay_(std::move(overlay)) {}

  // Reads of `table` and its indexes see the lagged state; anything else
  // goes to `base` as it is.
  Status ReadRange(const storage::RangeRead& read,
                   const std::function<bool(const storage::Row&)>& visit) override;
  Result<std::optional<std::string>> GetItem(int64_t table_id, const storage::EncodedKey& key) override;

  Result<std::pair<int64_t, int64_t>> IndexCounters(int64_t index_id) override {
    return base_.IndexCounters(index_id);
  }
  // Vector indexes are searched as they are now (SearchVectors has no
  // eventually consistent reads).
  Status ReadVectorGenerations(int64_t index_id, std::string_view partition,
                               storage::VectorGenerations* out) override {
    return base_.ReadVectorGenerations(index_id, partition, out);
  }
  Status ReadVectorSlot(int64_t index_id, std::string_view partition, int slot,
                        const std::function<bool(const storage::VectorEntry&)>& visit) override {
    return base_.ReadVectorSlot(index_id, partition, slot, visit);
  }
  Result<std::pair<int64_t, int64_t>> VectorIndexCounters(int64_t index_id) override {
    return base_.VectorIndexCounters(index_id);
  }
  Result<std::optional<storage::TableRecord>> GetTable(int64_t table_id) override {
    return base_.GetTable(table_id);
  }
  Result<std::vector<storage::StreamRecordRow>> ReadStreamRecords(int64_t stream_id, int64_t after,
                                                                  int64_t last, int limit) override {
    return base_.ReadStreamRecords(stream_id, after, last, limit);
  }
  int64_t LastStreamSequence(int64_t stream_id) override { return base_.LastStreamSequence(stream_id); }
  Result<std::optional<std::string>> GetStream(int64_t stream_id) override {
    return base_.GetStream(stream_id);
  }
  Result<std::string> GetTableSettings(int64_t table_id) override { return base_.GetTableSettings(table_id); }
  Result<std::optional<std::string>> GetSharedValue(std::string_view key, int64_t now_us) override {
    return base_.GetSharedValue(key, now_us);
  }
  Result<std::vector<storage::BackupRecord>> ListBackups() override { return base_.ListBackups(); }
  Status ReadHistoryPage(int64_t table_id, int64_t time_us, std::string* cursor, int limit,
                         const std::function<bool(const storage::Row&)>& visit) override {
    return base_.ReadHistoryPage(table_id, time_us, cursor, limit, visit);
  }
  Status ReadHistoryChanges(int64_t table_id, int64_t from_us, int64_t to_us, std::string* cursor, int limit,
                            const std::function<bool(const storage::HistoryChange&)>& visit) override {
    return base_.ReadHistoryChanges(table_id, from_us, to_us, cursor, limit, visit);
  }
  Result<std::vector<storage::JobRecord>> ListJobs(std::string_view kind) override {
    return base_.ListJobs(kind);
  }
  Result<std::optional<storage::JobRecord>> GetJob(std::string_view arn) override {
    return base_.GetJob(arn);
  }
  Result<std::optional<storage::BackupRecord>> GetBackup(std::string_view arn) override {
    return base_.GetBackup(arn);
  }
  Status ReadBackupItems(int64_t backup_id, const std::function<bool(const storage::Row&)>& visit) override {
    return base_.ReadBackupItems(backup_id, visit);
  }
  Status ReadHistoryAsOf(int64_t table_id, int64_t time_us,
                         const std::function<bool(const storage::Row&)>& visit) override {
    return base_.ReadHistoryAsOf(table_id, time_us, visit);
  }
  Status ReadBackupHistoryAsOf(int64_t backup_id, int64_t time_us,
                               const std::function<bool(const storage::Row&)>& visit) override {
    return base_.ReadBackupHistoryAsOf(backup_id, time_us, visit);
  }

 private:
  storage::ReadTxn& base_;
  const Table& table_;
  const ReadLag::Overlay overlay_;
};

// The view an eventually consistent read of `table` runs on: `txn` itself
// when nothing lags (one relaxed load when no lag is set at all) or nothing
// changed within the lag, else a LaggedReadTxn kept in `holder`.
inline storage::ReadTxn& ReadView(storage::ReadTxn& txn, const ReadLag& lag, const Table& table,
                                  bool eventual, std::optional<LaggedReadTxn>& holder) {
  if (!eventual || !lag.active()) return txn;
  ReadLag::Overlay overlay = lag.Since(table);
  if (overlay.empty()) return txn;
  return holder.emplace(txn, table, std::move(overlay));
}

}  // namespace pogi::service
