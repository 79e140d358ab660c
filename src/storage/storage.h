// Storage: the seam between the engine and the bytes on disk. The engine sees
// tables as numbered collections of items keyed by encoded keys; SQLite (or a
// later backend) stays behind this interface. Nothing above it writes SQL.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace pogi::storage {

// The stored form of an item's primary key: the partition key's and the sort
// key's order-preserving encodings (value/key_codec.h). `sort` is empty for a
// table without a sort key.
struct EncodedKey {
  std::string partition;
  std::string sort;
};

// One row of the catalog: a table's id, its description (a serialized
// pogi.v1.TableDescription without the live counters) and the live counters.
struct TableRecord {
  int64_t id = 0;
  std::string name;
  std::string description;  // serialized pogi.v1.TableDescription
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

// A consistent view for reads. Valid only inside Storage::Read or Storage::Write.
class ReadTxn {
 public:
  virtual ~ReadTxn() = default;
  // The stored bytes of the item with `key`, or nullopt.
  virtual Result<std::optional<std::string>> GetItem(int64_t table_id,
                                                     const EncodedKey& key) = 0;
  virtual Result<std::optional<TableRecord>> GetTable(int64_t table_id) = 0;
};

// An atomic write transaction. Valid only inside Storage::Write.
class WriteTxn : public ReadTxn {
 public:
  // Inserts or replaces the item stored under `key`.
  virtual Status PutItem(int64_t table_id, const EncodedKey& key, std::string_view bytes) = 0;
  virtual Status DeleteItem(int64_t table_id, const EncodedKey& key) = 0;
  // Adds to a table's live item count and size.
  virtual Status AdjustCounters(int64_t table_id, int64_t items, int64_t bytes) = 0;
  // Inserts a catalog row; returns its new id (record.id is ignored).
  virtual Result<int64_t> CreateTable(const TableRecord& record) = 0;
  // Replaces a catalog row's description.
  virtual Status UpdateTableDescription(int64_t table_id, std::string_view description) = 0;
  // Removes a table's catalog row and every item in it.
  virtual Status DropTable(int64_t table_id) = 0;
};

struct Options {
  std::string data_dir;     // folder holding pogi.db; ignored when in_memory
  bool in_memory = false;   // keep nothing on disk
  bool fsync_each_commit = false;  // survive power loss, not only kill -9
};

class Storage {
 public:
  virtual ~Storage() = default;

  // Opens (creating when missing) the database. Errors name the cause in one
  // line: an unwritable folder, a file that is not a pogi database, a newer format.
  static Result<std::unique_ptr<Storage>> Open(const Options& options);

  // Every catalog row, ordered by table name.
  virtual Result<std::vector<TableRecord>> ListTables() = 0;

  // Runs `fn` in one transaction that commits when fn succeeds and rolls back
  // when it fails. Writes are serialized: fn sees every write committed before
  // it, and nobody sees fn's writes before the commit. When Write returns OK
  // the transaction is durable against a crash of the process.
  virtual Status Write(const std::function<Status(WriteTxn&)>& fn) = 0;

  // Runs `fn` against a consistent snapshot. Thread-safe.
  virtual Status Read(const std::function<Status(ReadTxn&)>& fn) = 0;
};

}  // namespace pogi::storage
