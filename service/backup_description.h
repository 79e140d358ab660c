// On-demand backups' descriptions: what DescribeBackup, ListBackups and
// DeleteBackup show of a stored backup, made once when the backup is taken.
#pragma once

#include <string>

#include "pogi/v1/control_state.pb.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

// A new backup ARN of the table with ARN `table_arn`, taken at `now`:
// ".../table/NAME/backup/<14-digit milliseconds>-<8 hex digits>".
std::string NewBackupArn(const std::string& table_arn, double now);

// The stored form of a backup named `name` of `table` (its description with
// live counters) taken at `now`.
v1::StoredBackup MakeStoredBackup(const v1::TableDescription& table, const std::string& arn,
                                  const std::string& name, double now);

// ListBackups' summary of a stored backup.
v1::BackupSummary SummaryOf(const v1::StoredBackup& backup);

}  // namespace pogi::service
