// BatchWriteItem: up to 25 puts and deletes over several tables, each
// validated as PutItem/DeleteItem validate theirs (with BatchWriteItem's own
// messages), written in one storage transaction. pogi never throttles, so
// UnprocessedItems is always empty.
#include <algorithm>
#include <set>

#include "service/engine/engine.h"
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
constexpr char kMapValueConstraint[] =
    "failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or "
    "equal to 25, Member must have length greater than or equal to 1]";

bool ValidTableName(const std::string& name) {
  Constraints c;
  CheckTableNameOrArn(c, &name);
  return c.ok();
}

// One put or delete, checked.
struct Write {
  const std::string* table_name;
  std::shared_ptr<const Table> table;
  bool put;
  value::AttributeMap item;  // the item of a put, the key of a delete
  storage::EncodedKey key;
};

// The key attributes of a put's item; a missing one is BatchWriteItem's schema mismatch.
Result<storage::EncodedKey> KeyOfItem(const Table& table, const value::AttributeMap& item) {
  value::AttributeMap key;
  for (const KeyAttribute* attr : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!attr) continue;
    auto it = item.find(attr->name);
    if (it == item.end()) return Error::Validation("The provided key element does not match the schema");
    key[attr->name] = it->second;
  }
  return ValidateKey(table, key, /*empty_as_item=*/true);
}

}  // namespace

Result<v1::BatchWriteItemResponse> Engine::BatchWriteItem(const v1::BatchWriteItemRequest& req) {
  // Which error wins, in DynamoDB's order (behaviours.md O10, V1, O1):
  //  1. RequestItems {} or absent: "The requestItems parameter is required"
  //     (today's text; a bad enum is reported before it);
  //  2. the member constraints, together: the enums, the table names (map
  //     keys), 1 to 25 requests per table (map values), a PutRequest without
  //     Item or a DeleteRequest without Key (null; {} is present);
  //  3. more than 25 requests in all;
  //  4. each request's values and item size, before any table is looked up;
  //  5. the tables, then keys against their schemas and duplicates.
  Constraints c;
  CheckReturnOptions(
      c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
      IfPresent(req.has_return_item_collection_metrics(), req.return_item_collection_metrics()));
  if (req.request_items().empty()) {
    POGI_RETURN_IF_ERROR(c.Finish());
    return Error::Validation("The requestItems parameter is required for BatchWriteItem");
  }

  std::vector<const std::string*> names;
  for (const auto& [name, list] : req.request_items()) names.push_back(&name);
  std::sort(names.begin(), names.end(), [](auto* a, auto* b) { return *a < *b; });
  bool bad_name = false, bad_count = false;
  int total = 0;
  for (const std::string* name : names) {
    int n = req.request_items().at(*name).requests_size();
    bad_name |= !ValidTableName(*name);
    bad_count |= n < 1 || n > kMaxBatchWriteRequests;
    total += n;
  }
  if (bad_name || bad_count) {
    std::string echo = "{";
    for (size_t i = 0; i < names.size(); ++i) {
      echo += (i ? ", " : "") + *names[i] + "=" + RenderJava(req.request_items().at(*names[i]));
    }
    echo += "}";
    if (bad_name) c.Add("Value '" + echo + "' at 'requestItems' " + kMapKeysConstraint);
    if (bad_count) c.Add("Value '" + echo + "' at 'requestItems' " + kMapValueConstraint);
  }
  for (const std::string* name : names) {
    const auto& requests = req.request_items().at(*name).requests();
    for (int i = 0; i < requests.size(); ++i) {
      const auto& wr = requests[i];
      std::string at = "requestItems." + *name + ".member." + std::to_string(i + 1) + ".member.";
      if (wr.has_put_request()) {
        const auto& p = wr.put_request();
        c.Required(Sent(p, v1::PutRequest::kItemFieldNumber, p.item_size()), at + "putRequest.item");
      }
      if (wr.has_delete_request()) {
        const auto& d = wr.delete_request();
        c.Required(Sent(d, v1::DeleteRequest::kKeyFieldNumber, d.key_size()), at + "deleteRequest.key");
      }
    }
  }
  POGI_RETURN_IF_ERROR(c.Finish());
  if (total > kMaxBatchWriteRequests) {
    return Error::Validation("Too many items requested for the BatchWriteItem call");
  }

  // Values and sizes, before any table is looked up.
  std::vector<Write> writes;
  for (const std::string* name : names) {
    for (const auto& wr : req.request_items().at(*name).requests()) {
      if (wr.has_put_request() == wr.has_delete_request()) {
        return Error::Validation(
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
            "supported "
            "datatypes");
      }
      Write w{name, nullptr, wr.has_put_request(), {}, {}};
      w.item = w.put ? wr.put_request().item() : wr.delete_request().key();
      POGI_RETURN_IF_ERROR(ValidateAttributes(&w.item));
      if (w.put && value::ItemSize(w.item) > kMaxItemSize) {
        return Error::Validation("Item size has exceeded the maximum allowed size");
      }
      writes.push_back(std::move(w));
    }
  }
  for (const std::string* name : names) {
    POGI_ASSIGN_OR_RETURN(auto table, FindTable(*name));
    for (auto& w : writes) {
      if (w.table_name == name) w.table = table;
    }
  }
  std::set<std::string> seen;
  for (auto& w : writes) {
    POGI_ASSIGN_OR_RETURN(w.key, w.put ? KeyOfItem(*w.table, w.item) : ValidateKey(*w.table, w.item));
    if (!seen.insert(ItemIdentity(*w.table, w.key)).second) {
      return Error::Validation("Provided list of item keys contains duplicates");
    }
  }

  v1::BatchWriteItemResponse resp;
  CapacityTally capacity;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    // The tables as they are now (UpdateTable may have added an index).
    for (auto& w : writes) {
      POGI_ASSIGN_OR_RETURN(w.table, CurrentTable(catalog_, *w.table));
    }
    capacity = CapacityTally();
    resp.Clear();
    for (const auto& w : writes) {
      POGI_ASSIGN_OR_RETURN(auto old, ReadItem(txn, *w.table, w.key));
      const value::AttributeMap* old_item = old ? &*old : nullptr;
      POGI_RETURN_IF_ERROR(ApplyChange(txn, *w.table, w.key, old_item, w.put ? &w.item : nullptr));
      int64_t size = std::max(old ? value::ItemSize(*old) : 0, w.put ? value::ItemSize(w.item) : 0);
      capacity.Add(*w.table_name, WriteUnits(size));
      if (req.return_item_collection_metrics() == "SIZE") {
        AddCollectionMetrics(*w.table, w.item, resp.mutable_item_collection_metrics());
      }
    }
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  capacity.Fill(req.return_consumed_capacity(), 0, resp.mutable_consumed_capacity());
  return resp;
}

}  // namespace pogi::service
