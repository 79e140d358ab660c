// The control plane's shared rules: table ARNs and names, tag rules, and the
// tags and policy of a new table. (The table-level writes that go with them
// are the engine's: engine/engine_tables.cc.)
#include "service/validate/control_plane.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "common/uuid.h"
#include "service/core/catalog.h"
#include "service/core/region.h"
#include "service/validate/index_schema.h"

namespace pogi::service {

const std::string& NewTableRegion() { return StrictRegions() ? RequestRegion() : Region(); }

std::string TableArnOf(std::string_view table_name, std::string_view region) {
  std::string arn = "arn:aws:dynamodb:";
  arn.append(region.empty() ? std::string_view(NewTableRegion()) : region)
      .append(":")
      .append(AccountId())
      .append(":table/")
      .append(table_name);
  return arn;
}

v1::TableDescription TableDescriptionInRegion(const v1::TableDescription& source, const std::string& region,
                                              double now) {
  v1::TableDescription d = source;
  d.clear_pogi_transitions();
  d.clear_pogi_stream_id();
  d.clear_pogi_replication_queue();
  d.clear_stream_specification();
  d.clear_latest_stream_arn();
  d.clear_latest_stream_label();
  d.clear_restore_summary();
  d.clear_item_count();
  d.clear_table_size_bytes();
  d.set_table_status("ACTIVE");
  d.set_creation_date_time(now);
  d.set_table_arn(TableArnOf(d.table_name(), region));
  d.set_table_id(RandomUuid());
  for (auto& g : *d.mutable_global_secondary_indexes())
    g.set_index_arn(IndexArn(d.table_arn(), g.index_name()));
  for (auto& l : *d.mutable_local_secondary_indexes())
    l.set_index_arn(IndexArn(d.table_arn(), l.index_name()));
  for (auto& v : *d.mutable_vector_indexes()) v.set_index_arn(IndexArn(d.table_arn(), v.index_name()));
  return d;
}

std::optional<std::string> TableNameOfArn(std::string_view arn) {
  std::string_view region = RegionOfArn(arn);
  if (!IsRegionName(region)) return std::nullopt;
  std::string prefix = TableArnOf("", region);
  if (!arn.starts_with(prefix)) return std::nullopt;
  std::string_view name = arn.substr(prefix.size());
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return std::string(name);
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
  // An ARN of any region names its table there (Catalog::FindNamed decides
  // whether the request's region sees it).
  if (parts[1] != "aws" || !IsRegionName(parts[3]) || parts[4] != AccountId()) return name_or_arn;
  return std::string(name);
}

namespace {

// The characters AWS allows in tags: letters, digits, white space and
// + - = . _ : / @ (the pattern below). Every character outside ASCII is
// taken for a letter: pogi has no Unicode tables, and DynamoDB's refusals on
// record are all of ASCII punctuation (! % " # $ & ^ < > \ | ; ( )).
bool IsTagText(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char ch) {
    auto c = static_cast<unsigned char>(ch);
    return c >= 0x80 || isalnum(c) || c == ' ' ||
           std::string_view("+-=._:/@").find(ch) != std::string_view::npos;
  });
}
constexpr std::string_view kTagPattern = "^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$";

}  // namespace

void CheckTagMembers(Constraints& c, const google::protobuf::RepeatedPtrField<v1::Tag>& tags,
                     std::string_view path) {
  for (int i = 0; i < tags.size(); ++i) {
    const auto& t = tags[i];
    std::string at = std::string(path) + "." + std::to_string(i + 1) + ".member.";
    c.Required(t.has_key(), at + "key");
    c.Length(t.has_key() ? &t.key() : nullptr, 1, 128, at + "key");
    if (t.has_key()) c.Pattern(&t.key(), IsTagText(t.key()), kTagPattern, at + "key");
    c.Required(t.has_value(), at + "value");
    c.Length(t.has_value() ? &t.value() : nullptr, 0, 256, at + "value");
    if (t.has_value()) c.Pattern(&t.value(), IsTagText(t.value()), kTagPattern, at + "value");
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

Status CheckArnForm(const std::string* arn, std::string_view op) {
  // What DynamoDB answers, in its order (dynalite's and Alternator's tests
  // record it): no ARN; something that does not start "arn:"; an ARN of
  // another form, an access denial naming the resource. (An empty one broke the length constraint
  // before this.)
  if (!arn) return Error::Validation("Invalid TableArn");
  // Today's DynamoDB answers a ResourceArn that is no ARN at all (a bare
  // table name) so; about 2020 it answered the access denial below.
  if (!arn->starts_with("arn:")) return Error::InvalidParameter("ARNs must start with 'arn:': " + *arn);
  auto slash = arn->find('/');
  int colons = 0;
  for (size_t i = 0; i < arn->size() && i < slash; ++i) colons += (*arn)[i] == ':';
  if (slash == std::string::npos || colons < 5 || slash + 1 >= arn->size()) {
    return Error(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + AccountId() +
                                               ":user/pogi is not authorized to perform: dynamodb:" +
                                               std::string(op) + " on resource: " + *arn);
  }
  // A table of another account (behaviours.md 1.2): the caller may not act
  // on it, whether or not it exists. The words after the resource are those
  // of AWS's denials for want of a resource-based policy.
  std::string_view account = AccountOfArn(*arn);
  if (arn->starts_with("arn:aws:dynamodb:") && !account.empty() && account != AccountId()) {
    return Error(ErrorCode::kAccessDenied,
                 "User: arn:aws:iam::" + AccountId() + ":user/pogi is not authorized to perform: dynamodb:" +
                     std::string(op) + " on resource: " + *arn +
                     " because no resource-based policy allows the dynamodb:" + std::string(op) + " action");
  }
  return Status::Ok();
}

Status CheckTableNamePresent(bool present) {
  if (present) return Status::Ok();
  return Error::Validation("The parameter 'TableName' is required but was not present in the request");
}

}  // namespace pogi::service
