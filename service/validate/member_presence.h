// Absent versus empty for list and map members. DynamoDB tells a member left
// out (null) from one sent as [] or {} and answers them differently: an absent
// KeySchema "must not be null", an empty one is too short; LocalSecondaryIndexes
// [] is "List of LocalSecondaryIndexes is empty" while an absent one is no
// index at all. A repeated or map field of the proto is only ever empty, so the
// JSON reader marks a member sent empty on its parent message, as an unknown
// field (kSentEmptyField, whose value is the member's field number): a request
// without empty lists carries nothing, and costs nothing. Over gRPC nothing is
// marked, and an empty list reads as an absent one.
#pragma once

#include <google/protobuf/message.h>

#include <string_view>

namespace pogi::service {

// The largest field number a message may have: pogi's own fields count up
// from 1000, and none may be this one (a unit test checks DynamoDB's and
// Streams' messages).
inline constexpr int kSentEmptyField = 536870911;

// Records that member `field_number` of `parent` was sent as [] or {}.
void MarkSentEmpty(google::protobuf::Message* parent, int field_number);

// Whether member `field_number` of `parent` was sent as [] or {}.
bool SentEmpty(const google::protobuf::Message& parent, int field_number);

// Whether a list or map member of `size` elements was sent at all.
inline bool Sent(const google::protobuf::Message& parent, int field_number, int size) {
  return size > 0 || SentEmpty(parent, field_number);
}

// A map entry sent as JSON null where DynamoDB refuses it by name. The
// reader keeps the entry and marks it with an unknown field
// (expr::kSentNullField), which crosses the gRPC door with the request:
// - a legacy condition (Expected, KeyConditions, QueryFilter, ScanFilter) is
//   kept empty and marked on itself (expr::SentNull reads it);
// - an ExpressionAttributeNames name is kept with an empty value, and its key
//   marked on the NameMap.
void MarkConditionSentNull(google::protobuf::Message* condition);
void MarkNameSentNull(google::protobuf::Message* name_map, std::string_view key);
bool NameSentNull(const google::protobuf::Message& name_map, std::string_view key);

}  // namespace pogi::service
