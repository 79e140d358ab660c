// Stream records and the names of stream positions.
#include "service/stream_records.h"

#include <cmath>
#include <cstdio>
#include <random>

#include "service/clock.h"

namespace pogi::service {
namespace {

uint64_t Fnv(std::string_view s, uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void CopyKeys(const Table& table, const value::AttributeMap& item, value::AttributeMap* keys) {
  for (const KeyAttribute* k : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!k) continue;
    auto it = item.find(k->name);
    if (it != item.end()) (*keys)[k->name] = it->second;
  }
}

}  // namespace

v1::Record BuildRecord(const Table& table, const std::string& view_type, const value::AttributeMap* old_item,
                       const value::AttributeMap* new_item, double now, ChangeSource source) {
  v1::Record r;
  r.set_event_name(!old_item ? "INSERT" : !new_item ? "REMOVE" : "MODIFY");
  r.set_event_version("1.1");
  r.set_event_source("aws:dynamodb");
  r.set_aws_region(kStreamRegion);
  auto* d = r.mutable_dynamodb();
  // DynamoDB Streams gives the time to the second.
  d->set_approximate_creation_date_time(std::floor(now));
  CopyKeys(table, new_item ? *new_item : *old_item, d->mutable_keys());
  int64_t size = value::ItemSize(d->keys());
  if (new_item && (view_type == "NEW_IMAGE" || view_type == "NEW_AND_OLD_IMAGES")) {
    *d->mutable_new_image() = *new_item;
    size += value::ItemSize(*new_item);
  }
  if (old_item && (view_type == "OLD_IMAGE" || view_type == "NEW_AND_OLD_IMAGES")) {
    *d->mutable_old_image() = *old_item;
    size += value::ItemSize(*old_item);
  }
  d->set_size_bytes(size);
  d->set_stream_view_type(view_type);
  if (source == ChangeSource::kTimeToLive) {
    r.mutable_user_identity()->set_type("Service");
    r.mutable_user_identity()->set_principal_id("dynamodb.amazonaws.com");
  }
  return r;
}

void FinishRecord(int64_t stream_id, int64_t sequence, v1::Record* record) {
  std::string seq = FormatSequence(sequence);
  record->mutable_dynamodb()->set_sequence_number(seq);
  uint64_t a = Fnv(seq, Fnv(std::to_string(stream_id)));
  uint64_t b = Fnv(seq, a);
  char id[33];
  snprintf(id, sizeof id, "%016llx%016llx", static_cast<unsigned long long>(a),
           static_cast<unsigned long long>(b));
  record->set_event_id(id);
}

std::string FormatSequence(int64_t sequence) {
  char buf[32];
  snprintf(buf, sizeof buf, "%021lld", static_cast<long long>(sequence));
  return buf;
}

std::optional<int64_t> ParseSequence(std::string_view text) {
  if (text.empty() || text.size() > 40) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (v > (INT64_MAX - (c - '0')) / 10) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string StreamLabel(double created) {
  std::string iso = FormatIsoTime(created);
  return iso.substr(0, iso.size() - 1);  // without the "Z", as DynamoDB writes it
}

std::string NewShardId(double created) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  char buf[64];
  snprintf(buf, sizeof buf, "shardId-%020lld-%08x", static_cast<long long>(std::llround(created * 1000)),
           static_cast<unsigned>(rng()));
  return buf;
}

std::string EncodeIterator(const ShardIterator& it) {
  return it.stream_arn + "|" + it.shard_id + "|" + std::to_string(it.after) + "|" +
         std::to_string(static_cast<long long>(std::llround(it.issued * 1000)));
}

std::optional<ShardIterator> DecodeIterator(std::string_view text) {
  ShardIterator it;
  std::string_view rest = text;
  auto take_last = [&](std::string_view* field) {
    size_t bar = rest.rfind('|');
    if (bar == std::string_view::npos) return false;
    *field = rest.substr(bar + 1);
    rest = rest.substr(0, bar);
    return true;
  };
  std::string_view issued, after, shard;
  if (!take_last(&issued) || !take_last(&after) || !take_last(&shard) || rest.empty() || shard.empty())
    return std::nullopt;
  auto a = ParseSequence(after);
  auto i = ParseSequence(issued);
  if (!a || !i) return std::nullopt;
  it.stream_arn = std::string(rest);
  it.shard_id = std::string(shard);
  it.after = *a;
  it.issued = static_cast<double>(*i) / 1000;
  return it;
}

}  // namespace pogi::service
