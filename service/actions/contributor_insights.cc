// DescribeContributorInsights, UpdateContributorInsights,
// ListContributorInsights: the per-table and per-index switch and the state
// DynamoDB shows for it (ENABLING -> ENABLED, DISABLING -> DISABLED). pogi
// keeps no contributor statistics.
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"

namespace pogi::service {
namespace {

constexpr std::string_view kDefaultMode = "ACCESSED_AND_THROTTLED_KEYS";

const v1::ContributorInsightsState* StateOf(const Table& table, const std::string* index) {
  for (const auto& c : table.settings.contributor_insights()) {
    if (index ? (c.has_index_name() && c.index_name() == *index) : !c.has_index_name()) return &c;
  }
  return nullptr;
}

Status CheckNames(const std::string* table, const std::string* index) {
  Constraints c;
  c.Required(table != nullptr, "tableName");
  c.Length(table, 1, 1024, "tableName");
  c.Length(index, 3, 255, "indexName");
  c.NamePattern(index, "indexName");
  return c.Finish();
}

// The table (by name or ARN) and, when named, its index.
Result<std::shared_ptr<const Table>> Lookup(const Catalog& catalog, const std::string& name,
                                            const std::string* index) {
  POGI_ASSIGN_OR_RETURN(std::string resolved, ResolveTableName(name));
  auto table = catalog.FindNamed(resolved, name);
  if (!table) return Error::ResourceNotFound("Requested resource not found: Table: " + name + " not found");
  // pogi's wording: DynamoDB's for a missing index is not on record.
  if (index && !table->FindIndex(*index)) {
    return Error::ResourceNotFound("Requested resource not found: Index: " + *index + " not found");
  }
  return table;
}

// The names DynamoDB gives the rules of one table or index.
void AddRules(const Table& table, const std::string* index, double since,
              google::protobuf::RepeatedPtrField<std::string>* rules) {
  std::string target = table.description.table_name() + (index ? "-" + *index : "");
  std::string stamp = std::to_string(static_cast<int64_t>(since * 1000));
  for (const char* kind : {"PKC", "PKT", "SKC", "SKT"}) {
    if ((kind[0] == 'S') &&
        !(index ? !table.FindIndex(*index)->keys.range.empty() : table.range.has_value())) {
      continue;
    }
    *rules->Add() = std::string("DynamoDBContributorInsights-") + kind + "-" + target + "-" + stamp;
  }
}

}  // namespace

Result<v1::DescribeContributorInsightsResponse> Engine::DescribeContributorInsights(
    const v1::DescribeContributorInsightsRequest& req) {
  const std::string* index = req.has_index_name() ? &req.index_name() : nullptr;
  POGI_RETURN_IF_ERROR(CheckNames(req.has_table_name() ? &req.table_name() : nullptr, index));
  POGI_ASSIGN_OR_RETURN(auto table, Lookup(catalog_, req.table_name(), index));
  v1::DescribeContributorInsightsResponse resp;
  resp.set_table_name(table->description.table_name());
  if (index) resp.set_index_name(*index);
  const auto* state = StateOf(*table, index);
  if (!state) {
    resp.set_contributor_insights_status("DISABLED");
    return resp;
  }
  resp.set_contributor_insights_status(state->status());
  resp.set_last_update_date_time(state->last_update_date_time());
  if (state->status() == "ENABLED") {
    resp.set_contributor_insights_mode(state->mode());
    AddRules(*table, index, state->last_update_date_time(), resp.mutable_contributor_insights_rule_list());
  }
  return resp;
}

Result<v1::UpdateContributorInsightsResponse> Engine::UpdateContributorInsights(
    const v1::UpdateContributorInsightsRequest& req) {
  const std::string* index = req.has_index_name() ? &req.index_name() : nullptr;
  {
    Constraints c;
    c.Required(req.has_table_name(), "tableName");
    c.Length(req.has_table_name() ? &req.table_name() : nullptr, 1, 1024, "tableName");
    c.Length(index, 3, 255, "indexName");
    c.NamePattern(index, "indexName");
    c.Required(req.has_contributor_insights_action(), "contributorInsightsAction");
    c.OneOf(req.has_contributor_insights_action() ? &req.contributor_insights_action() : nullptr,
            {"ENABLE", "DISABLE"}, "contributorInsightsAction");
    c.OneOf(req.has_contributor_insights_mode() ? &req.contributor_insights_mode() : nullptr,
            {"ACCESSED_AND_THROTTLED_KEYS", "THROTTLED_KEYS"}, "contributorInsightsMode");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto table, Lookup(catalog_, req.table_name(), index));
  bool enable = req.contributor_insights_action() == "ENABLE";
  std::string mode =
      req.has_contributor_insights_mode() ? req.contributor_insights_mode() : std::string(kDefaultMode);
  double now = clock_->Now();
  POGI_RETURN_IF_ERROR(ChangeSettings(*table, [&](v1::TableSettings& s) -> Status {
    v1::ContributorInsightsState* state = nullptr;
    for (auto& c : *s.mutable_contributor_insights()) {
      if (index ? (c.has_index_name() && c.index_name() == *index) : !c.has_index_name()) state = &c;
    }
    if (!state) {
      state = s.add_contributor_insights();
      if (index) state->set_index_name(*index);
    }
    // The change completes at once: the answer shows it under way, as
    // DynamoDB's does, and every later Describe shows it done.
    state->set_status(enable ? "ENABLED" : "DISABLED");
    if (enable) state->set_mode(mode);
    state->set_last_update_date_time(now);
    return Status::Ok();
  }));
  v1::UpdateContributorInsightsResponse resp;
  resp.set_table_name(table->description.table_name());
  if (index) resp.set_index_name(*index);
  resp.set_contributor_insights_status(enable ? "ENABLING" : "DISABLING");
  if (enable) resp.set_contributor_insights_mode(mode);
  return resp;
}

Result<v1::ListContributorInsightsResponse> Engine::ListContributorInsights(
    const v1::ListContributorInsightsRequest& req) {
  {
    Constraints c;
    c.Length(req.has_table_name() ? &req.table_name() : nullptr, 1, 1024, "tableName");
    if (req.has_max_results() && req.max_results() > 100) {
      c.Add(
          "Value '" + std::to_string(req.max_results()) +
          "' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100");
    }
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  std::vector<std::shared_ptr<const Table>> tables;
  if (req.has_table_name()) {
    POGI_ASSIGN_OR_RETURN(auto t, Lookup(catalog_, req.table_name(), nullptr));
    tables.push_back(t);
  } else {
    tables = catalog_.Visible();
  }
  // Every table and global index with its state, in name order.
  std::vector<v1::ContributorInsightsSummary> all;
  for (const auto& t : tables) {
    auto add = [&](const std::string* index) {
      v1::ContributorInsightsSummary s;
      s.set_table_name(t->description.table_name());
      if (index) s.set_index_name(*index);
      const auto* state = StateOf(*t, index);
      s.set_contributor_insights_status(state ? state->status() : "DISABLED");
      if (state && state->status() == "ENABLED") s.set_contributor_insights_mode(state->mode());
      all.push_back(std::move(s));
    };
    add(nullptr);
    for (const auto& g : t->description.global_secondary_indexes()) add(&g.index_name());
  }
  size_t start = 0;
  if (req.has_next_token()) {
    const std::string& tok = req.next_token();
    if (tok.empty() || tok.size() > 9 || tok.find_first_not_of("0123456789") != std::string::npos) {
      return Error::Validation("Invalid NextToken: " + tok);  // pogi's wording
    }
    start = std::stoul(tok);
  }
  // DynamoDB's default page is 10 summaries.
  size_t limit = req.has_max_results() && req.max_results() > 0 ? req.max_results() : 10;
  v1::ListContributorInsightsResponse resp;
  for (size_t i = start; i < all.size() && i < start + limit; ++i)
    *resp.add_contributor_insights_summaries() = all[i];
  if (start + limit < all.size()) resp.set_next_token(std::to_string(start + limit));
  return resp;
}

}  // namespace pogi::service
