// BatchGetItem: up to 100 items by key over several tables, read from one
// snapshot. What would take the response past 16 MB is returned in
// UnprocessedKeys, with the table's read parameters, for the caller to retry.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <set>

#include "service/engine/engine.h"
#include "service/expr/legacy.h"
#include "service/expr/projection.h"
#include "service/read/lagged_read.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/member_presence.h"
#include "service/validate/request_expressions.h"
#include "service/write/item_write.h"
#include "service/write/multi_item.h"

namespace pogi::service {
namespace {

constexpr char kMapKeysConstraint[] =
    "failed to satisfy constraint: Map keys must satisfy constraint: [Member must have length less than or "
    "equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular "
    "expression pattern: [a-zA-Z0-9_.-]+]";

bool ValidTableName(const std::string& name) {
  Constraints c;
  CheckTableNameOrArn(c, &name);
  return c.ok();
}

// The request map as DynamoDB echoes it for a bad table name: JSON.
std::string RenderRequestItems(const std::vector<const std::string*>& names,
                               const google::protobuf::Map<std::string, v1::KeysAndAttributes>& items) {
  std::string s = "{";
  for (size_t i = 0; i < names.size(); ++i) {
    const auto& ka = items.at(*names[i]);
    s += (i ? ",\"" : "\"") + *names[i] + "\":{\"Keys\":[";
    for (int k = 0; k < ka.keys_size(); ++k) s += (k ? "," : "") + RenderJson(ka.keys(k).attributes());
    s += "]}";
  }
  return s + "}";
}

// A key as a value that ignores the order of its attributes: two keys are the
// same request when they name the same attributes with the same (canonical)
// values, whatever the table's schema says.
std::string KeyIdentity(const value::AttributeMap& key) {
  std::vector<std::pair<std::string, std::string>> parts;
  parts.reserve(key.size());
  for (const auto& [name, v] : key) {
    std::string bytes;
    google::protobuf::io::StringOutputStream raw(&bytes);
    google::protobuf::io::CodedOutputStream out(&raw);
    out.SetSerializationDeterministic(true);  // map values inside compare equal
    v.SerializeToCodedStream(&out);
    out.Trim();
    parts.emplace_back(name, std::move(bytes));
  }
  std::sort(parts.begin(), parts.end());
  std::string id;
  for (const auto& [name, bytes] : parts) {
    id += std::to_string(name.size()) + ":" + name + std::to_string(bytes.size()) + ":" + bytes;
  }
  return id;
}

// One table's part of the request, checked.
struct TableRead {
  const std::string* name;
  const v1::KeysAndAttributes* request;
  std::shared_ptr<const Table> table;
  std::optional<expr::Projection> projection;
  std::vector<storage::EncodedKey> keys;
};

}  // namespace

Result<v1::BatchGetItemResponse> Engine::BatchGetItem(const v1::BatchGetItemRequest& req) {
  // Tables in name order: the proto map has none, and answers must not vary.
  std::vector<const std::string*> names;
  for (const auto& [name, ka] : req.request_items()) names.push_back(&name);
  std::sort(names.begin(), names.end(), [](auto* a, auto* b) { return *a < *b; });

  // No table at all: today's DynamoDB answers that the member is required
  // (an older record listed a length constraint), after the enums.
  if (names.empty()) {
    Constraints enums;
    CheckReturnOptions(enums, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                       nullptr);
    POGI_RETURN_IF_ERROR(enums.Finish());
    return Error::Validation("The requestItems parameter is required for BatchGetItem");
  }

  // Member constraints, reported together in member-name order.
  Constraints c;
  if (std::any_of(names.begin(), names.end(), [](auto* n) { return !ValidTableName(*n); })) {
    c.Add("Value '" + RenderRequestItems(names, req.request_items()) + "' at 'requestItems' " +
          kMapKeysConstraint);
  }
  for (const std::string* name : names) {
    const auto& ka = req.request_items().at(*name);
    int n = ka.keys_size();
    std::string head = "Value at 'RequestItems." + *name + ".member.Keys' failed to satisfy constraint: ";
    // Keys left out is null, not short (behaviours.md V1). The only record of
    // that answer is from 2020, in the older rendering (lower-case member
    // names, "Value null"); today's length errors use the newer one (3.2).
    if (!Sent(ka, v1::KeysAndAttributes::kKeysFieldNumber, n)) {
      c.Add("Value null at 'requestItems." + *name +
            ".member.keys' failed to satisfy constraint: Member must not be null");
    } else if (n < 1) {
      c.Add(head + "Member must have length greater than or equal to 1");
    }
    if (n > kMaxBatchGetKeys) c.Add(head + "Member must have length less than or equal to 100");
    c.AttributeNames(ka.has_attributes_to_get() ? &ka.attributes_to_get() : nullptr,
                     "requestItems." + *name + ".member.attributesToGet");
  }
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());

  int total = 0;
  bool any_projection = false, any_attributes_to_get = false;
  for (const std::string* name : names) {
    const auto& ka = req.request_items().at(*name);
    total += ka.keys_size();
    any_projection |= ka.has_projection_expression();
    any_attributes_to_get |= ka.has_attributes_to_get();
  }
  if (total > kMaxBatchGetKeys)
    return Error::Validation("Too many items requested for the BatchGetItem call");
  // One request speaks one projection language, whichever table carries it.
  if (any_projection && any_attributes_to_get) {
    return Error::Validation(
        "Can not use both expression and non-expression parameters in the same request: Non-expression "
        "parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}");
  }

  // Expressions and key values, before any table is looked up.
  std::vector<TableRead> reads;
  std::vector<std::vector<value::AttributeMap>> key_maps;
  for (const std::string* name : names) {
    const auto& ka = req.request_items().at(*name);
    TableRead r{name, &ka, nullptr, std::nullopt, {}};
    ExpressionParams params;
    params.projection = IfPresent(ka.has_projection_expression(), ka.projection_expression());
    if (ka.has_expression_attribute_names()) params.names = &ka.expression_attribute_names();
    if (ka.has_attributes_to_get()) params.legacy.push_back("AttributesToGet");
    POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
    r.projection = std::move(parsed.projection);
    if (!r.projection && ka.has_attributes_to_get()) {
      POGI_ASSIGN_OR_RETURN(r.projection, expr::ConvertAttributesToGet(ka.attributes_to_get().values()));
    }
    std::vector<value::AttributeMap> maps;
    std::set<std::string> seen;
    for (const auto& key : ka.keys()) {
      value::AttributeMap m = key.attributes();
      POGI_RETURN_IF_ERROR(ValidateAttributes(&m));
      // DynamoDB compares the keys as given, before it knows the table's
      // schema (behaviours.md O1): a repeated key is this error even when
      // it does not match the schema.
      if (!seen.insert(KeyIdentity(m)).second) {
        return Error::Validation("Provided list of item keys contains duplicates");
      }
      maps.push_back(std::move(m));
    }
    key_maps.push_back(std::move(maps));
    reads.push_back(std::move(r));
  }
  for (auto& r : reads) {
    POGI_ASSIGN_OR_RETURN(r.table, FindTable(*r.name));
  }
  for (size_t t = 0; t < reads.size(); ++t) {
    std::set<std::string> seen;
    for (const auto& m : key_maps[t]) {
      POGI_ASSIGN_OR_RETURN(auto key, ValidateKey(*reads[t].table, m));
      if (!seen.insert(ItemIdentity(*reads[t].table, key)).second) {
        return Error::Validation("Provided list of item keys contains duplicates");
      }
      reads[t].keys.push_back(std::move(key));
    }
    // As GetItem: a projection may not reach inside a key attribute
    // (behaviours.md V19), known once the table is.
    if (reads[t].projection) {
      POGI_RETURN_IF_ERROR(CheckScalarKeyPaths(*reads[t].table, nullptr, reads[t].projection->paths));
    }
  }

  v1::BatchGetItemResponse resp;
  CapacityTally capacity;
  Status s = storage_->Read([&](storage::ReadTxn& txn) -> Status {
    resp.Clear();
    capacity = CapacityTally();
    int64_t bytes = 0;
    bool full = false;
    for (const auto& r : reads) {
      v1::ItemList& items = (*resp.mutable_responses())[*r.name];
      v1::KeysAndAttributes* unprocessed = nullptr;
      bool consistent = r.request->consistent_read();
      std::optional<LaggedReadTxn> lagged;
      storage::ReadTxn& view = ReadView(txn, read_lag_, *r.table, !consistent, lagged);
      for (size_t k = 0; k < r.keys.size(); ++k) {
        std::optional<std::string> stored;
        std::optional<v1::Item> item;
        if (!full) {
          POGI_ASSIGN_OR_RETURN(stored, view.GetItem(r.table->id, r.keys[k]));
          if (stored) {
            POGI_ASSIGN_OR_RETURN(item, value::DecodeItem(*stored));
          }
          int64_t size = item ? value::ItemSize(item->attributes()) : 0;
          // What does not fit in this response is left for the next call.
          if (bytes + size > kMaxBatchGetResponseBytes) full = true;
          if (!full) {
            bytes += size;
            capacity.Add(*r.name, ReadUnits(size, consistent));
          }
        }
        if (full) {
          if (!unprocessed) {
            unprocessed = &(*resp.mutable_unprocessed_keys())[*r.name];
            *unprocessed = *r.request;
            unprocessed->clear_keys();
          }
          *unprocessed->add_keys() = r.request->keys(static_cast<int>(k));
          continue;
        }
        if (!item) continue;
        // Answered as stored, its attributes in their order.
        std::string_view proto = std::string_view(*stored).substr(1);
        value::CarryItem(&items, v1::ItemList::kItemsFieldNumber,
                         r.projection ? expr::ProjectedItemProto(*r.projection, item->attributes(), proto)
                                      : std::string(proto));
      }
    }
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  capacity.Fill(req.return_consumed_capacity(), 0, resp.mutable_consumed_capacity());
  return resp;
}

}  // namespace pogi::service
