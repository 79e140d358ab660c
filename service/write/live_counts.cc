// A table description's item counts and sizes, read live from storage.
#include "service/write/live_counts.h"

namespace pogi::service {
namespace {

template <typename IndexDescriptions>
Status FillIndexCounts(storage::ReadTxn& txn, const Table& table, IndexDescriptions* indexes) {
  for (auto& i : *indexes) {
    const Index* index = table.FindIndex(i.index_name());
    if (!index) continue;
    POGI_ASSIGN_OR_RETURN(auto counters, txn.IndexCounters(index->id));
    i.set_item_count(counters.first);
    i.set_index_size_bytes(counters.second);
  }
  return Status::Ok();
}

}  // namespace

Status FillLiveCounts(storage::ReadTxn& txn, const Table& table, v1::TableDescription* d) {
  POGI_ASSIGN_OR_RETURN(auto rec, txn.GetTable(table.id));
  if (rec) {
    d->set_item_count(rec->item_count);
    d->set_table_size_bytes(rec->size_bytes);
  }
  POGI_RETURN_IF_ERROR(FillIndexCounts(txn, table, d->mutable_global_secondary_indexes()));
  for (auto& v : *d->mutable_vector_indexes()) {
    const VectorIndex* index = table.FindVectorIndex(v.index_name());
    if (!index) continue;
    POGI_ASSIGN_OR_RETURN(auto counters, txn.VectorIndexCounters(index->id));
    v.set_item_count(counters.first);
    v.set_index_size_bytes(counters.second);
  }
  return FillIndexCounts(txn, table, d->mutable_local_secondary_indexes());
}

}  // namespace pogi::service
