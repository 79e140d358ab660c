// The control plane's shared parts: ARNs, tag rules, creating a table inside
// a write (CreateTable and restores), and changing a table's settings.
#include "service/control_plane.h"

#include <map>
#include <vector>

#include "service/engine.h"
#include "service/item_write.h"
#include "service/region.h"

namespace pogi::service {

std::string TableArnOf(std::string_view table_name) {
  std::string arn = "arn:aws:dynamodb:";
  arn.append(Region()).append(":").append(kAccountId).append(":table/").append(table_name);
  return arn;
}

std::optional<std::string> TableNameOfArn(std::string_view arn) {
  std::string prefix = TableArnOf("");
  if (!arn.starts_with(prefix)) return std::nullopt;
  std::string_view name = arn.substr(prefix.size());
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return std::string(name);
}

std::string TableNameOrArn(const std::string& name_or_arn) {
  if (!name_or_arn.starts_with("arn:")) return name_or_arn;
  auto name = TableNameOfArn(name_or_arn);
  return name ? *name : name_or_arn;
}

Result<std::string> ResolveTableName(const std::string& name_or_arn) {
  if (!name_or_arn.starts_with("arn:")) return name_or_arn;
  // arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME, NAME a table name.
  std::string_view arn = name_or_arn;
  std::vector<std::string_view> parts;
  size_t at = 0;
  for (int i = 0; i < 5; ++i) {
    size_t colon = arn.find(':', at);
    if (colon == std::string_view::npos) break;
    parts.push_back(arn.substr(at, colon - at));
    at = colon + 1;
  }
  std::string_view resource = parts.size() == 5 ? arn.substr(at) : std::string_view();
  bool table = parts.size() == 5 && parts[2] == "dynamodb" && resource.starts_with("table/");
  std::string_view name = table ? resource.substr(6) : std::string_view();
  table = table && name.size() >= 3 && name.size() <= 255 &&
          name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
              std::string_view::npos;
  // DynamoDB answers a ValidationException here; its exact wording is not
  // on record, so this is the wording of pogi's other ARN checks.
  if (!table)
    return Error::Validation("Invalid TableArn: Invalid ResourceArn provided as input " + name_or_arn);
  if (parts[1] != "aws" || parts[3] != Region() || parts[4] != kAccountId) return name_or_arn;
  return std::string(name);
}

void CheckTagMembers(Constraints& c, const google::protobuf::RepeatedPtrField<v1::Tag>& tags,
                     std::string_view path) {
  for (int i = 0; i < tags.size(); ++i) {
    const auto& t = tags[i];
    std::string at = std::string(path) + "." + std::to_string(i + 1) + ".member.";
    c.Required(t.has_key(), at + "key");
    c.Length(t.has_key() ? &t.key() : nullptr, 1, 128, at + "key");
    c.Required(t.has_value(), at + "value");
    c.Length(t.has_value() ? &t.value() : nullptr, 0, 256, at + "value");
  }
}

Status MergeTags(const google::protobuf::RepeatedPtrField<v1::Tag>& tags,
                 google::protobuf::RepeatedPtrField<v1::Tag>* existing) {
  std::map<std::string, std::string> merged;
  for (const auto& t : *existing) merged[t.key()] = t.value();
  for (const auto& t : tags) {
    // DynamoDB's exact wording is not on record; AWS reserves the prefix
    // for its own tags in every service.
    if (t.key().starts_with("aws:")) {
      return Error::InvalidParameter("Tag key cannot start with the reserved prefix aws: (" + t.key() + ")");
    }
    merged[t.key()] = t.value();
  }
  if (merged.size() > static_cast<size_t>(kMaxTags)) {
    // DynamoDB answers a ValidationException; its exact wording is not on record.
    return Error::InvalidParameter("Too many tags: a table can have at most " + std::to_string(kMaxTags) +
                                   " tags");
  }
  existing->Clear();
  for (const auto& [k, v] : merged) {
    auto* t = existing->Add();
    t->set_key(k);
    t->set_value(v);
  }
  return Status::Ok();
}

Status TagsForNewTable(const v1::CreateTableRequest& req, double now, v1::TableSettings* settings) {
  // The tags' member constraints were checked with CreateTable's others.
  POGI_RETURN_IF_ERROR(MergeTags(req.tags(), settings->mutable_tags()));
  if (req.has_resource_policy()) {
    settings->set_resource_policy(req.resource_policy());
    settings->set_policy_revision_id(std::to_string(static_cast<int64_t>(now * 1e6)));
  }
  return Status::Ok();
}

Result<std::shared_ptr<const Table>> Engine::CreateTableInTxn(storage::WriteTxn& txn,
                                                              const v1::TableDescription& d,
                                                              const v1::TableSettings& settings) {
  POGI_ASSIGN_OR_RETURN(int64_t id, txn.CreateTable({0, d.table_name(), d.SerializeAsString()}));
  std::map<std::string, int64_t> index_ids;
  for (const auto& g : d.global_secondary_indexes()) {
    POGI_ASSIGN_OR_RETURN(index_ids[g.index_name()], txn.CreateIndex(id, g.index_name()));
  }
  for (const auto& l : d.local_secondary_indexes()) {
    POGI_ASSIGN_OR_RETURN(index_ids[l.index_name()], txn.CreateIndex(id, l.index_name()));
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

Status CheckArnForm(const std::string* arn, std::string_view op) {
  // What DynamoDB answers, in its order (dynalite's and Alternator's tests
  // record it): no ARN; something that is not an ARN at all, an access
  // denial naming the resource. (An empty one broke the length constraint
  // before this.)
  if (!arn) return Error::Validation("Invalid TableArn");
  auto slash = arn->find('/');
  int colons = 0;
  for (size_t i = 0; i < arn->size() && i < slash; ++i) colons += (*arn)[i] == ':';
  if (slash == std::string::npos || colons < 5 || slash + 1 >= arn->size()) {
    return Error(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + std::string(kAccountId) +
                                               ":user/pogi is not authorized to perform: dynamodb:" +
                                               std::string(op) + " on resource: " + *arn);
  }
  return Status::Ok();
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
  auto table = name ? catalog_.Find(*name) : nullptr;
  // "ResourcArn" is DynamoDB's own spelling in this message.
  if (!table)
    return Error::ResourceNotFound("Requested resource not found: ResourcArn: " + arn + " not found");
  return table;
}

}  // namespace pogi::service
