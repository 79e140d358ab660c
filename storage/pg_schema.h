// The PostgreSQL backend's format: its tables inside one schema, and their
// version. Storage-internal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "storage/pg_conn.h"

namespace pogi::storage {

// Creates `schema` and its tables when missing, records the format version
// in a new schema, and refuses a schema of another format or one holding
// tables that are not pogi's. `conn`'s search path is `schema`.
Status PreparePgSchema(PgConn& conn, const std::string& schema);

// The tables a snapshot copies (every table of the format but the snapshot
// tables themselves), with their columns in order.
struct PgTable {
  const char* name;
  const char* columns;
};
const std::vector<PgTable>& PgDataTables();

// The 16 bytes that stand for an encoded partition key in primary keys and
// in ordering: a key of up to 2048 bytes beside a 1024-byte sort key would
// not fit a btree entry (at most 2704 bytes), its digest does. The first
// 16 bytes of its SHA-256.
std::string PgKeyDigest(std::string_view partition);

}  // namespace pogi::storage
