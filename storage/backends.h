// The backends Storage::Open chooses between. Storage-internal.
#pragma once

#include <memory>

#include "common/result.h"
#include "storage/storage.h"

namespace pogi::storage {

// SQLite: one file in options.data_dir, or memory (sqlite_storage.cc).
Result<std::unique_ptr<Storage>> OpenSqlite(const Options& options);
// PostgreSQL: options.postgres, schema options.pg_schema (pg_storage.cc).
Result<std::unique_ptr<Storage>> OpenPostgres(const Options& options);

}  // namespace pogi::storage
