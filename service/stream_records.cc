// Stream records and the names of stream positions.
#include "service/stream_records.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "service/clock.h"
#include "service/region.h"

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

bool WantsNew(const std::string& view_type) {
  return view_type == "NEW_IMAGE" || view_type == "NEW_AND_OLD_IMAGES";
}
bool WantsOld(const std::string& view_type) {
  return view_type == "OLD_IMAGE" || view_type == "NEW_AND_OLD_IMAGES";
}

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool ReadVarint(std::string_view in, size_t* pos, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *pos < in.size(); shift += 7) {
    auto byte = static_cast<unsigned char>(in[(*pos)++]);
    *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

// Appends the entries of a serialized pogi.v1.Item (map field 1, each entry
// length-delimited) as entries of map field `field` (< 16) of another message.
void AppendAsMapField(std::string_view item_proto, int field, std::string* out) {
  const char tag = static_cast<char>(field << 3 | 2);
  size_t pos = 0;
  while (pos < item_proto.size()) {
    if (item_proto[pos] != '\x0a') return;  // only map entries are expected
    ++pos;
    uint64_t len = 0;
    size_t start = pos;
    if (!ReadVarint(item_proto, &pos, &len) || len > item_proto.size() - pos) return;
    out->push_back(tag);
    out->append(item_proto.substr(start, pos - start + len));
    pos += len;
  }
}

// Wire format helpers for fields numbered below 16 (a one-byte tag).
void AppendTag(int field, int wire_type, std::string* out) {
  out->push_back(static_cast<char>(field << 3 | wire_type));
}

void AppendBytesField(int field, std::string_view bytes, std::string* out) {
  AppendTag(field, 2, out);
  AppendVarint(bytes.size(), out);
  out->append(bytes);
}

void AppendDoubleField(int field, double v, std::string* out) {
  static_assert(std::endian::native == std::endian::little, "fixed64 is little-endian on the wire");
  AppendTag(field, 1, out);
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  out->append(bytes, sizeof v);
}

// The key attributes of `item` as entries of StreamRecord.keys; adds their
// size to `size`.
void AppendKeys(const Table& table, const value::AttributeMap& item, std::string* out, int64_t* size) {
  std::string entry;
  for (const KeyAttribute* k : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!k) continue;
    auto it = item.find(k->name);
    if (it == item.end()) continue;
    entry.clear();
    AppendBytesField(1, k->name, &entry);
    AppendBytesField(2, it->second.SerializeAsString(), &entry);
    AppendBytesField(v1::StreamRecord::kKeysFieldNumber, entry, out);
    *size += static_cast<int64_t>(k->name.size()) + value::ValueSize(it->second);
  }
}

// One image: the item's entries as map field `field` of the StreamRecord.
void AppendImage(const value::AttributeMap& item, std::string_view proto, int64_t known_size, int field,
                 std::string* out, int64_t* size) {
  std::string own;
  if (proto.empty()) proto = own = value::ItemProto(item);
  AppendAsMapField(proto, field, out);
  *size += known_size >= 0 ? known_size : value::ItemSize(item);
}

}  // namespace

std::string SerializeRecord(const Table& table, const std::string& view_type,
                            const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                            const ItemForms& forms, double now, ChangeSource source) {
  // The StreamRecord first (its length prefixes it in the Record), in
  // BuildRecord's field order; sequence_number is set when it is read.
  std::string d;
  d.reserve(64 + forms.new_proto.size() + forms.old_proto.size());
  // DynamoDB Streams gives the time to the second.
  AppendDoubleField(v1::StreamRecord::kApproximateCreationDateTimeFieldNumber, std::floor(now), &d);
  int64_t size = 0;
  AppendKeys(table, new_item ? *new_item : *old_item, &d, &size);
  if (new_item && WantsNew(view_type)) {
    AppendImage(*new_item, forms.new_proto, forms.new_size, v1::StreamRecord::kNewImageFieldNumber, &d,
                &size);
  }
  if (old_item && WantsOld(view_type)) {
    AppendImage(*old_item, forms.old_proto, forms.old_size, v1::StreamRecord::kOldImageFieldNumber, &d,
                &size);
  }
  AppendTag(v1::StreamRecord::kSizeBytesFieldNumber, 0, &d);
  AppendVarint(static_cast<uint64_t>(size), &d);
  AppendBytesField(v1::StreamRecord::kStreamViewTypeFieldNumber, view_type, &d);

  std::string out;
  out.reserve(d.size() + 48);
  AppendBytesField(v1::Record::kEventNameFieldNumber,
                   !old_item   ? "INSERT"
                   : !new_item ? "REMOVE"
                               : "MODIFY",
                   &out);
  AppendBytesField(v1::Record::kEventVersionFieldNumber, "1.1", &out);
  AppendBytesField(v1::Record::kEventSourceFieldNumber, "aws:dynamodb", &out);
  AppendBytesField(v1::Record::kAwsRegionFieldNumber, Region(), &out);
  AppendBytesField(v1::Record::kDynamodbFieldNumber, d, &out);
  if (source == ChangeSource::kTimeToLive) {
    std::string identity;
    AppendBytesField(v1::Identity::kPrincipalIdFieldNumber, "dynamodb.amazonaws.com", &identity);
    AppendBytesField(v1::Identity::kTypeFieldNumber, "Service", &identity);
    AppendBytesField(v1::Record::kUserIdentityFieldNumber, identity, &out);
  }
  return out;
}

v1::Record BuildRecord(const Table& table, const std::string& view_type, const value::AttributeMap* old_item,
                       const value::AttributeMap* new_item, double now, ChangeSource source) {
  v1::Record r;
  r.set_event_name(!old_item ? "INSERT" : !new_item ? "REMOVE" : "MODIFY");
  r.set_event_version("1.1");
  r.set_event_source("aws:dynamodb");
  r.set_aws_region(Region());
  auto* d = r.mutable_dynamodb();
  // DynamoDB Streams gives the time to the second.
  d->set_approximate_creation_date_time(std::floor(now));
  CopyKeys(table, new_item ? *new_item : *old_item, d->mutable_keys());
  int64_t size = value::ItemSize(d->keys());
  if (new_item && WantsNew(view_type)) {
    *d->mutable_new_image() = *new_item;
    size += value::ItemSize(*new_item);
  }
  if (old_item && WantsOld(view_type)) {
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
