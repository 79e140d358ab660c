// Stream records as DynamoDB Streams shows them, and the names pogi gives
// streams, shards, sequence numbers and shard iterators. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "pogi/v1/streams.pb.h"
#include "service/core/catalog.h"
#include "service/value/item.h"

namespace pogi::service {

inline constexpr double kStreamRetentionSeconds = 24 * 3600;
inline constexpr double kIteratorLifetimeSeconds = 15 * 60;

// What caused a change (TTL deletions carry the service's identity).
// kReplicated: a global table's replicated write (service/replication), which
// is not replicated again.
enum class ChangeSource { kRequest, kTimeToLive, kReplicated };

// The record of a change from `old_item` to `new_item` (either may be null,
// not both) on `table`, shown as `view_type` wants it, at clock time `now`.
// Without its sequence number and event id: storage issues those.
v1::Record BuildRecord(const Table& table, const std::string& view_type, const value::AttributeMap* old_item,
                       const value::AttributeMap* new_item, double now, ChangeSource source);
// What the write path already has of a change's items, so that a record is
// written without encoding or measuring them again: each item's serialized
// pogi.v1.Item (empty: not at hand) and value::ItemSize (-1: not measured).
struct ItemForms {
  std::string_view new_proto, old_proto;
  int64_t new_size = -1, old_size = -1;
};
// The stored (serialized) form of BuildRecord's record, written field by
// field as wire bytes, never as a v1::Record: each image is the item's
// serialized pogi.v1.Item with its entries re-tagged as the record's map
// field. Parses to exactly BuildRecord's record.
std::string SerializeRecord(const Table& table, const std::string& view_type,
                            const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                            const ItemForms& forms, double now, ChangeSource source);
// Appends the stored record `stored` (SerializeRecord's bytes) as GetRecords
// shows it, still serialized: with what it gets from its stored position,
// its event id first and its sequence number in its StreamRecord, before
// SizeBytes (where a serialized v1::Record has them). False when `stored` is
// not a record SerializeRecord wrote.
bool FinishRecord(int64_t stream_id, int64_t sequence, std::string_view stored, std::string* out);

// Sequence numbers are decimal strings of at least 21 digits (DynamoDB's
// minimum length), so that they sort as strings as well as numbers.
std::string FormatSequence(int64_t sequence);
std::optional<int64_t> ParseSequence(std::string_view text);

// Whether `arn` is shaped like a stream ARN,
// "arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL" with NAME a
// table name. Whether such a stream exists is the caller's question.
bool IsStreamArn(std::string_view arn);
// The check of a request member that takes a stream ARN (`member`:
// "StreamArn", "ExclusiveStartStreamArn"), after its member constraints: OK
// when IsStreamArn(arn), else DynamoDB's ValidationException. (A well-formed
// ARN of a missing stream is the caller's ResourceNotFoundException.)
Status CheckStreamArn(const std::string& arn, std::string_view member);

// "2030-01-01T00:00:00.000": a stream's label, from its creation time.
std::string StreamLabel(double created);
// "shardId-<20 digits of creation ms>-<8 hex>".
std::string NewShardId(double created);

// A shard iterator: where a reader is (after sequence number `after`) in
// which shard of which stream, and when the iterator was issued.
struct ShardIterator {
  std::string stream_arn;
  std::string shard_id;
  int64_t after = 0;
  double issued = 0;
};
std::string EncodeIterator(const ShardIterator& it);
std::optional<ShardIterator> DecodeIterator(std::string_view text);

}  // namespace pogi::service
