// Ion binary (Ion 1.0's binary encoding) into DynamoDB attribute values: a
// type descriptor byte per value (type in the high nibble, length in the
// low one, 14: a VarUInt length follows, 15: null), VarUInt/VarInt fields,
// annotation wrappers, local symbol tables. See ion_reader.h for what
// becomes what. Every length is checked against what holds it.
#include <cstdint>
#include <string>

#include "common/utf8.h"
#include "jobs/ion_reader.h"

namespace pogi::jobs {
namespace {

// Ion 1.0's system symbols, by id (0 has no text).
const char* const kSystemSymbols[] = {
    "",        "$ion",    "$ion_1_0", "$ion_symbol_table",       "name", "version",
    "imports", "symbols", "max_id",   "$ion_shared_symbol_table"};
constexpr uint64_t kSymbolTableSid = 3, kImportsSid = 6, kSymbolsSid = 7;
// The most symbols a stream's tables may hold (pogi's bound).
constexpr size_t kMaxSymbols = 1 << 20;

enum Type {
  kNull = 0,
  kBool,
  kPosInt,
  kNegInt,
  kFloat,
  kDecimal,
  kTimestamp,
  kSymbol,
  kString,
  kClob,
  kBlob,
  kList,
  kSexp,
  kStruct,
  kAnnotation,
  kReserved
};

void SetError(std::string* error, std::string why) {
  if (error->empty()) *error = std::move(why);
}

// One value's head: its type, its low nibble, where its body starts and
// how long it is.
struct Head {
  int type = 0;
  int low = 0;
  size_t body = 0;  // offset of the body
  uint64_t length = 0;
  bool null = false;
};

class BinReader {
 public:
  BinReader(std::string_view s, const std::vector<std::string>& symbols) : s_(s), symbols_(symbols) {}
  const std::string& bad() const { return bad_; }

  // The VarUInt at *pos (at most 9 bytes: pogi's bound).
  bool VarUInt(size_t* pos, size_t end, uint64_t* out) {
    *out = 0;
    for (int i = 0; i < 9; ++i) {
      if (*pos >= end) return Fail("an Ion VarUInt runs past its container");
      unsigned char b = s_[(*pos)++];
      *out = (*out << 7) | (b & 0x7F);
      if (b & 0x80) return true;
    }
    return Fail("an Ion VarUInt is too long");
  }

  // The VarInt at *pos (an exponent).
  bool VarInt(size_t* pos, size_t end, int64_t* out) {
    if (*pos >= end) return Fail("an Ion VarInt runs past its container");
    unsigned char b = s_[(*pos)++];
    bool negative = b & 0x40;
    uint64_t magnitude = b & 0x3F;
    bool done = b & 0x80;
    for (int i = 0; !done; ++i) {
      if (i >= 8) return Fail("an Ion VarInt is too long");
      if (*pos >= end) return Fail("an Ion VarInt runs past its container");
      b = s_[(*pos)++];
      magnitude = (magnitude << 7) | (b & 0x7F);
      done = b & 0x80;
    }
    if (magnitude > (uint64_t{1} << 40)) return Fail("an Ion decimal's exponent is out of range");
    *out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    return true;
  }

  // The head of the value at `pos` (within `end`), or false.
  // Without `check_length`, a body longer than `end` allows is not refused.
  bool ReadHead(size_t pos, size_t end, Head* h, bool check_length = true) {
    if (pos >= end) return Fail("an Ion value runs past its container");
    unsigned char td = s_[pos];
    h->type = td >> 4;
    h->low = td & 0x0F;
    h->body = pos + 1;
    h->length = 0;
    h->null = false;
    if (h->type == kReserved) return Fail("the Ion type descriptor 0xF_ is reserved");
    if (h->low == 15) {
      if (h->type == kAnnotation) return Fail("an Ion annotation wrapper cannot be null");
      h->null = true;
      return true;
    }
    if (h->type == kBool) {
      if (h->low > 1) return Fail("an Ion bool's length must be 0 or 1");
      return true;
    }
    if (h->low == 14 || (h->type == kStruct && h->low == 1)) {
      if (!VarUInt(&h->body, end, &h->length)) return false;
    } else {
      h->length = static_cast<uint64_t>(h->low);
    }
    if (check_length && h->length > end - h->body) return Fail("an Ion value runs past its container");
    return true;
  }

  // The text of symbol `sid`, or null when it has none.
  const std::string* SymbolText(uint64_t sid) const {
    if (sid == 0 || sid >= symbols_.size() || symbols_[sid].empty()) return nullptr;
    return &symbols_[sid];
  }

  // The value at *pos within `end`; *pos moves past it. NOP padding yields
  // `*skipped` true and no value.
  bool Value(size_t* pos, size_t end, int depth, v1::AttributeValue* out, std::string* error, bool* skipped) {
    *skipped = false;
    if (depth > kMaxIonDepth)
      return Fail("the Ion values are nested deeper than " + std::to_string(kMaxIonDepth));
    Head h;
    if (!ReadHead(*pos, end, &h)) return false;
    size_t body_end = h.body + h.length;
    *pos = body_end;
    if (h.null) {
      out->set_null_value(true);  // null.null, null.string... all NULL
      return true;
    }
    std::string_view body = s_.substr(h.body, h.length);
    switch (h.type) {
      case kNull:  // NOP padding
        *skipped = true;
        return true;
      case kBool:
        out->set_bool_value(h.low == 1);
        return true;
      case kPosInt:
      case kNegInt: {
        std::string digits = MagnitudeToDecimal(body);
        if (h.type == kNegInt && digits == "0") return Fail("an Ion negative int cannot be zero");
        if (body.size() > 64) return Fail("an Ion int is too long");
        out->set_n((h.type == kNegInt ? "-" : "") + digits);
        return true;
      }
      case kFloat:
        if (h.length != 0 && h.length != 4 && h.length != 8)
          return Fail("an Ion float must be 0, 4 or 8 bytes long");
        SetError(error, "An Ion float is not a DynamoDB number: write a decimal");
        return true;
      case kDecimal:
        return Decimal(h.body, body_end, out);
      case kTimestamp:
        SetError(error, "An Ion timestamp is not a DynamoDB value");
        return true;
      case kSymbol:
        SetError(error, "An Ion symbol is not a DynamoDB value");
        return true;
      case kString:
        if (!IsValidUtf8(body)) return Fail("an Ion string is not valid UTF-8");
        out->set_s(std::string(body));
        return true;
      case kClob:
        SetError(error, "An Ion clob is not a DynamoDB value: write a blob");
        return true;
      case kBlob:
        out->set_b(std::string(body));
        return true;
      case kList:
      case kSexp: {
        if (h.type == kSexp) SetError(error, "An Ion s-expression is not a DynamoDB value");
        auto* values = out->mutable_l()->mutable_values();
        for (size_t p = h.body; p < body_end;) {
          v1::AttributeValue v;
          bool pad;
          if (!Value(&p, body_end, depth + 1, &v, error, &pad)) return false;
          if (!pad) *values->Add() = std::move(v);
        }
        return true;
      }
      case kStruct: {
        auto* fields = out->mutable_m()->mutable_fields();
        for (size_t p = h.body; p < body_end;) {
          uint64_t sid;
          if (!VarUInt(&p, body_end, &sid)) return false;
          v1::AttributeValue v;
          bool pad;
          if (!Value(&p, body_end, depth + 1, &v, error, &pad)) return false;
          if (pad) continue;
          const std::string* name = SymbolText(sid);
          if (!name) {
            SetError(error, "An Ion field name (symbol $" + std::to_string(sid) + ") has no text");
            continue;
          }
          if (fields->count(*name)) SetError(error, "The Ion struct has the field '" + *name + "' twice");
          (*fields)[*name] = std::move(v);
        }
        return true;
      }
      case kAnnotation: {
        size_t p = h.body;
        uint64_t annot_length;
        if (!VarUInt(&p, body_end, &annot_length)) return false;
        if (annot_length == 0 || annot_length > body_end - p)
          return Fail("an Ion annotation list is malformed");
        size_t annot_end = p + annot_length;
        std::vector<std::string> annotations;
        while (p < annot_end) {
          uint64_t sid;
          if (!VarUInt(&p, annot_end, &sid)) return false;
          const std::string* text = SymbolText(sid);
          annotations.push_back(text ? *text : "");
        }
        if (p >= body_end) return Fail("an Ion annotation wrapper holds no value");
        if ((static_cast<unsigned char>(s_[p]) >> 4) == kAnnotation) {
          return Fail("an Ion annotation wrapper cannot hold another");
        }
        bool pad;
        if (!Value(&p, body_end, depth, out, error, &pad)) return false;
        if (pad || p != body_end) return Fail("an Ion annotation wrapper must hold exactly one value");
        ApplyIonAnnotations(annotations, out, error);
        return true;
      }
      default:
        return Fail("a bad Ion type descriptor");
    }
  }

  // A decimal: a VarInt exponent, then a signed-magnitude Int coefficient.
  bool Decimal(size_t p, size_t end, v1::AttributeValue* out) {
    if (p == end) {  // 0d0
      out->set_n("0");
      return true;
    }
    int64_t exponent;
    if (!VarInt(&p, end, &exponent)) return false;
    std::string magnitude(s_.substr(p, end - p));
    if (magnitude.size() > 64) return Fail("an Ion decimal is too long");
    bool negative = false;
    if (!magnitude.empty()) {
      negative = magnitude[0] & 0x80;
      magnitude[0] = static_cast<char>(magnitude[0] & 0x7F);
    }
    out->set_n((negative ? "-" : "") + MagnitudeToDecimal(magnitude) + "E" + std::to_string(exponent));
    return true;
  }

 private:
  bool Fail(std::string why) {
    bad_ = std::move(why);
    return false;
  }

  std::string_view s_;
  const std::vector<std::string>& symbols_;
  std::string bad_;
};

}  // namespace

IonBinaryParser::IonBinaryParser() : symbols_(std::begin(kSystemSymbols), std::end(kSystemSymbols)) {}

IonStep IonBinaryParser::Next(std::string_view data, bool final, v1::AttributeValue* out, size_t* consumed,
                              std::string* error) {
  *consumed = 0;
  for (;;) {
    size_t pos = *consumed;
    if (pos == data.size()) return final ? IonStep::kEnd : IonStep::kNeedMore;
    if (static_cast<unsigned char>(data[pos]) == 0xE0) {  // a version marker
      if (data.size() - pos < 4) {
        if (!final) return IonStep::kNeedMore;
        *error = "the Ion binary data ends inside a version marker";
        return IonStep::kBad;
      }
      if (!IsIonBinary(data.substr(pos))) {
        *error = "only Ion 1.0 is supported";
        return IonStep::kBad;
      }
      symbols_.assign(std::begin(kSystemSymbols), std::end(kSystemSymbols));
      *consumed = pos + 4;
      continue;
    }
    // Enough bytes for the whole value? Its head says how many.
    BinReader head_reader(data, symbols_);
    Head h;
    if (!head_reader.ReadHead(pos, data.size(), &h, /*check_length=*/false)) {
      // A descriptor and a VarUInt are at most 10 bytes: fewer may be cut.
      if (!final && data.size() - pos < 10) return IonStep::kNeedMore;
      *error = head_reader.bad();
      return IonStep::kBad;
    }
    uint64_t total = h.body - pos + (h.null ? 0 : h.length);
    if (total > kMaxIonValueBytes) {
      *error = "an Ion value is larger than " + std::to_string(kMaxIonValueBytes) + " bytes";
      return IonStep::kBad;
    }
    if (data.size() - pos < total) {
      if (!final) return IonStep::kNeedMore;
      *error = "the Ion binary data ends inside a value (cut short?)";
      return IonStep::kBad;
    }
    std::string_view value = data.substr(pos, total);
    BinReader r(value, symbols_);
    // A local symbol table: $ion_symbol_table::{imports: ..., symbols: [...]}.
    if (h.type == kAnnotation && !h.null) {
      size_t p = h.body - pos;
      uint64_t annot_length, first = 0;
      if (r.VarUInt(&p, value.size(), &annot_length) && r.VarUInt(&p, value.size(), &first) &&
          first == kSymbolTableSid) {
        std::string why;
        if (!SymbolTable(value, &why)) {
          *error = why;
          return IonStep::kBad;
        }
        *consumed = pos + total;
        continue;
      }
    }
    out->Clear();
    error->clear();
    size_t p = 0;
    bool pad;
    if (!r.Value(&p, value.size(), 0, out, error, &pad)) {
      *error = r.bad();
      return IonStep::kBad;
    }
    *consumed = pos + total;
    if (pad) continue;
    return IonStep::kValue;
  }
}

bool IonBinaryParser::SymbolTable(std::string_view value, std::string* why) {
  // The wrapper's head, its annotations, then the struct.
  BinReader r(value, symbols_);
  Head wrapper;
  if (!r.ReadHead(0, value.size(), &wrapper)) return (*why = r.bad(), false);
  size_t p = wrapper.body;
  uint64_t annot_length;
  if (!r.VarUInt(&p, value.size(), &annot_length)) return (*why = r.bad(), false);
  p += annot_length;
  Head table;
  if (p > value.size() || !r.ReadHead(p, value.size(), &table)) return (*why = r.bad(), false);
  if (table.type != kStruct || table.null) return true;  // not a table: nothing to do
  bool append = false;
  std::vector<std::string> added;
  size_t end = table.body + table.length;
  for (size_t q = table.body; q < end;) {
    uint64_t sid;
    if (!r.VarUInt(&q, end, &sid)) return (*why = r.bad(), false);
    Head field;
    if (!r.ReadHead(q, end, &field)) return (*why = r.bad(), false);
    size_t field_end = field.body + (field.null ? 0 : field.length);
    if (sid == kImportsSid && !field.null) {
      if (field.type == kSymbol) {
        std::string_view b = value.substr(field.body, field.length);
        uint64_t target = 0;
        for (unsigned char c : b) target = (target << 8) | c;
        append = target == kSymbolTableSid;
      } else if (field.type == kList) {
        return (*why = "Ion shared symbol tables (imports) are not supported", false);
      }
    } else if (sid == kSymbolsSid && field.type == kList && !field.null) {
      for (size_t e = field.body; e < field_end;) {
        Head item;
        if (!r.ReadHead(e, field_end, &item)) return (*why = r.bad(), false);
        size_t item_end = item.body + (item.null ? 0 : item.length);
        if (item.type == kString && !item.null) {
          std::string_view text = value.substr(item.body, item.length);
          if (!IsValidUtf8(text)) return (*why = "an Ion symbol is not valid UTF-8", false);
          added.emplace_back(text);
        } else {
          added.emplace_back();  // a symbol with no text
        }
        e = item_end;
      }
    }
    q = field_end;
  }
  if (!append) symbols_.assign(std::begin(kSystemSymbols), std::end(kSystemSymbols));
  if (symbols_.size() + added.size() > kMaxSymbols) {
    return (*why = "an Ion symbol table has more than " + std::to_string(kMaxSymbols) + " symbols", false);
  }
  for (auto& s : added) symbols_.push_back(std::move(s));
  return true;
}

}  // namespace pogi::jobs
