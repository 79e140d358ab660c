// The control plane's storage on SQLite: table settings, shared values,
// on-demand backups
// (a copy of a table's items) and point-in-time history. SqliteTxn forwards
// its ReadTxn/WriteTxn calls of that part here.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "storage/sqlite_db.h"
#include "storage/storage.h"

namespace pogi::storage::sqlite_control {

Result<std::string> GetTableSettings(Db& db, int64_t table_id);
Status PutTableSettings(Db& db, int64_t table_id, std::string_view settings);
Result<std::optional<std::string>> GetSharedValue(Db& db, std::string_view key, int64_t now_us);
Status PutSharedValue(Db& db, std::string_view key, std::string_view value, int64_t expires_us);
Status PruneSharedValues(Db& db, int64_t now_us);

Result<std::vector<BackupRecord>> ListBackups(Db& db);
Result<std::optional<BackupRecord>> GetBackup(Db& db, std::string_view arn);
Status ReadBackupItems(Db& db, int64_t backup_id, const std::function<bool(const Row&)>& visit);
Result<int64_t> CreateBackup(Db& db, const BackupRecord& record, int64_t table_id);
Status DeleteBackup(Db& db, int64_t backup_id);

Status AppendHistory(Db& db, int64_t table_id, const EncodedKey& key, int64_t time_us,
                     std::optional<std::string_view> item, int64_t size);
Status ReadHistoryAsOf(Db& db, int64_t table_id, int64_t time_us,
                       const std::function<bool(const Row&)>& visit);
Status PruneHistory(Db& db, int64_t table_id, int64_t before_us);
Status DropHistory(Db& db, int64_t table_id);
Status MoveHistoryToBackup(Db& db, int64_t table_id, int64_t backup_id);
Status ReadBackupHistoryAsOf(Db& db, int64_t backup_id, int64_t time_us,
                             const std::function<bool(const Row&)>& visit);

// What DropTable removes beside the items: settings and history.
Status DropTableState(Db& db, int64_t table_id);

}  // namespace pogi::storage::sqlite_control
