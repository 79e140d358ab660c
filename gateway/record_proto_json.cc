// A protobuf wire-format walk over pogi.v1.Record, its StreamRecord and
// Identity, writing JSON as it goes; the images are written by
// item_proto_json.cc. Each message's fields are read first (the last
// occurrence of a singular field wins, as in a protobuf parser) and then
// written in field-number order, the order of json_codec's writer.
#include "gateway/record_proto_json.h"

#include <charconv>
#include <optional>

#include "common/wire_reader.h"
#include "gateway/item_proto_json.h"
#include "pogi/v1/streams.pb.h"

namespace pogi::gateway {
namespace {

using Text = std::optional<std::string_view>;

// `"name":`, after a comma unless it is the object's first member.
void Member(std::string_view name, bool* first, JsonOut& out) {
  if (!*first) out.Put(',');
  *first = false;
  out.Put('"');
  out.Put(name);
  out.Put("\":");
}

template <typename T>
void Number(T v, JsonOut& out) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.Put(std::string_view(buf, res.ptr - buf));
}

// A string field's value when `type` is length-delimited; false when the
// bytes end early.
bool ReadText(wire::Reader& r, uint32_t type, Text* slot) {
  if (type != wire::kLengthDelimited) return r.Skip(type);
  std::string_view v;
  if (!r.LengthDelimited(&v)) return false;
  *slot = v;
  return true;
}

bool AppendIdentity(std::string_view identity, JsonOut& out) {
  Text principal, type;
  wire::Reader r(identity);
  while (!r.done()) {
    uint32_t f, t;
    if (!r.Tag(&f, &t)) return false;
    bool ok = f == v1::Identity::kPrincipalIdFieldNumber ? ReadText(r, t, &principal)
              : f == v1::Identity::kTypeFieldNumber      ? ReadText(r, t, &type)
                                                         : r.Skip(t);
    if (!ok) return false;
  }
  out.Put('{');
  bool first = true;
  if (principal) {
    Member("PrincipalId", &first, out);
    out.String(*principal);
  }
  if (type) {
    Member("Type", &first, out);
    out.String(*type);
  }
  out.Put('}');
  return true;
}

bool AppendStreamRecord(std::string_view d, JsonOut& out) {
  std::optional<double> created;
  std::optional<int64_t> size;
  Text sequence, view_type;
  bool has_map[3] = {};  // Keys, NewImage, OldImage: fields 2, 3 and 4
  wire::Reader r(d);
  while (!r.done()) {
    uint32_t f, t;
    if (!r.Tag(&f, &t)) return false;
    bool ok;
    if (f == v1::StreamRecord::kApproximateCreationDateTimeFieldNumber && t == wire::kFixed64) {
      double v;
      ok = r.Double(&v);
      created = v;
    } else if (f >= v1::StreamRecord::kKeysFieldNumber && f <= v1::StreamRecord::kOldImageFieldNumber &&
               t == wire::kLengthDelimited) {
      has_map[f - v1::StreamRecord::kKeysFieldNumber] = true;
      ok = r.Skip(t);  // written below, from `d`
    } else if (f == v1::StreamRecord::kSizeBytesFieldNumber && t == wire::kVarint) {
      uint64_t v;
      ok = r.Varint(&v);
      size = static_cast<int64_t>(v);
    } else if (f == v1::StreamRecord::kSequenceNumberFieldNumber) {
      ok = ReadText(r, t, &sequence);
    } else if (f == v1::StreamRecord::kStreamViewTypeFieldNumber) {
      ok = ReadText(r, t, &view_type);
    } else {
      ok = r.Skip(t);
    }
    if (!ok) return false;
  }
  out.Put('{');
  bool first = true;
  if (created) {
    Member("ApproximateCreationDateTime", &first, out);
    Number(*created, out);
  }
  static constexpr std::string_view kMapNames[] = {"Keys", "NewImage", "OldImage"};
  for (uint32_t i = 0; i < 3; ++i) {
    if (!has_map[i]) continue;
    Member(kMapNames[i], &first, out);
    if (!AppendMapFieldJson(d, v1::StreamRecord::kKeysFieldNumber + i, out)) return false;
  }
  if (sequence) {
    Member("SequenceNumber", &first, out);
    out.String(*sequence);
  }
  if (size) {
    Member("SizeBytes", &first, out);
    Number(*size, out);
  }
  if (view_type) {
    Member("StreamViewType", &first, out);
    out.String(*view_type);
  }
  out.Put('}');
  return true;
}

}  // namespace

bool AppendRecordJson(std::string_view record, JsonOut& out) {
  // event_id, event_name, event_version, event_source, aws_region: fields 1-5.
  static constexpr std::string_view kNames[] = {"eventID", "eventName", "eventVersion", "eventSource",
                                                "awsRegion"};
  Text strings[5];
  Text dynamodb, identity;
  wire::Reader r(record);
  while (!r.done()) {
    uint32_t f, t;
    if (!r.Tag(&f, &t)) return false;
    bool ok;
    if (f >= v1::Record::kEventIdFieldNumber && f <= v1::Record::kAwsRegionFieldNumber) {
      ok = ReadText(r, t, &strings[f - v1::Record::kEventIdFieldNumber]);
    } else if (f == v1::Record::kDynamodbFieldNumber || f == v1::Record::kUserIdentityFieldNumber) {
      Text& slot = f == v1::Record::kDynamodbFieldNumber ? dynamodb : identity;
      if (slot && t == wire::kLengthDelimited) return false;  // two parts protobuf would merge
      ok = ReadText(r, t, &slot);
    } else {
      ok = r.Skip(t);
    }
    if (!ok) return false;
  }
  size_t mark = out.size();
  out.Put('{');
  bool first = true;
  for (size_t i = 0; i < 5; ++i) {
    if (!strings[i]) continue;
    Member(kNames[i], &first, out);
    out.String(*strings[i]);
  }
  bool ok = true;
  if (dynamodb) {
    Member("dynamodb", &first, out);
    ok = AppendStreamRecord(*dynamodb, out);
  }
  if (ok && identity) {
    Member("userIdentity", &first, out);
    ok = AppendIdentity(*identity, out);
  }
  if (!ok) {
    out.CutTo(mark);
    return false;
  }
  out.Put('}');
  return true;
}

}  // namespace pogi::gateway
