// The JSON text writer both JSON encoders use: strings with JSON's escapes,
// base64 strings for binary values, and raw pieces.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

namespace pogi::gateway {

// Appends to a std::string through its buffer: the string is grown ahead
// (doubling, zero-filled) and cut back to what was written when the writer
// goes away, so make one per large piece of output, not per value; the
// string must not be touched otherwise meanwhile.
// One bounds check per piece and no call per character: std::string's own
// push_back and append are out-of-line calls into libstdc++, which showed
// as a tenth of a 1,000-item Query's CPU.
class JsonOut {
 public:
  explicit JsonOut(std::string* s) : s_(s), size_(s->size()) {}
  ~JsonOut() { s_->resize(size_); }
  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  void Put(char c) {
    Reserve(1);
    s_->data()[size_++] = c;
  }
  void Put(std::string_view text) {
    Reserve(text.size());
    std::memcpy(s_->data() + size_, text.data(), text.size());
    size_ += text.size();
  }
  // `s` as a JSON string ("..." with ", \ and control characters escaped).
  void String(std::string_view s);
  // The base64 text of `bytes` as a JSON string.
  void Base64String(std::string_view bytes);

  size_t size() const { return size_; }
  // Forgets everything written after `size` (a mark taken with size()).
  void CutTo(size_t size) { size_ = std::min(size, size_); }

 private:
  void Reserve(size_t n) {
    if (s_->size() - size_ < n) [[unlikely]]
      Grow(n);
  }
  void Grow(size_t n);
  std::string* s_;
  size_t size_;  // what has been written; s_->size() is the buffer
};

// Appends `s` as a JSON string.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace pogi::gateway
