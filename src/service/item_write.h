// The read-modify-write skeleton every single-item write shares: read the
// current item, let the action decide the new one, write it and the table's
// counters, all in one atomic storage transaction.
#pragma once

#include <functional>
#include <optional>

#include "common/result.h"
#include "service/catalog.h"
#include "storage/storage.h"
#include "value/item.h"

namespace pogi::service {

struct ItemChange {
  std::optional<value::AttributeMap> old_item;  // before the write, if any
  std::optional<value::AttributeMap> new_item;  // after the write; nullopt: deleted
};

// Decides the new item from the old one (null when there is none): the new
// item, nullopt to delete, or an error (a failed condition) to write nothing.
using Decide = std::function<Result<std::optional<value::AttributeMap>>(const value::AttributeMap* old)>;

Result<ItemChange> ModifyItem(storage::Storage& storage, const Table& table,
                              const storage::EncodedKey& key, const Decide& decide);

}  // namespace pogi::service
