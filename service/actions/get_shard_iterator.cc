// GetShardIterator (DynamoDB Streams): a position in a shard, from its
// oldest record kept (TRIM_HORIZON), after its newest (LATEST), or at or
// after a sequence number. Iterators live 15 minutes of clock time.
#include "service/engine/engine.h"
#include "service/streams/stream_records.h"
#include "service/validate/constraints.h"

namespace pogi::service {

Result<v1::GetShardIteratorResponse> Engine::GetShardIterator(const v1::GetShardIteratorRequest& req) {
  Constraints c;
  c.Required(req.has_stream_arn(), "streamArn");
  c.Length(req.has_stream_arn() ? &req.stream_arn() : nullptr, 37, 1024, "streamArn");
  c.Required(req.has_shard_id(), "shardId");
  c.Length(req.has_shard_id() ? &req.shard_id() : nullptr, 28, 65, "shardId");
  c.Required(req.has_shard_iterator_type(), "shardIteratorType");
  c.OneOf(req.has_shard_iterator_type() ? &req.shard_iterator_type() : nullptr,
          {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"}, "shardIteratorType");
  c.Length(req.has_sequence_number() ? &req.sequence_number() : nullptr, 21, 40, "sequenceNumber");
  POGI_RETURN_IF_ERROR(c.Finish());
  // The arguments are checked before the stream is looked up (ST2).
  POGI_RETURN_IF_ERROR(CheckStreamArn(req.stream_arn(), "StreamArn"));
  const std::string& type = req.shard_iterator_type();
  bool at_sequence = type == "AT_SEQUENCE_NUMBER" || type == "AFTER_SEQUENCE_NUMBER";
  // DynamoDB answers ValidationException to each of these; the texts are pogi's.
  if (at_sequence && !req.has_sequence_number()) {
    return Error::Validation("SequenceNumber is required for ShardIteratorType " + type);
  }
  if (!at_sequence && req.has_sequence_number()) {
    return Error::Validation("SequenceNumber is not allowed for ShardIteratorType " + type);
  }
  if (at_sequence && req.sequence_number().find_first_not_of("0123456789") != std::string::npos) {
    return Error::Validation("Invalid SequenceNumber " + req.sequence_number());
  }
  auto found = streams_.Find(req.stream_arn());
  if (!found) {
    return Error::ResourceNotFound("Requested resource not found: Stream: " + req.stream_arn() +
                                   " not found");
  }
  const auto& [stream_id, s] = *found;
  const v1::ShardState* shard = nullptr;
  for (const auto& sh : s.shards()) {
    if (sh.shard_id() == req.shard_id()) shard = &sh;
  }
  if (!shard) {
    return Error::ResourceNotFound("Requested resource not found: Shard does not exist");
  }
  ShardIterator it{s.stream_arn(), shard->shard_id(), 0, clock_->Now()};
  if (type == "TRIM_HORIZON") {
    it.after = std::max(shard->start() - 1, s.trimmed_through());
    if (shard->end() != 0) it.after = std::min(it.after, shard->end());
  } else if (type == "LATEST") {
    // The newest sequence number and the shard's end from one snapshot (the
    // cached state may predate a roll-over): a closed shard's LATEST is its
    // end, not a position among its child's records.
    int64_t last = 0, end = 0;
    // The binding copied: clang 14 cannot capture structured bindings.
    POGI_RETURN_IF_ERROR(storage_->Read([&, stream_id = stream_id](storage::ReadTxn& txn) -> Status {
      last = txn.LastStreamSequence(stream_id);
      POGI_ASSIGN_OR_RETURN(end, Streams::ShardEnd(txn, stream_id, *shard));
      return Status::Ok();
    }));
    it.after = end != 0 ? end : std::max(last, shard->start() - 1);
  } else {
    // A decimal number not of this shard (or beyond any pogi issues). The
    // text is pogi's: DynamoDB's wording is not on record.
    auto seq = ParseSequence(req.sequence_number());
    if (!seq || *seq < shard->start() || (shard->end() != 0 && *seq > shard->end())) {
      return Error::Validation("Invalid SequenceNumber " + req.sequence_number() + " for ShardId " +
                               shard->shard_id());
    }
    if (*seq <= s.trimmed_through()) {
      return Error(ErrorCode::kTrimmedDataAccess,
                   "The requested sequence number is beyond the retention period of the stream");
    }
    it.after = type == "AT_SEQUENCE_NUMBER" ? *seq - 1 : *seq;
  }
  v1::GetShardIteratorResponse resp;
  resp.set_shard_iterator(EncodeIterator(it));
  return resp;
}

}  // namespace pogi::service
