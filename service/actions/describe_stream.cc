// DescribeStream (DynamoDB Streams): a stream, its status and its shards
// (parents before children) with their sequence number ranges.
#include "service/engine/engine.h"
#include "service/streams/stream_records.h"
#include "service/validate/constraints.h"

namespace pogi::service {

Result<v1::DescribeStreamResponse> Engine::DescribeStream(const v1::DescribeStreamRequest& req) {
  Constraints c;
  c.Required(req.has_stream_arn(), "streamArn");
  c.Length(req.has_stream_arn() ? &req.stream_arn() : nullptr, 37, 1024, "streamArn");
  c.AtLeast(req.has_limit() ? std::optional(req.limit()) : std::nullopt, 1, "limit");
  c.Length(req.has_exclusive_start_shard_id() ? &req.exclusive_start_shard_id() : nullptr, 28, 65,
           "exclusiveStartShardId");
  if (req.has_shard_filter()) {
    const v1::ShardFilter& f = req.shard_filter();
    // The API model requires neither member, but DynamoDB refuses a filter
    // without either (ST3); the "must not be null" text for them is pogi's.
    c.Required(f.has_type(), "shardFilter.type");
    c.OneOf(f.has_type() ? &f.type() : nullptr, {"CHILD_SHARDS"}, "shardFilter.type");
    c.Required(f.has_shard_id(), "shardFilter.shardId");
    c.Length(f.has_shard_id() ? &f.shard_id() : nullptr, 28, 65, "shardFilter.shardId");
  }
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(CheckStreamArn(req.stream_arn(), "StreamArn"));
  auto found = streams_.Find(req.stream_arn());
  if (!found) {
    return Error::ResourceNotFound("Requested resource not found: Stream: " + req.stream_arn() +
                                   " not found");
  }
  const v1::StreamState& s = found->second;
  int64_t limit = req.has_limit() ? std::min<int64_t>(req.limit(), 100) : 100;
  v1::DescribeStreamResponse resp;
  auto* d = resp.mutable_stream_description();
  d->set_stream_arn(s.stream_arn());
  d->set_stream_label(s.stream_label());
  d->set_stream_status(s.disabled() != 0 ? "DISABLED" : "ENABLED");
  d->set_stream_view_type(s.view_type());
  d->set_creation_request_date_time(s.created());
  d->set_table_name(s.table_name());
  *d->mutable_key_schema() = s.key_schema();
  d->mutable_shards();  // DynamoDB answers an empty list rather than none
  bool started = !req.has_exclusive_start_shard_id();
  for (const auto& shard : s.shards()) {
    if (!started) {
      started = shard.shard_id() == req.exclusive_start_shard_id();
      continue;
    }
    if (req.has_shard_filter() && shard.parent_shard_id() != req.shard_filter().shard_id()) continue;
    if (d->shards_size() == limit) {
      d->set_last_evaluated_shard_id(d->shards(d->shards_size() - 1).shard_id());
      break;
    }
    auto* out = d->add_shards();
    out->set_shard_id(shard.shard_id());
    if (!shard.parent_shard_id().empty()) out->set_parent_shard_id(shard.parent_shard_id());
    auto* range = out->mutable_sequence_number_range();
    range->set_starting_sequence_number(FormatSequence(shard.start()));
    if (shard.end() != 0) range->set_ending_sequence_number(FormatSequence(shard.end()));
  }
  return resp;
}

}  // namespace pogi::service
