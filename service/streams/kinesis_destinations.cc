// Kinesis streaming destinations: statuses by the clock, queued entries.
#include "service/streams/kinesis_destinations.h"

#include "pogi/v1/streams.pb.h"

namespace pogi::service {

std::string KinesisStatusAt(const v1::KinesisDestinationState& d, double now) {
  const std::string& s = d.status();
  if (now < d.ends_at()) return s;
  if (s == "ENABLING") {
    if (d.verdict() == kKinesisStreamFound) return "ACTIVE";
    if (d.verdict() == kKinesisStreamRefused) return "ENABLE_FAILED";
    return s;  // the stream not checked yet
  }
  if (s == "UPDATING") return "ACTIVE";
  if (s == "DISABLING") return "DISABLED";
  return s;
}

bool SettleKinesisDestinations(v1::TableSettings& settings, double now) {
  bool changed = false;
  for (auto& d : *settings.mutable_kinesis_destinations()) {
    std::string status = KinesisStatusAt(d, now);
    if (status == d.status()) continue;
    d.set_status(status);
    changed = true;
  }
  return changed;
}

bool IsLiveKinesisStatus(std::string_view status) {
  return status == "ENABLING" || status == "ACTIVE" || status == "UPDATING" || status == "DISABLING";
}

v1::KinesisDestinationState* FindKinesisDestination(v1::TableSettings& settings,
                                                    std::string_view stream_arn) {
  for (auto& d : *settings.mutable_kinesis_destinations()) {
    if (d.stream_arn() == stream_arn) return &d;
  }
  return nullptr;
}

const v1::KinesisDestinationState* FindKinesisDestination(const v1::TableSettings& settings,
                                                          std::string_view stream_arn) {
  for (const auto& d : settings.kinesis_destinations()) {
    if (d.stream_arn() == stream_arn) return &d;
  }
  return nullptr;
}

std::string KinesisQueueEntry(std::string_view stream_arn, bool microsecond, const storage::EncodedKey& key,
                              std::string_view record) {
  v1::KinesisQueuedRecord q;
  q.set_stream_arn(std::string(stream_arn));
  q.set_microsecond(microsecond);
  // Partition and sort key apart: length-prefixed, so no two keys collide.
  std::string k = std::to_string(key.partition.size()) + ":" + key.partition + key.sort;
  q.set_item_key(std::move(k));
  q.set_record(std::string(record));
  return q.SerializeAsString();
}

std::string KinesisStreamName(std::string_view arn) {
  // arn:PARTITION:kinesis:REGION:ACCOUNT:stream/NAME
  if (!arn.starts_with("arn:")) return "";
  size_t colons = 0, at = 0;
  for (size_t i = 0; i < arn.size() && colons < 5; ++i) {
    if (arn[i] == ':') {
      ++colons;
      at = i + 1;
    }
  }
  if (colons < 5) return "";
  std::string_view rest = arn.substr(at);
  if (!rest.starts_with("stream/")) return "";
  std::string_view name = rest.substr(7);
  if (name.empty() || name.find('/') != std::string_view::npos) return "";
  std::string_view service = arn.substr(4);
  service = service.substr(service.find(':') + 1);
  if (!service.starts_with("kinesis:")) return "";
  return std::string(name);
}

std::string KinesisArnRegion(std::string_view arn) {
  // arn:PARTITION:SERVICE:REGION:...
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    pos = arn.find(':', pos);
    if (pos == std::string_view::npos) return "";
    ++pos;
  }
  size_t end = arn.find(':', pos);
  if (end == std::string_view::npos) return "";
  return std::string(arn.substr(pos, end - pos));
}

}  // namespace pogi::service
