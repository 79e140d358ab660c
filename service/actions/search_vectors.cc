// SearchVectors: the exact top K nearest items of one partition of a vector
// index. Validated in DynamoDB's order with its messages; then the
// partition's vectors are scanned in memory (VectorCache, exact against
// storage), scored with the index's distance function, filtered by its
// INLINE_FILTER equalities, and the K best items read in the same
// snapshot and projected as the index projects them.
#include <algorithm>
#include <cstring>

#include "service/engine/engine.h"
#include "service/expr/projection.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/request_expressions.h"
#include "service/vector/distance.h"
#include "service/vector/search_condition.h"
#include "service/vector/top_k.h"
#include "service/vector/vector_values.h"

namespace pogi::service {
namespace {

constexpr int kMaxTopK = 100;

Status CheckMembers(const v1::SearchVectorsRequest& req) {
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(req.has_index_name(), "indexName");
  // DynamoDB names the member with a capital letter here and leaves its
  // value out, unlike its other length messages.
  if (req.has_index_name() && req.index_name().size() < 3) {
    c.Add(
        "Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to "
        "3");
  } else if (req.has_index_name() && req.index_name().size() > 255) {
    c.Add(
        "Value at 'IndexName' failed to satisfy constraint: Member must have length less than or equal to "
        "255");
  }
  c.Required(req.has_search_vector(), "searchVector");
  if (req.has_search_vector() && req.search_vector().values().empty()) {
    c.Add(
        "Value at 'SearchVector' failed to satisfy constraint: Member must have length greater than or equal "
        "to 1");
  }
  c.Required(req.has_top_k(), "topK");
  c.AtLeast(req.has_top_k() ? std::optional<int64_t>(req.top_k()) : std::nullopt, 1, "topK");
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  return c.Finish();
}

Error InvalidSearchVector() {
  return Error::Validation(
      "Search vector contains invalid values. All values in the search vector must be a 32-bit "
      "floating-point "
      "number attribute");
}

// The search vector as floats: every element a number within a float's
// range, then as many as the index's dimensions (DynamoDB's order).
Result<std::vector<float>> QueryVector(const v1::SearchVectorsRequest& req, const VectorIndex& index) {
  std::vector<float> q;
  q.reserve(req.search_vector().values_size());
  for (const auto& v : req.search_vector().values()) {
    if (v.value_case() != v1::AttributeValue::kN) return InvalidSearchVector();
    auto f = NumberToFloat(v.n());
    if (!f) return InvalidSearchVector();
    q.push_back(*f);
  }
  if (q.size() != static_cast<size_t>(index.dimensions)) {
    return Error::Validation("Input search vector dimension " + std::to_string(q.size()) +
                             " does not match vector index dimension " + std::to_string(index.dimensions));
  }
  return q;
}

// The attributes of `item` the index holds, as a search returns them: the
// vector attribute (its 32-bit float values) only when a
// ProjectionExpression names it and the index projects it.
value::AttributeMap Projected(const Table& table, const VectorIndex& index, const value::AttributeMap& item,
                              bool with_vector) {
  auto holds = [&](const std::string& name) {
    if (name == index.attribute)
      return with_vector && (index.projection_type == "ALL" || index.non_key_attributes.count(name) > 0);
    if (index.projection_type == "ALL" || table.IsTableKey(name)) return true;
    if (index.hash && index.hash->name == name) return true;
    for (const KeyAttribute& f : index.filters) {
      if (f.name == name) return true;
    }
    return index.projection_type == "INCLUDE" && index.non_key_attributes.count(name) > 0;
  };
  value::AttributeMap out;
  for (const auto& [name, v] : item) {
    if (!holds(name)) continue;
    if (name != index.attribute || v.value_case() != v1::AttributeValue::kL) {
      out[name] = v;
      continue;
    }
    v1::AttributeValue f32;  // as the index keeps it
    auto* list = f32.mutable_l();
    for (const auto& e : v.l().values()) {
      auto f = NumberToFloat(e.n());
      list->add_values()->set_n(f ? FloatToNumber(*f) : e.n());
    }
    out[name] = std::move(f32);
  }
  return out;
}

bool PassesFilters(const SearchScope& scope, std::string_view filters,
                   std::vector<std::optional<std::string_view>>* scratch) {
  if (std::none_of(scope.filters.begin(), scope.filters.end(), [](const auto& f) { return f.has_value(); })) {
    return true;
  }
  if (!SplitFilterValues(filters, scope.filters.size(), scratch)) return false;
  for (size_t i = 0; i < scope.filters.size(); ++i) {
    if (scope.filters[i] && (!(*scratch)[i] || *(*scratch)[i] != *scope.filters[i])) return false;
  }
  return true;
}

}  // namespace

Result<v1::SearchVectorsResponse> Engine::SearchVectors(const v1::SearchVectorsRequest& req) {
  POGI_RETURN_IF_ERROR(CheckMembers(req));
  if (req.top_k() > kMaxTopK) {
    return Error::Validation("Provided TopK value '" + std::to_string(req.top_k()) +
                             "' is out of valid range. The value must be between 1 and " +
                             std::to_string(kMaxTopK) + " inclusive");
  }
  ExpressionParams params;
  params.search_condition =
      IfPresent(req.has_search_condition_expression(), req.search_condition_expression());
  params.projection = IfPresent(req.has_projection_expression(), req.projection_expression());
  SetSubstitutions(params, req);
  params.value_expressions = "SearchConditionExpression";
  POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
  std::vector<SearchEquality> equalities;
  if (parsed.search_condition) {
    POGI_ASSIGN_OR_RETURN(equalities, SearchEqualities(*parsed.search_condition));
  }

  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  const VectorIndex* index = table->FindVectorIndex(req.index_name());
  if (!index) return Error::Validation("The table does not have the specified index: " + req.index_name());
  if (!index->searchable) return Error::Validation("Cannot search backfilling vector index: " + index->name);
  POGI_ASSIGN_OR_RETURN(std::vector<float> query, QueryVector(req, *index));
  POGI_ASSIGN_OR_RETURN(SearchScope scope, ScopeOf(*index, equalities));

  // Does the ProjectionExpression name the vector attribute?
  bool with_vector = false;
  if (parsed.projection) {
    for (const auto& path : parsed.projection->paths) with_vector |= path.front().name == index->attribute;
  }
  const double query_norm2 = SquaredNorm(query.data(), query.size());
  const size_t k = static_cast<size_t>(req.top_k());
  v1::SearchVectorsResponse resp;
  int64_t scanned_bytes = 0;
  Status s = storage_->Read([&](storage::ReadTxn& txn) -> Status {
    resp.clear_search_results();
    scanned_bytes = 0;
    TopK top(k, index->distance);
    std::vector<double> pass;
    std::vector<std::optional<std::string_view>> scratch;
    POGI_RETURN_IF_ERROR(vector_cache_.ForEachSlot(txn, *index, scope.partition, [&](const VectorRows& rows) {
      pass.resize(rows.rows());
      if (index->distance == DistanceFunction::kEuclidean) {
        SquaredDistances(query.data(), rows.vectors.data(), rows.rows(), rows.dims, pass.data());
      } else {
        DotProducts(query.data(), rows.vectors.data(), rows.rows(), rows.dims, pass.data());
      }
      for (size_t r = 0; r < rows.rows(); ++r) {
        scanned_bytes += rows.sizes[r];
        double score = ScoreOf(index->distance, pass[r], query_norm2, rows.norms2[r]);
        if (!top.Admits(score) || !PassesFilters(scope, rows.filters[r], &scratch)) continue;
        top.Offer(score, rows.table_partitions[r], rows.table_sorts[r]);
      }
    }));
    for (const Ranked& hit : top.Take()) {
      POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetItem(table->id, {hit.table_partition, hit.table_sort}));
      if (!bytes) continue;  // cannot happen: the entry and its item change together
      POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(*bytes));
      auto* result = resp.add_search_results();
      value::AttributeMap projected = Projected(*table, *index, item.attributes(), with_vector);
      *result->mutable_item() =
          parsed.projection ? expr::Project(*parsed.projection, projected) : std::move(projected);
      result->set_score(hit.score);
    }
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  if (WantsCapacity(req.return_consumed_capacity())) {
    resp.mutable_consumed_capacity()->set_vector_search_request_bytes(
        static_cast<double>(std::max(scanned_bytes, kMinVectorRequestBytes)));
  }
  return resp;
}

}  // namespace pogi::service
