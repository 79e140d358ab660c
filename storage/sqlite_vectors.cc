// SqliteTxn's vector index statements: entries keyed by (index, partition,
// slot, table key), and one generation row per slot that every change of
// the slot raises in the same transaction.
#include "storage/sqlite_txn.h"

namespace pogi::storage {

Status SqliteTxn::ReadVectorGenerations(int64_t index_id, std::string_view partition,
                                        VectorGenerations* out) {
  out->fill(0);
  POGI_ASSIGN_OR_RETURN(auto st,
                        db_->Prepare("SELECT slot, gen FROM vector_generations WHERE index_id=?1 AND pk=?2"));
  st->Bind(1, index_id).Bind(2, partition);
  int rc;
  while ((rc = st->Step()) == SQLITE_ROW) {
    int64_t slot = st->Int(0);
    if (slot >= 0 && slot < kVectorSlots) (*out)[slot] = st->Int(1);
  }
  if (rc != SQLITE_DONE) return db_->Fail("read vector generations");
  return Status::Ok();
}

Status SqliteTxn::ReadVectorSlot(int64_t index_id, std::string_view partition, int slot,
                                 const std::function<bool(const VectorEntry&)>& visit) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT tpk, tsk, vec, filters, size FROM vector_entries WHERE "
                                              "index_id=?1 AND pk=?2 AND slot=?3"));
  st->Bind(1, index_id).Bind(2, partition).Bind(3, static_cast<int64_t>(slot));
  int rc;
  VectorEntry e;
  while ((rc = st->Step()) == SQLITE_ROW) {
    e.table_partition = st->BlobView(0);
    e.table_sort = st->BlobView(1);
    e.vector = st->BlobView(2);
    e.filters = st->BlobView(3);
    e.size = st->Int(4);
    if (!visit(e)) return Status::Ok();
  }
  if (rc != SQLITE_DONE) return db_->Fail("read vector entries");
  return Status::Ok();
}

Result<std::pair<int64_t, int64_t>> SqliteTxn::VectorIndexCounters(int64_t index_id) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db_->Prepare("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM vector_entries WHERE index_id=?1"));
  st->Bind(1, index_id);
  if (st->Step() != SQLITE_ROW) return db_->Fail("count vector index");
  return std::make_pair(st->Int(0), st->Int(1));
}

Status SqliteTxn::BumpVectorSlot(int64_t index_id, std::string_view partition, int slot) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO vector_generations(index_id, pk, slot, gen) "
                                              "VALUES(?1, ?2, ?3, 1) ON CONFLICT(index_id, pk, slot) DO "
                                              "UPDATE SET gen=gen+1"));
  st->Bind(1, index_id).Bind(2, partition).Bind(3, static_cast<int64_t>(slot));
  return Done(st->Step(), "raise vector generation");
}

Status SqliteTxn::PutVectorEntry(int64_t index_id, std::string_view partition, const EncodedKey& table_key,
                                 std::string_view vector, std::string_view filters, int64_t size) {
  int slot = VectorSlot(table_key);
  {
    POGI_ASSIGN_OR_RETURN(auto st,
                          db_->Prepare("INSERT OR REPLACE INTO vector_entries(index_id, pk, slot, "
                                       "tpk, tsk, size, vec, filters) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"));
    st->Bind(1, index_id)
        .Bind(2, partition)
        .Bind(3, static_cast<int64_t>(slot))
        .Bind(4, table_key.partition)
        .Bind(5, table_key.sort)
        .Bind(6, size)
        .Bind(7, vector)
        .Bind(8, filters);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "write vector entry"));
  }
  return BumpVectorSlot(index_id, partition, slot);
}

Status SqliteTxn::DeleteVectorEntry(int64_t index_id, std::string_view partition,
                                    const EncodedKey& table_key) {
  int slot = VectorSlot(table_key);
  {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM vector_entries WHERE index_id=?1 AND pk=?2 AND "
                                                "slot=?3 AND tpk=?4 AND tsk=?5"));
    st->Bind(1, index_id)
        .Bind(2, partition)
        .Bind(3, static_cast<int64_t>(slot))
        .Bind(4, table_key.partition)
        .Bind(5, table_key.sort);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "delete vector entry"));
  }
  return BumpVectorSlot(index_id, partition, slot);
}

Status SqliteTxn::DropVectorEntries(const char* entries_sql, const char* generations_sql, int64_t id) {
  for (const char* sql : {entries_sql, generations_sql}) {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare(sql));
    st->Bind(1, id);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "drop vector entries"));
  }
  return Status::Ok();
}

}  // namespace pogi::storage
