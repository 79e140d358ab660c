// The write path's part of vector indexes: every item change keeps the
// item's entry in each vector index of its table exact, in the change's
// transaction, and an UpdateTable that adds a vector index fills it.
#pragma once

#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/validate/capacity.h"
#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

// Writes, moves or removes the entries of the change from `old_item` to
// `new_item` (either may be null) in every vector index of `table`. Fails,
// writing nothing, when the new item's vector attribute or search schema
// values are refused (service/vector/vector_values.h). A change that leaves
// an index's attributes as they were leaves its entry alone and costs it
// nothing; each entry written or removed is charged to `index_units` (when
// not null) as VectorWriteRequestBytes.
Status UpdateVectorIndexes(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                           const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                           std::vector<IndexCapacity>* index_units);

// The refusals UpdateVectorIndexes would give for the change, without
// writing: for a transaction, where a refused action cancels the
// transaction instead of failing it.
Status CheckVectorValues(const Table& table, const value::AttributeMap* old_item,
                         const value::AttributeMap& new_item);

// Fills `index` (new, empty) with the entries of every item of `table`,
// streaming. Items whose vector or search schema values the index refuses
// stay out of it, as DynamoDB's backfill leaves them.
Status BackfillVectorIndex(storage::WriteTxn& txn, const Table& table, const VectorIndex& index);

}  // namespace pogi::service
