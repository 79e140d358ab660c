// PgTxn: the storage interface's reads and writes as SQL over one
// PostgreSQL connection inside a transaction (pg_txn.cc: items, indexes,
// streams and the catalog; pg_control.cc: settings, shared values, backups
// and history).
// Storage-internal: only the PostgreSQL backend includes it.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "storage/pg_conn.h"
#include "storage/storage.h"
#include "storage/table_counters.h"

namespace pogi::storage {

class PgTxn final : public WriteTxn {
 public:
  // A read-only transaction when `changes` is null. A write's counter
  // changes go to `changes` (written to table_counts before its commit),
  // its after-commit work to `on_commit`.
  // The catalog version (meta 'catalog_version') a write moved, from and
  // to: PgStorage tells its own changes of the catalog from other
  // processes' by it.
  // A catalog change takes the items table in SHARE mode before its
  // snapshot (pg_storage.cc, "Keyed writes"): one begun without that lock
  // asks for it (wants_items_lock) and fails, to run again with it.
  struct CatalogBump {
    int64_t from = -1, to = -1;
    bool items_locked = false;
    bool wants_items_lock = false;
  };
  // How a write transaction reads items: a keyed write (Storage::WriteItems,
  // READ COMMITTED) locks each item it reads until its commit, and inserts
  // an item it read as absent without ON CONFLICT, so that a concurrent
  // insert of the same key fails it (unique violation: it runs again).
  enum class ItemReads { kSnapshot, kLocked };

  PgTxn(PgConn* conn, CountChanges* changes = nullptr,
        std::vector<std::function<void()>>* on_commit = nullptr, CatalogBump* bump = nullptr,
        ItemReads reads = ItemReads::kSnapshot)
      : conn_(conn), changes_(changes), on_commit_(on_commit), bump_(bump), reads_(reads) {}

  Result<std::vector<StreamRecordRow>> ReadStreamRecords(int64_t stream_id, int64_t after, int64_t last,
                                                         int limit) override;
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
  // Vector indexes: pg_vectors.cc.
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
  Status DropTable(int64_t table_id) override;

  // pg_control.cc.
  Result<std::string> GetTableSettings(int64_t table_id) override;
  Result<std::optional<std::string>> GetSharedValue(std::string_view key, int64_t now_us) override;
  Status PutSharedValue(std::string_view key, std::string_view value, int64_t expires_us) override;
  Status PruneSharedValues(int64_t now_us) override;
  Status NoteCatalogChange() override { return BumpCatalog(); }
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

  // Issues an id for a new catalog, index, stream or backup row.
  Result<int64_t> NextId();

 private:
  // Visits, page by page, the rows of a statement over items-shaped rows
  // (columns size, pk, sk, item, hash, pkd; ordered by hash, pkd, sk):
  // `first` with `params`, then `next` with `params` and the last row's
  // (hash, pkd, sk). Both end in LIMIT of the parameter after those.
  Status VisitPages(const char* first, const char* next, const PgParams& params,
                    const std::function<bool(const Row&)>& visit);
  // A statement whose rows are not needed: queued, its failure shows at
  // the transaction's next statement that reads or at its COMMIT.
  Status Write(const char* sql, const PgParams& params);
  // A write over many rows (a whole table's, index's or history's): the
  // long patience (pg_conn.h).
  Status WriteBulk(const char* sql, const PgParams& params);
  // Moves the catalog version, once per write: every process sharing the
  // database then reloads its catalog at its next request.
  Status BumpCatalog();
  // Raises the generation of one slot of a vector index partition.
  Status BumpVectorSlot(int64_t index_id, const std::string& pkd, int slot);
  PgConn* conn_;
  CountChanges* changes_;
  std::vector<std::function<void()>>* on_commit_;
  CatalogBump* bump_;
  ItemReads reads_;
  // Keyed writes: the items read as absent (table id, partition, sort key).
  std::set<std::tuple<int64_t, std::string, std::string>> absent_;
};

// Rows per round trip of a range read: the first page small (most reads
// want a few items), the later ones large.
inline constexpr int kPgFirstPage = 128;
inline constexpr int kPgPage = 1024;

}  // namespace pogi::storage
