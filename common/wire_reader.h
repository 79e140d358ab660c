// A bounds-checked reader of protobuf wire format, for code that reads
// stored bytes without building messages: the JSON writers that go straight
// to DynamoDB JSON (gateway/item_proto_json.cc, gateway/record_proto_json.cc)
// and the stream record finisher (service/streams/stream_records.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace pogi::wire {

inline constexpr uint32_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

// Reads protobuf wire format from a byte range; every read checks bounds
// and returns false, consuming nothing reliable, at malformed bytes.
class Reader {
 public:
  explicit Reader(std::string_view bytes)
      : begin_(bytes.data()), p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool done() const { return p_ == end_; }
  // How many bytes have been read.
  size_t offset() const { return static_cast<size_t>(p_ - begin_); }

  bool Varint(uint64_t* v) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      uint8_t b = static_cast<uint8_t>(*p_++);
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        *v = result;
        return true;
      }
    }
    return false;
  }

  // The next field's number and wire type.
  bool Tag(uint32_t* field, uint32_t* type) {
    uint64_t tag;
    if (!Varint(&tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX) return false;
    *field = static_cast<uint32_t>(tag >> 3);
    *type = static_cast<uint32_t>(tag & 7);
    return true;
  }

  // A fixed64 field's value as the double it encodes.
  bool Double(double* v) {
    uint64_t bits = 0;
    if (!Advance(8)) return false;
    for (int i = 1; i <= 8; ++i) bits = bits << 8 | static_cast<uint8_t>(p_[-i]);  // little-endian
    std::memcpy(v, &bits, sizeof bits);
    return true;
  }

  bool LengthDelimited(std::string_view* v) {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    *v = std::string_view(p_, n);
    p_ += n;
    return true;
  }

  // Skips the value of a field of wire type `type`.
  bool Skip(uint32_t type) {
    uint64_t ignored;
    std::string_view ignored_bytes;
    switch (type) {
      case kVarint:
        return Varint(&ignored);
      case kLengthDelimited:
        return LengthDelimited(&ignored_bytes);
      case kFixed64:
        return Advance(8);
      case kFixed32:
        return Advance(4);
      default:
        return false;  // groups never occur in pogi's messages
    }
  }

 private:
  bool Advance(size_t n) {
    if (n > static_cast<size_t>(end_ - p_)) return false;
    p_ += n;
    return true;
  }
  const char* begin_;
  const char* p_;
  const char* end_;
};

// Calls f(payload) for each length-delimited field `number` of `proto` (the
// elements of a repeated field, the entries of a map), skipping any other
// field. False at malformed bytes or as soon as f returns false.
template <typename F>
bool ForEachField(std::string_view proto, uint32_t number, F&& f) {
  Reader r(proto);
  while (!r.done()) {
    uint32_t field, type;
    if (!r.Tag(&field, &type)) return false;
    if (field != number || type != kLengthDelimited) {
      if (!r.Skip(type)) return false;
      continue;
    }
    std::string_view payload;
    if (!r.LengthDelimited(&payload) || !f(payload)) return false;
  }
  return true;
}

}  // namespace pogi::wire
