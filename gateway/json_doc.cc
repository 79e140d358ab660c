// The JSON tape parser.
#include "gateway/json_doc.h"

#include <charconv>
#include <cstring>
#include <unordered_set>

#include "common/utf8.h"

namespace pogi::gateway {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four hex digits at p (p + 4 <= end checked by the caller), or -1.
int Hex4(const char* p) {
  int v = 0;
  for (int i = 0; i < 4; ++i) {
    int d = HexDigit(p[i]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// The length of the well-formed UTF-8 sequence starting at p (a byte >=
// 0x80), or 0 (overlong forms, surrogates and code points past U+10FFFF
// are malformed).
size_t Utf8Length(const unsigned char* p, const unsigned char* end) {
  auto cont = [&](size_t i, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return p + i < end && p[i] >= lo && p[i] <= hi;
  };
  unsigned char c = p[0];
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

}  // namespace

int64_t JsonRef::integer() const {
  const auto& n = doc_->nodes_[index_];
  int64_t v = 0;
  std::from_chars(n.text, n.text + n.length, v);
  return v;
}

double JsonRef::number() const {
  const auto& n = doc_->nodes_[index_];
  double v = 0;
  std::from_chars(n.text, n.text + n.length, v);
  return v;
}

bool JsonDoc::Parse(std::string_view text) {
  nodes_.clear();
  unescaped_.clear();
  // A UTF-8 byte order mark before the document is skipped, as JSON
  // parsers commonly do (RFC 8259 lets them).
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  p_ = text.data();
  end_ = text.data() + text.size();
  std::vector<uint32_t>& open = open_;
  open.clear();
  for (;;) {
    // A value: a scalar, or the start of a container.
    SkipSpace();
    Start start = ParseValueStart();
    if (start == Start::kError) return false;
    if (start == Start::kOpened) {
      bool object = nodes_[open.back()].type == JsonType::kObject;
      SkipSpace();
      if (p_ == end_ || *p_ != (object ? '}' : ']')) {
        if (object && !ParseKey()) return false;
        continue;  // its first member or element
      }
      ++p_;  // empty: a complete value
      nodes_[open.back()].next = static_cast<uint32_t>(nodes_.size());
      open.pop_back();
    }
    // After a value: the next member or element, or the end of containers.
    for (;;) {
      if (open.empty()) {
        SkipSpace();
        return p_ == end_;
      }
      uint32_t index = open.back();
      ++nodes_[index].size;
      bool object = nodes_[index].type == JsonType::kObject;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        if (object && !ParseKey()) return false;
        break;
      }
      if (*p_ != (object ? '}' : ']')) return false;
      ++p_;
      open.pop_back();
      nodes_[index].next = static_cast<uint32_t>(nodes_.size());
      if (object) CloseObject(index);
    }
  }
}

// A member's key and the colon after it.
bool JsonDoc::ParseKey() {
  SkipSpace();
  if (p_ == end_ || *p_ != '"' || !ParseString()) return false;
  SkipSpace();
  return p_ != end_ && *p_++ == ':';
}

void JsonDoc::Trim() {
  constexpr size_t kKeep = 4096;  // nodes: a large request, not a hostile one
  if (nodes_.capacity() > kKeep) std::vector<Node>().swap(nodes_);
  if (open_.capacity() > kKeep) std::vector<uint32_t>().swap(open_);
  unescaped_.clear();
}

// Marks keys given again later in the object at `index` (the last one
// counts) and counts the distinct keys.
void JsonDoc::CloseObject(uint32_t index) {
  Node& object = nodes_[index];
  if (object.size < 2) return;
  std::vector<uint32_t> keys;
  keys.reserve(object.size);
  for (uint32_t i = index + 1; i < object.next; i = nodes_[i + 1].next) keys.push_back(i);
  auto key = [&](uint32_t i) { return std::string_view(nodes_[i].text, nodes_[i].length); };
  uint32_t shadowed = 0;
  if (keys.size() <= 16) {
    for (size_t a = 0; a < keys.size(); ++a) {
      for (size_t b = a + 1; b < keys.size(); ++b) {
        if (key(keys[a]) == key(keys[b])) {
          nodes_[keys[a]].shadowed = true;
          ++shadowed;
          break;
        }
      }
    }
  } else {
    std::unordered_set<std::string_view> seen;
    for (size_t a = keys.size(); a-- > 0;) {
      if (!seen.insert(key(keys[a])).second) {
        nodes_[keys[a]].shadowed = true;
        ++shadowed;
      }
    }
  }
  nodes_[index].size -= shadowed;
}

// At p_ (spaces skipped): a scalar, or '{' / '[' which opens a container
// (pushed on *open, its members follow).
JsonDoc::Start JsonDoc::ParseValueStart() {
  if (p_ == end_) return Start::kError;
  switch (*p_) {
    case '{':
    case '[': {
      Node n;
      n.type = *p_ == '{' ? JsonType::kObject : JsonType::kArray;
      ++p_;
      open_.push_back(static_cast<uint32_t>(nodes_.size()));
      nodes_.push_back(n);
      return Start::kOpened;
    }
    case '"':
      return ParseString() ? Start::kScalar : Start::kError;
    case 't':
      return ParseLiteral("true", JsonType::kTrue) ? Start::kScalar : Start::kError;
    case 'f':
      return ParseLiteral("false", JsonType::kFalse) ? Start::kScalar : Start::kError;
    case 'n':
      return ParseLiteral("null", JsonType::kNull) ? Start::kScalar : Start::kError;
    default:
      return ParseNumber() ? Start::kScalar : Start::kError;
  }
}

bool JsonDoc::ParseLiteral(std::string_view word, JsonType type) {
  if (static_cast<size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) {
    return false;
  }
  p_ += word.size();
  Node n;
  n.type = type;
  n.next = static_cast<uint32_t>(nodes_.size() + 1);
  nodes_.push_back(n);
  return true;
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool JsonDoc::ParseNumber() {
  const char* begin = p_;
  auto digits = [&] {
    const char* d = p_;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ > d;
  };
  if (p_ < end_ && *p_ == '-') ++p_;
  if (p_ < end_ && *p_ == '0') {
    ++p_;
  } else if (!digits()) {
    return false;
  }
  bool integer = true;
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    integer = false;
    if (!digits()) return false;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    integer = false;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (!digits()) return false;
  }
  Node n;
  n.type = JsonType::kNumber;
  n.text = begin;
  n.length = static_cast<uint32_t>(p_ - begin);
  n.next = static_cast<uint32_t>(nodes_.size() + 1);
  if (integer) {
    int64_t ignored;
    auto [end, ec] = std::from_chars(begin, p_, ignored);
    n.integer = ec == std::errc() && end == p_;
  }
  nodes_.push_back(n);
  return true;
}

// At p_: '"'. Adds the string node; its text points into the input unless
// the string holds escapes.
bool JsonDoc::ParseString() {
  const char* begin = ++p_;
  bool escaped = false;
  while (p_ < end_) {
    unsigned char c = static_cast<unsigned char>(*p_);
    if (c == '"') break;
    if (c < 0x20) return false;
    if (c == '\\') {
      escaped = true;
      p_ += 2;  // the escape's letter is checked by Unescape
    } else if (c >= 0x80) {
      size_t n = Utf8Length(reinterpret_cast<const unsigned char*>(p_),
                            reinterpret_cast<const unsigned char*>(end_));
      if (n == 0) return false;
      p_ += n;
    } else {
      ++p_;
    }
  }
  if (p_ >= end_) return false;
  Node n;
  n.type = JsonType::kString;
  if (escaped) {
    std::string& out = unescaped_.emplace_back();
    if (!Unescape(begin, &out)) return false;
    n.text = out.data();
    n.length = static_cast<uint32_t>(out.size());
  } else {
    n.text = begin;
    n.length = static_cast<uint32_t>(p_ - begin);
  }
  ++p_;  // the closing quote
  n.next = static_cast<uint32_t>(nodes_.size() + 1);
  nodes_.push_back(n);
  return true;
}

// The characters from `begin` to p_ (the closing quote) with escapes
// resolved. The characters themselves were checked by ParseString.
bool JsonDoc::Unescape(const char* begin, std::string* out) {
  out->reserve(p_ - begin);
  for (const char* q = begin; q < p_;) {
    if (*q != '\\') {
      out->push_back(*q++);
      continue;
    }
    if (q + 1 >= p_) return false;
    char e = q[1];
    q += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out->push_back(e);
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        if (p_ - q < 4) return false;
        int cp = Hex4(q);
        if (cp < 0) return false;
        q += 4;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          // A high surrogate: its low half must follow.
          if (p_ - q < 6 || q[0] != '\\' || q[1] != 'u') return false;
          int low = Hex4(q + 2);
          if (low < 0xDC00 || low > 0xDFFF) return false;
          q += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        AppendUtf8(static_cast<uint32_t>(cp), out);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

}  // namespace pogi::gateway
