// Stream records and the names of stream positions.
#include "service/streams/stream_records.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "common/wire_reader.h"
#include "service/core/clock.h"
#include "service/core/region.h"
#include "service/validate/constraints.h"

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

// Appends the entries of a serialized pogi.v1.Item (map field 1, each entry
// length-delimited) as entries of map field `field` (< 16) of another message.
void AppendAsMapField(std::string_view item_proto, int field, std::string* out) {
  const char tag = static_cast<char>(field << 3 | wire::kLengthDelimited);
  wire::Reader r(item_proto);
  while (!r.done()) {
    size_t start = r.offset();
    uint32_t f, t;
    std::string_view entry;
    if (!r.Tag(&f, &t) || f != 1 || t != wire::kLengthDelimited || !r.LengthDelimited(&entry)) return;
    // The entry's length and bytes copied as they are, after the new tag
    // (field 1's tag is one byte).
    out->push_back(tag);
    out->append(item_proto.substr(start + 1, r.offset() - start - 1));
  }
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
  AppendBytesField(v1::Record::kAwsRegionFieldNumber, table.region.empty() ? Region() : table.region, &out);
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
  r.set_aws_region(table.region.empty() ? Region() : table.region);
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

bool FinishRecord(int64_t stream_id, int64_t sequence, std::string_view stored, std::string* out) {
  // Formatted by hand: snprintf was a tenth of a 1,000-record GetRecords.
  std::string seq = FormatSequence(sequence);
  char stream[24];
  uint64_t a =
      Fnv(seq, Fnv(std::string_view(stream, std::to_chars(stream, stream + 24, stream_id).ptr - stream)));
  uint64_t b = Fnv(seq, a);
  static constexpr char kHex[] = "0123456789abcdef";
  char id[32];  // a and b as 16 hex digits each
  for (int i = 0; i < 16; ++i) {
    id[i] = kHex[(a >> (60 - 4 * i)) & 15];
    id[16 + i] = kHex[(b >> (60 - 4 * i)) & 15];
  }
  out->reserve(out->size() + stored.size() + 64);
  AppendBytesField(v1::Record::kEventIdFieldNumber, std::string_view(id, sizeof id), out);
  wire::Reader r(stored);
  while (!r.done()) {
    size_t start = r.offset();
    uint32_t field, type;
    std::string_view value;
    // Every field of a stored Record is length-delimited.
    if (!r.Tag(&field, &type) || type != wire::kLengthDelimited || !r.LengthDelimited(&value)) return false;
    if (field != v1::Record::kDynamodbFieldNumber) {
      out->append(stored.substr(start, r.offset() - start));
      continue;
    }
    // The StreamRecord's fields numbered below SequenceNumber, the sequence
    // number, then the rest.
    wire::Reader d(value);
    size_t cut = 0;
    while (!d.done()) {
      uint32_t f, t;
      if (!d.Tag(&f, &t)) return false;
      if (f > v1::StreamRecord::kSequenceNumberFieldNumber) break;
      if (!d.Skip(t)) return false;
      cut = d.offset();
    }
    const size_t seq_field_size = 2 + seq.size();  // a one-byte tag and length: 21 digits
    AppendTag(v1::Record::kDynamodbFieldNumber, wire::kLengthDelimited, out);
    AppendVarint(value.size() + seq_field_size, out);
    out->append(value.substr(0, cut));
    AppendBytesField(v1::StreamRecord::kSequenceNumberFieldNumber, seq, out);
    out->append(value.substr(cut));
  }
  return true;
}

std::string FormatSequence(int64_t sequence) {
  char digits[24];
  size_t n = std::to_chars(digits, digits + sizeof digits, sequence).ptr - digits;
  std::string out(n < 21 ? 21 - n : 0, '0');  // sequences are never negative
  out.append(digits, n);
  return out;
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

bool IsStreamArn(std::string_view arn) {
  // Five colons, then the resource; partition, region and account only
  // present (a well-formed ARN of another account or region names a stream
  // pogi does not have, a ResourceNotFoundException).
  std::string_view parts[5];
  std::string_view rest = arn;
  for (auto& part : parts) {
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0) return false;
    part = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  }
  if (parts[0] != "arn" || parts[2] != "dynamodb" || !rest.starts_with("table/")) return false;
  rest.remove_prefix(6);
  size_t slash = rest.find("/stream/");
  if (slash == std::string_view::npos) return false;
  std::string name(rest.substr(0, slash));
  std::string_view label = rest.substr(slash + 8);
  if (label.empty() || label.find('/') != std::string_view::npos) return false;
  Constraints table;  // the one table-name rule
  CheckTableName(table, &name);
  return table.ok();
}

Status CheckStreamArn(const std::string& arn, std::string_view member) {
  if (IsStreamArn(arn)) return Status::Ok();
  // The text is pogi's: the facts on record give only the exception
  // (ValidationException); "Invalid StreamArn" is what a public report of
  // DynamoDB Streams shows for StreamArn.
  return Error::Validation("Invalid " + std::string(member));
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
