// Start-up checks of the database file and the one-line reasons a file is
// refused: a file cut short, a file that is not a database, a damaged one.
#pragma once

#include <sqlite3.h>

#include <string>

#include "common/result.h"

namespace pogi::storage {

// Refuses a database file shorter than the size its own header records (a
// copy cut short, a truncated file). SQLite would read the missing pages as
// zeros and fail later, on some request. Only when no write-ahead log holds
// pages beyond the file (after a clean stop the log is gone): with one, the
// file may rightly be shorter, and the counts recounted at start read every
// item instead. A missing or empty file is a new database.
Status CheckFileLength(const std::string& path);

// The error a start is refused with when opening `path` failed with `e`
// (`db` is the connection, for SQLite's error code): one line naming the
// cause and what to do.
Error RefusedOpen(const std::string& path, sqlite3* db, const Error& e);

}  // namespace pogi::storage
