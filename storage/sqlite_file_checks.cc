// Start-up checks of a SQLite database file, and the reasons a start is refused.
#include "storage/sqlite_file_checks.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <fstream>

namespace pogi::storage {
namespace {

uint32_t BigEndian(const unsigned char* p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

Status CheckFileLength(const std::string& path) {
  struct stat wal;
  if (stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0) return Status::Ok();
  struct stat file;
  if (stat(path.c_str(), &file) != 0 || file.st_size == 0) return Status::Ok();
  // The header (https://www.sqlite.org/fileformat2.html#the_database_header):
  // the page size at offset 16 (1 means 65536), the change counter at 24,
  // the size in pages at 28, valid when offset 92 repeats the change counter.
  unsigned char h[100];
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(h), sizeof h)) {
    return Error::Internal(path + " is damaged or not a pogi database: " + std::to_string(file.st_size) +
                           " bytes, shorter than a database header; move it away to start with an "
                           "empty database, or put back a copy");
  }
  if (std::memcmp(h, "SQLite format 3", 16) != 0) return Status::Ok();  // SQLite says what it is
  uint64_t page_size = BigEndian(h + 16, 2);
  if (page_size == 1) page_size = 65536;
  uint64_t pages = BigEndian(h + 28, 4);
  if (BigEndian(h + 24, 4) != BigEndian(h + 92, 4) || pages == 0) return Status::Ok();
  uint64_t want = pages * page_size;
  if (static_cast<uint64_t>(file.st_size) >= want) return Status::Ok();
  return Error::Internal(path + " is damaged: it is " + std::to_string(file.st_size) +
                         " bytes long, its header says " + std::to_string(want) +
                         " (cut short?); move it away to start with an empty database, "
                         "or put back a copy");
}

Error RefusedOpen(const std::string& path, sqlite3* db, const Error& e) {
  std::string detail = sqlite3_errmsg(db);
  switch (sqlite3_extended_errcode(db) & 0xff) {
    case SQLITE_BUSY:
      return Error::Internal(path + " is in use by another process (another pogi on the same data folder?)");
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return Error::Internal(path + " is damaged or not a pogi database (" + detail +
                             "); move it away to start with an empty database, or put back a copy");
    case SQLITE_FULL:
      return Error::Internal("cannot start: the data folder of " + path + " is full (" + detail + ")");
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
      return Error::Internal("cannot start: " + path + " cannot be read or written (" + detail + ")");
    default:
      return Error::Internal(path + " is not a usable pogi database: " + e.message());
  }
}

}  // namespace pogi::storage
