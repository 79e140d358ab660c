// JSON string escaping.
#include "gateway/json_text.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "common/base64.h"

namespace pogi::gateway {
namespace {

// True when one of the 8 bytes of `w` is below 0x20, '"' or '\\': the bytes
// JSON requires escaped. (Bit tricks: a byte b is found when b - k borrows.)
bool NeedsEscape(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  auto has_zero = [&](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  uint64_t below_space = (w - kOnes * 0x20) & ~w & kHighs;
  return below_space || has_zero(w ^ (kOnes * '"')) || has_zero(w ^ (kOnes * '\\'));
}

bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

bool NeedsEscape(std::string_view s) {
  size_t i = 0;
  for (; s.size() - i >= 8; i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (NeedsEscape(w)) return true;
  }
  for (; i < s.size(); ++i) {
    if (NeedsEscape(static_cast<unsigned char>(s[i]))) return true;
  }
  return false;
}

// std::string's own appends, for a one-off string.
struct StringSink {
  std::string* s;
  void Put(char c) { s->push_back(c); }
  void Put(std::string_view v) { s->append(v); }
};

// Writes `s` as a JSON string to `out` (a JsonOut or a StringSink).
template <typename Out>
void WriteJsonString(std::string_view s, Out& out) {
  out.Put('"');
  size_t plain = 0;  // start of the run of characters that need no escape
  size_t i = 0;
  while (i < s.size()) {
    if (s.size() - i >= 8) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (!NeedsEscape(w)) {
        i += 8;
        continue;
      }
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (!NeedsEscape(c)) {
      ++i;
      continue;
    }
    out.Put(s.substr(plain, i - plain));
    plain = ++i;
    switch (c) {
      case '"':
        out.Put("\\\"");
        break;
      case '\\':
        out.Put("\\\\");
        break;
      case '\n':
        out.Put("\\n");
        break;
      case '\r':
        out.Put("\\r");
        break;
      case '\t':
        out.Put("\\t");
        break;
      default: {
        char buf[8];
        int n = std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out.Put(std::string_view(buf, n));
      }
    }
  }
  out.Put(s.substr(plain));
  out.Put('"');
}

}  // namespace

void JsonOut::String(std::string_view s) {
  if (NeedsEscape(s)) return WriteJsonString(s, *this);
  // Most strings: one copy between the quotes.
  Reserve(s.size() + 2);
  char* p = s_->data() + size_;
  *p = '"';
  std::memcpy(p + 1, s.data(), s.size());
  p[s.size() + 1] = '"';
  size_ += s.size() + 2;
}

void JsonOut::Grow(size_t n) {
  // Up to the capacity the string already has first (the caller usually
  // reserved enough), then doubling.
  s_->resize(std::max({s_->capacity(), s_->size() * 2, size_ + n + 256}));
}

void JsonOut::Base64String(std::string_view bytes) {
  // Base64 needs no escapes.
  Put('"');
  Put(Base64Encode(bytes));
  Put('"');
}

void AppendJsonString(std::string_view s, std::string* out) {
  StringSink sink{out};
  WriteJsonString(s, sink);
}

}  // namespace pogi::gateway
