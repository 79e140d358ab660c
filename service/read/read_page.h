// One page of a Query or Scan: the range read over the table or an index,
// DynamoDB's page limits (Limit items evaluated, 1 MB read), the filter
// applied after them, the projection, and LastEvaluatedKey.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/expr/ast.h"
#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

// DynamoDB stops a page once it has read 1 MB.
inline constexpr int64_t kMaxPageBytes = 1024 * 1024;

struct PageRequest {
  const Table* table = nullptr;
  const Index* index = nullptr;  // null: the table itself
  std::optional<int64_t> limit;
  std::optional<expr::Condition> filter;
  std::optional<expr::Projection> projection;
  bool select_list = false;       // PartiQL: the projection names values by their last element
  bool count_only = false;        // Select COUNT
  bool fetch_from_table = false;  // LSI: read attributes the index does not hold
};

struct Page {
  std::string items;  // a serialized pogi.v1.ItemList (value::AppendItemListEntry)
  int64_t count = 0;
  int64_t scanned_count = 0;
  int64_t bytes_read = 0;
  int64_t table_bytes_read = 0;  // of items an LSI read fetched from the table
  std::optional<value::AttributeMap> last_evaluated_key;
};

Result<Page> ReadPage(storage::ReadTxn& txn, const storage::RangeRead& read, const PageRequest& request);

// Checks ExclusiveStartKey against what is read (the table's key, plus the
// index's key for an index) and turns it into the read's start position.
// `query`: a Query's start key (worded as for an index; see the definition).
Result<storage::RowPosition> StartPosition(const Table& table, const Index* index,
                                           const value::AttributeMap& start_key, bool query = false);

// The top-level attribute names a condition or projection refers to.
void CollectNames(const expr::Condition& c, std::set<std::string>* names);
void CollectNames(const expr::Projection& p, std::set<std::string>* names);

}  // namespace pogi::service
