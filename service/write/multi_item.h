// What the multi-item operations (BatchGetItem, BatchWriteItem,
// TransactGetItems, TransactWriteItems) share: DynamoDB's limits on them, the
// echo of a request in a validation message, ConsumedCapacity per table,
// ItemCollectionMetrics, and the TransactionCanceledException.
#pragma once

#include <google/protobuf/message.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/catalog.h"
#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

// DynamoDB's limits (DESIGN.md).
inline constexpr int kMaxBatchGetKeys = 100;
inline constexpr int kMaxBatchWriteRequests = 25;
inline constexpr int kMaxTransactionActions = 100;
inline constexpr int64_t kMaxBatchGetResponseBytes = 16 * 1024 * 1024;
inline constexpr int64_t kMaxTransactionBytes = 4 * 1024 * 1024;
inline constexpr size_t kMaxClientRequestTokenLength = 36;

// A message as DynamoDB's Java front end prints it in a validation message
// ("WriteRequest(putRequest=PutRequest(item={pk=AttributeValue(S=a)}), deleteRequest=null)").
// DynamoDB echoes whole requests this way; clients match these messages by the
// constraint that follows, so the echo need only be recognizably the request.
std::string RenderJava(const google::protobuf::Message& m);
std::string RenderJava(const value::AttributeMap& m);

// An attribute map as DynamoDB JSON ({"pk":{"S":"a"}}), names in byte order.
std::string RenderJson(const value::AttributeMap& m);

// The identity of one item across tables, for "same item twice" checks.
std::string ItemIdentity(const Table& table, const storage::EncodedKey& key);

// The errors ValidateKey/ValidateItemForPut return when a key does not have the
// table's key attributes with their declared types (as opposed to a key value
// DynamoDB refuses whatever the schema, such as an empty string).
bool IsKeySchemaMismatch(const Error& e);

// ConsumedCapacity per table, in the order tables are first charged.
class CapacityTally {
 public:
  void Add(const std::string& table, double units);
  // Appends one ConsumedCapacity per table in the shape `mode` asks for
  // (nothing unless TOTAL or INDEXES). `kind` names the member that repeats
  // CapacityUnits in transactions: 'R' (ReadCapacityUnits), 'W', or 0 for none.
  void Fill(const std::string& mode, char kind,
            google::protobuf::RepeatedPtrField<v1::ConsumedCapacity>* out) const;

 private:
  std::vector<std::pair<std::string, double>> tables_;
};

// ItemCollectionMetrics of a write to `item` (its key attributes suffice):
// DynamoDB reports them only for tables with local secondary indexes. Appends
// to metrics[table name] when the table has any.
// ItemCollectionMetrics of the item collection `item` belongs to (tables
// with local secondary indexes only); false when there is none.
bool FillCollectionMetrics(const Table& table, const value::AttributeMap& item,
                           v1::ItemCollectionMetrics* out);

void AddCollectionMetrics(const Table& table, const value::AttributeMap& item,
                          google::protobuf::Map<std::string, v1::ItemCollectionMetricsList>* metrics);

// TransactionCanceledException with its reasons, in request order:
// "Transaction cancelled, please refer cancellation reasons for specific reasons [None,
// ConditionalCheckFailed]".
Error TransactionCanceled(const std::vector<v1::CancellationReason>& reasons);

// A reason of the given code; `message` empty for None.
v1::CancellationReason Reason(const std::string& code, const std::string& message = "");

// The cancellation DynamoDB answers when action `index` of `count` has a key
// that does not match its table: ValidationError there, None elsewhere.
Error CancelForKey(size_t count, size_t index, const std::string& message);

// DynamoDB's error when two actions of one transaction name the same item.
// `actions` have `table` (a shared_ptr<const Table>) and `key` members.
template <typename Actions>
Status CheckOneActionPerItem(const Actions& actions) {
  std::set<std::string> seen;
  for (const auto& a : actions) {
    if (!seen.insert(ItemIdentity(*a.table, a.key)).second) {
      return Error::Validation("Transaction request cannot include multiple operations on one item");
    }
  }
  return Status::Ok();
}

// The nesting error as the transaction operations word it: without the
// "1 validation error detected: " head. Other errors pass unchanged.
Error TransactionValidation(Error e);

}  // namespace pogi::service
