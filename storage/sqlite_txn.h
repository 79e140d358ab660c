// SqliteTxn: the storage interface's reads and writes as SQL over one
// SQLite connection (the items, indexes, streams and the catalog; the
// control plane's tables are sqlite_control.h's). Storage-internal: only the
// SQLite backend includes it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "storage/sqlite_db.h"
#include "storage/storage.h"
#include "storage/table_counters.h"

namespace pogi::storage {

// ReadTxn and WriteTxn over one connection. The caller holds that connection
// exclusively for the transaction's life.
class SqliteTxn final : public WriteTxn {
 public:
  // `counters` are the committed counts; `earlier` the changes of earlier
  // writes of the same transaction (may be null); this write's own go to
  // `changes` (null for a read-only transaction).
  // `sequence` is the stream sequence counter; `on_commit` collects this
  // write's after-commit work (both null for a read-only transaction).
  SqliteTxn(Db* db, const TableCounters* counters, const CountChanges* earlier = nullptr,
            CountChanges* changes = nullptr, int64_t* sequence = nullptr,
            std::vector<std::function<void()>>* on_commit = nullptr, const int64_t* read_sequence = nullptr)
      : db_(db),
        counters_(counters),
        earlier_(earlier),
        changes_(changes),
        sequence_(sequence),
        on_commit_(on_commit),
        read_sequence_(read_sequence) {}
  Result<std::vector<StreamRecordRow>> ReadStreamRecords(int64_t stream_id, int64_t after, int64_t last,
                                                         int limit) override;
  // One counter for every stream: `stream_id` does not matter.
  int64_t LastStreamSequence(int64_t stream_id) override;
  Result<std::optional<std::string>> GetStream(int64_t stream_id) override;
  Result<int64_t> IssueStreamSequence(int64_t stream_id) override;
  Result<int64_t> CreateStream(std::string_view state) override;
  Status UpdateStream(int64_t stream_id, std::string_view state) override;
  Status DeleteStream(int64_t stream_id) override;
  Result<int64_t> AppendStreamRecord(int64_t stream_id, double created, std::string_view record) override;
  Result<int64_t> TrimStreamRecords(int64_t stream_id, double created_before) override;
  Status DeleteStreamRecordsThrough(int64_t stream_id, int64_t through) override;
  void OnCommit(std::function<void()> fn) override;
  Result<std::optional<std::string>> GetItem(int64_t table_id, const EncodedKey& key) override;
  Result<std::optional<TableRecord>> GetTable(int64_t table_id) override;
  Status ReadRange(const RangeRead& r, const std::function<bool(const Row&)>& visit) override;
  Result<std::pair<int64_t, int64_t>> IndexCounters(int64_t index_id) override;
  Result<int64_t> CreateIndex(int64_t table_id, const std::string& name) override;
  Status DropIndex(int64_t index_id) override;
  Status PutIndexEntry(int64_t index_id, const EncodedKey& index_key, const EncodedKey& table_key,
                       std::string_view bytes, int64_t size) override;
  Status DeleteIndexEntry(int64_t index_id, const EncodedKey& index_key,
                          const EncodedKey& table_key) override;
  Result<int64_t> AdjustCollectionSize(int64_t table_id, std::string_view partition, int64_t delta) override;
  // Vector indexes: sqlite_vectors.cc.
  Status ReadVectorGenerations(int64_t index_id, std::string_view partition, VectorGenerations* out) override;
  Status ReadVectorSlot(int64_t index_id, std::string_view partition, int slot,
                        const std::function<bool(const VectorEntry&)>& visit) override;
  Result<std::pair<int64_t, int64_t>> VectorIndexCounters(int64_t index_id) override;
  Status PutVectorEntry(int64_t index_id, std::string_view partition, const EncodedKey& table_key,
                        std::string_view vector, std::string_view filters, int64_t size) override;
  Status DeleteVectorEntry(int64_t index_id, std::string_view partition,
                           const EncodedKey& table_key) override;
  Status PutItem(int64_t table_id, const EncodedKey& key, std::string_view bytes, int64_t size) override;
  Status DeleteItem(int64_t table_id, const EncodedKey& key) override;
  Status AdjustCounters(int64_t table_id, int64_t items, int64_t bytes) override;
  Result<int64_t> CreateTable(const TableRecord& record) override;
  Status UpdateTableDescription(int64_t table_id, std::string_view description) override;

  // The control plane's calls live in sqlite_control.cc.
  Result<std::string> GetTableSettings(int64_t table_id) override;
  Result<std::optional<std::string>> GetSharedValue(std::string_view key, int64_t now_us) override;
  Status PutSharedValue(std::string_view key, std::string_view value, int64_t expires_us) override;
  Status PruneSharedValues(int64_t now_us) override;
  Status NoteCatalogChange() override { return Status::Ok(); }  // one process per file
  Status ReadHistoryPage(int64_t table_id, int64_t time_us, std::string* cursor, int limit,
                         const std::function<bool(const Row&)>& visit) override;
  Status ReadHistoryChanges(int64_t table_id, int64_t from_us, int64_t to_us, std::string* cursor, int limit,
                            const std::function<bool(const HistoryChange&)>& visit) override;
  Result<std::vector<JobRecord>> ListJobs(std::string_view kind) override;
  Result<std::optional<JobRecord>> GetJob(std::string_view arn) override;
  Status PutJob(const JobRecord& job) override;
  Result<std::vector<BackupRecord>> ListBackups() override;
  Result<std::optional<BackupRecord>> GetBackup(std::string_view arn) override;
  Status ReadBackupItems(int64_t backup_id, const std::function<bool(const Row&)>& visit) override;
  Status ReadHistoryAsOf(int64_t table_id, int64_t time_us,
                         const std::function<bool(const Row&)>& visit) override;
  Status ReadBackupHistoryAsOf(int64_t backup_id, int64_t time_us,
                               const std::function<bool(const Row&)>& visit) override;
  Status MoveHistoryToBackup(int64_t table_id, int64_t backup_id) override;
  Status PutTableSettings(int64_t table_id, std::string_view settings) override;
  Result<int64_t> CreateBackup(const BackupRecord& record, int64_t table_id) override;
  Status DeleteBackup(int64_t backup_id) override;
  Status AppendHistory(int64_t table_id, const EncodedKey& key, int64_t time_us,
                       std::optional<std::string_view> item, int64_t size) override;
  Status PruneHistory(int64_t table_id, int64_t before_us) override;
  Status DropHistory(int64_t table_id) override;
  Status DropTable(int64_t table_id) override;

 private:
  Status Done(int rc, std::string_view what);
  // The sequence counter is kept with every stream change (and trim), so
  // that after a crash it restarts above every sequence number a stream's
  // state names, even when the records holding them are gone.
  Status SaveSequence();
  // Raises the generation of one slot of a vector index partition.
  Status BumpVectorSlot(int64_t index_id, std::string_view partition, int slot);
  // Removes every entry of the vector indexes `where` selects by index_id.
  Status DropVectorEntries(const char* entries_sql, const char* generations_sql, int64_t id);
  Db* db_;
  const TableCounters* counters_;
  const CountChanges* earlier_;
  CountChanges* changes_;
  int64_t* sequence_;
  std::vector<std::function<void()>>* on_commit_;
  const int64_t* read_sequence_;
};

}  // namespace pogi::storage
