// On-demand backups' descriptions: what DescribeBackup, ListBackups and
// DeleteBackup show of a stored backup, made once when the backup is taken.
#pragma once

#include <string>

#include "common/result.h"
#include "pogi/v1/control_state.pb.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/catalog.h"
#include "storage/storage.h"

namespace pogi::service {

// A new backup ARN of the table with ARN `table_arn`, taken at `now`:
// ".../table/NAME/backup/<14-digit milliseconds>-<8 hex digits>".
std::string NewBackupArn(const std::string& table_arn, double now);

// The stored form of a backup named `name` of `table` (its description with
// live counters) taken at `now`.
v1::StoredBackup MakeStoredBackup(const v1::TableDescription& table, const std::string& arn,
                                  const std::string& name, double now);

// How long DynamoDB keeps the SYSTEM backup of a deleted table.
inline constexpr double kSystemBackupSeconds = 35 * 86400.0;

// The name DynamoDB gives the SYSTEM backup of a deleted table.
std::string SystemBackupName(const std::string& table_name);

// A backup of `table` named `name`, of `type` ("USER" or "SYSTEM"), taken at
// `now` in `txn`: a copy of its items as the transaction sees them, stored
// with its description and this transaction's counters. Sets *id to the
// backup's storage id. `deleted_pitr`: the PITR state of a table being
// deleted, kept with its SYSTEM backup (else null).
Result<v1::StoredBackup> TakeBackup(storage::WriteTxn& txn, const Table& table, const std::string& name,
                                    const std::string& type, double now, const v1::PitrState* deleted_pitr,
                                    int64_t* id);

// Whether a backup has expired at `now` (SYSTEM backups do, after
// kSystemBackupSeconds).
bool Expired(const v1::StoredBackup& backup, double now);

// ListBackups' summary of a stored backup.
v1::BackupSummary SummaryOf(const v1::StoredBackup& backup);

}  // namespace pogi::service
