// Kinesis Data Streams destinations of a table (EnableKinesisStreamingDestination
// and its family): the statuses as pogi's clock moves them on, and the entry
// the write path queues for each change. Pure functions.
//
// A destination's status is stored with the clock time its transient phase
// ends (KinesisDestinationState.ends_at); what a request sees is
// KinesisStatusAt that time, so `pogi clock advance` moves it at once, as it
// does tables' (core/transitions.h). ENABLING also waits for the check of
// the stream (its verdict, recorded by the delivery job, jobs/kinesis_delivery):
// ACTIVE when the stream is there, ENABLE_FAILED with DynamoDB's description
// when it is not or no Kinesis endpoint is configured.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pogi/v1/control_state.pb.h"
#include "storage/storage.h"

namespace pogi::service {

// DestinationStatusDescription of a stream DynamoDB cannot use (missing,
// not ACTIVE, not reachable): what real DynamoDB writes.
inline constexpr std::string_view kKinesisNoPermission =
    "User does not have a permission to use kinesis stream";

// KinesisDestinationState.verdict.
inline constexpr int kKinesisUnchecked = 0;
inline constexpr int kKinesisStreamFound = 1;
inline constexpr int kKinesisStreamRefused = 2;

// The status `d` shows at clock time `now`.
std::string KinesisStatusAt(const v1::KinesisDestinationState& d, double now);

// Stores in every destination of `settings` the status it shows at `now`;
// whether any changed.
bool SettleKinesisDestinations(v1::TableSettings& settings, double now);

// Whether `status` is one of a live destination (at most one per table):
// ENABLING, ACTIVE, UPDATING or DISABLING.
bool IsLiveKinesisStatus(std::string_view status);

// The destination of `settings` for `stream_arn`, or null.
v1::KinesisDestinationState* FindKinesisDestination(v1::TableSettings& settings, std::string_view stream_arn);
const v1::KinesisDestinationState* FindKinesisDestination(const v1::TableSettings& settings,
                                                          std::string_view stream_arn);

// The queued form of one change for a Kinesis destination (a serialized
// pogi.v1.KinesisQueuedRecord): the destination's stream and precision,
// the item's encoded key and the change's record (SerializeRecord's bytes,
// NEW_AND_OLD_IMAGES).
std::string KinesisQueueEntry(std::string_view stream_arn, bool microsecond, const storage::EncodedKey& key,
                              std::string_view record);

// The name of the stream an ARN names ("arn:aws:kinesis:R:A:stream/NAME"),
// or "" when it does not name one.
std::string KinesisStreamName(std::string_view stream_arn);
// The region of a Kinesis ARN, or "".
std::string KinesisArnRegion(std::string_view stream_arn);

}  // namespace pogi::service
