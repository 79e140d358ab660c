// The table-level writes and lookups the control-plane actions share:
// creating a table inside a write (CreateTable and restores), changing a
// table's settings, and the table an ARN names.
#include <map>

#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/write/item_write.h"

namespace pogi::service {

Result<std::shared_ptr<const Table>> Engine::CreateTableInTxn(storage::WriteTxn& txn,
                                                              const v1::TableDescription& d,
                                                              const v1::TableSettings& settings) {
  // The catalog row's name only has to be unique: a table alone of its name
  // keeps the bare name (every data file before regions existed), one of a
  // name that lives in several regions "REGION/NAME". Its region is its ARN's.
  std::string stored_name = d.table_name();
  if (!catalog_.AllNamed(d.table_name()).empty()) {
    std::string_view region = RegionOfArn(d.table_arn());
    stored_name = std::string(region.empty() ? std::string_view(Region()) : region) + "/" + d.table_name();
  }
  POGI_ASSIGN_OR_RETURN(int64_t id, txn.CreateTable({0, stored_name, d.SerializeAsString()}));
  std::map<std::string, int64_t> index_ids;
  for (const auto& g : d.global_secondary_indexes()) {
    POGI_ASSIGN_OR_RETURN(index_ids[g.index_name()], txn.CreateIndex(id, g.index_name()));
  }
  for (const auto& l : d.local_secondary_indexes()) {
    POGI_ASSIGN_OR_RETURN(index_ids[l.index_name()], txn.CreateIndex(id, l.index_name()));
  }
  for (const auto& v : d.vector_indexes()) {
    POGI_ASSIGN_OR_RETURN(index_ids[v.index_name()], txn.CreateIndex(id, v.index_name()));
  }
  if (settings.ByteSizeLong() > 0)
    POGI_RETURN_IF_ERROR(txn.PutTableSettings(id, settings.SerializeAsString()));
  auto table = Catalog::WithSettings(*catalog_.Make(id, d, index_ids), settings);
  catalog_.Put(table);  // inside the write, so the next create sees it
  return table;
}

Status Engine::ChangeSettings(const Table& seen, const std::function<Status(v1::TableSettings&)>& change) {
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto current, CurrentTable(catalog_, seen));
    v1::TableSettings settings = current->settings;
    POGI_RETURN_IF_ERROR(change(settings));
    POGI_RETURN_IF_ERROR(txn.PutTableSettings(current->id, settings.SerializeAsString()));
    // Inside the write: the next write of the table sees the new settings.
    // (A failed commit leaves the catalog ahead of storage only if SQLite
    // fails the COMMIT itself, as for CreateTable.)
    catalog_.Put(Catalog::WithSettings(*current, std::move(settings)));
    return Status::Ok();
  });
}

Result<std::shared_ptr<const Table>> Engine::TableOfArn(const std::string& arn) {
  // A DynamoDB ARN of something else than a table (an index, a stream, a
  // backup) is refused as DynamoDB does; a table ARN of another account or
  // region names no table here.
  std::string_view rest = arn;
  bool table_arn = rest.starts_with("arn:aws:dynamodb:");
  size_t table_at = arn.find(":table/");
  if (table_arn && table_at != std::string::npos) {
    std::string_view name = rest.substr(table_at + 7);
    table_arn = name.size() >= 3 && name.find('/') == std::string_view::npos;
  } else {
    table_arn = false;
  }
  if (!table_arn) return Error::Validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
  auto name = TableNameOfArn(arn);
  auto table = name ? catalog_.FindNamed(*name, arn) : nullptr;
  // A table being created or deleted is not found here either (DynamoDB's
  // tagging answers so for the most part of those states).
  if (table && !table->serves_items) table = nullptr;
  // "ResourcArn" is DynamoDB's own spelling in this message.
  if (!table)
    return Error::ResourceNotFound("Requested resource not found: ResourcArn: " + arn + " not found");
  return table;
}

}  // namespace pogi::service
