// PgTxn's vector index statements over vector_entries and
// vector_generations (pg_schema.cc): partitions and table keys by digest,
// one generation row per slot raised with every change of the slot.
#include "storage/pg_schema.h"
#include "storage/pg_txn.h"

namespace pogi::storage {
namespace {

// Entries per round trip when reading a slot: a slot of a large partition
// (4 KB per 1,024-dimension entry) comes in pages, so memory stays bounded.
constexpr int kVectorPage = 256;

}  // namespace

Status PgTxn::ReadVectorGenerations(int64_t index_id, std::string_view partition, VectorGenerations* out) {
  out->fill(0);
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("SELECT slot, gen FROM vector_generations WHERE index_id=$1 AND pkd=$2",
                                    PgParams().Int(index_id).Bytes(PgKeyDigest(partition))));
  for (int i = 0; i < rows.count(); i++) {
    int64_t slot = rows.Int(i, 0);
    if (slot >= 0 && slot < kVectorSlots) (*out)[slot] = rows.Int(i, 1);
  }
  return Status::Ok();
}

Status PgTxn::ReadVectorSlot(int64_t index_id, std::string_view partition, int slot,
                             const std::function<bool(const VectorEntry&)>& visit) {
  std::string pkd = PgKeyDigest(partition);
  std::optional<std::pair<std::string, std::string>> after;  // (tpkd, tsk) of the last row read
  for (;;) {
    PgParams p;
    p.Int(index_id).Bytes(pkd).Int(slot);
    if (after) p.Bytes(after->first).Bytes(after->second);
    p.Int(kVectorPage);
    POGI_ASSIGN_OR_RETURN(
        auto rows,
        conn_->Exec(after ? "SELECT tpk, tsk, vec, filters, size, tpkd FROM vector_entries WHERE index_id=$1 "
                            "AND pkd=$2 AND slot=$3 AND (tpkd, tsk)>($4, $5) ORDER BY tpkd, tsk LIMIT $6"
                          : "SELECT tpk, tsk, vec, filters, size, tpkd FROM vector_entries WHERE index_id=$1 "
                            "AND pkd=$2 AND slot=$3 ORDER BY tpkd, tsk LIMIT $4",
                    p));
    VectorEntry e;
    for (int i = 0; i < rows.count(); i++) {
      e.table_partition = rows.View(i, 0);
      e.table_sort = rows.View(i, 1);
      e.vector = rows.View(i, 2);
      e.filters = rows.View(i, 3);
      e.size = rows.Int(i, 4);
      if (!visit(e)) return Status::Ok();
    }
    if (rows.count() < kVectorPage) return Status::Ok();
    int last = rows.count() - 1;
    after.emplace(rows.Str(last, 5), rows.Str(last, 1));
  }
}

Result<std::pair<int64_t, int64_t>> PgTxn::VectorIndexCounters(int64_t index_id) {
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(size), 0) AS "
                                    "BIGINT) FROM vector_entries WHERE index_id=$1",
                                    PgParams().Int(index_id), kBulkStatementSeconds));
  return std::make_pair(rows.Int(0, 0), rows.Int(0, 1));
}

Status PgTxn::BumpVectorSlot(int64_t index_id, const std::string& pkd, int slot) {
  return Write(
      "INSERT INTO vector_generations(index_id, pkd, slot, gen) VALUES($1, $2, $3, 1) ON CONFLICT "
      "(index_id, pkd, slot) DO UPDATE SET gen=vector_generations.gen+1",
      PgParams().Int(index_id).Bytes(pkd).Int(slot));
}

Status PgTxn::PutVectorEntry(int64_t index_id, std::string_view partition, const EncodedKey& table_key,
                             std::string_view vector, std::string_view filters, int64_t size) {
  std::string pkd = PgKeyDigest(partition), tpkd = PgKeyDigest(table_key.partition);
  int slot = VectorSlot(table_key);
  POGI_RETURN_IF_ERROR(Write(
      "INSERT INTO vector_entries(index_id, pkd, slot, tpkd, tsk, pk, tpk, size, vec, filters) VALUES($1, "
      "$2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (index_id, pkd, slot, tpkd, tsk) DO UPDATE SET "
      "pk=EXCLUDED.pk, tpk=EXCLUDED.tpk, size=EXCLUDED.size, vec=EXCLUDED.vec, filters=EXCLUDED.filters",
      PgParams()
          .Int(index_id)
          .Bytes(pkd)
          .Int(slot)
          .Bytes(tpkd)
          .Bytes(table_key.sort)
          .Bytes(partition)
          .Bytes(table_key.partition)
          .Int(size)
          .Bytes(vector)
          .Bytes(filters)));
  return BumpVectorSlot(index_id, pkd, slot);
}

Status PgTxn::DeleteVectorEntry(int64_t index_id, std::string_view partition, const EncodedKey& table_key) {
  std::string pkd = PgKeyDigest(partition), tpkd = PgKeyDigest(table_key.partition);
  int slot = VectorSlot(table_key);
  POGI_RETURN_IF_ERROR(
      Write("DELETE FROM vector_entries WHERE index_id=$1 AND pkd=$2 AND slot=$3 AND tpkd=$4 AND tsk=$5",
            PgParams().Int(index_id).Bytes(pkd).Int(slot).Bytes(tpkd).Bytes(table_key.sort)));
  return BumpVectorSlot(index_id, pkd, slot);
}

}  // namespace pogi::storage
