// The SQLite backend's on-disk format: its tables and their version.
// Storage-internal.
#pragma once

#include "common/result.h"
#include "storage/sqlite_db.h"

namespace pogi::storage {

// The statements that create every table of the format (idempotent: each is
// CREATE TABLE IF NOT EXISTS, in one transaction).
extern const char* const kSqliteSchema;

// Records the format version in a new database, or refuses a database of
// another format.
Status CheckFormat(Db& db);

}  // namespace pogi::storage
