// A parsed JSON document for reading requests: one flat array of nodes in
// document order, strings pointing into the request body (copied only when
// they hold escapes). Parsing allocates a few vectors per request instead of
// a node per value, and is iterative, so no nesting depth can exhaust the
// stack. Strict RFC 8259: invalid UTF-8, control characters in strings, bad
// escapes or surrogates, trailing text are all malformed.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace pogi::gateway {

enum class JsonType : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kObject, kArray };

class JsonDoc;

// A value inside a JsonDoc (valid while the document and its text live).
class JsonRef {
 public:
  JsonRef(const JsonDoc* doc, uint32_t index) : doc_(doc), index_(index) {}

  JsonType type() const;
  bool is_null() const { return type() == JsonType::kNull; }
  bool is_boolean() const { return type() == JsonType::kTrue || type() == JsonType::kFalse; }
  bool is_number() const { return type() == JsonType::kNumber; }
  // A number written without fraction or exponent that fits 64 bits.
  bool is_integer() const;
  bool is_string() const { return type() == JsonType::kString; }
  bool is_object() const { return type() == JsonType::kObject; }
  bool is_array() const { return type() == JsonType::kArray; }

  bool boolean() const { return type() == JsonType::kTrue; }
  int64_t integer() const;          // REQUIRES: is_integer()
  double number() const;            // REQUIRES: is_number()
  std::string_view string() const;  // REQUIRES: is_string()

  // Visits an object's members in document order as f(key, value) until f
  // returns false (then false); a key given more than once is visited
  // once, with its last value.
  template <typename F>
  bool ForEachMember(F&& f) const;
  // Visits an array's elements in order as f(element) until f returns false.
  template <typename F>
  bool ForEachElement(F&& f) const;
  // The number of members (distinct keys) or elements.
  uint32_t size() const;

 private:
  const JsonDoc* doc_;
  uint32_t index_;
};

class JsonDoc {
 public:
  // Parses `text`, which must outlive the document; false when it is not
  // one well-formed JSON value.
  bool Parse(std::string_view text);
  JsonRef root() const { return JsonRef(this, 0); }
  // Gives back the memory of an unusually large document (a reused
  // document keeps its buffers otherwise).
  void Trim();

 private:
  friend class JsonRef;
  struct Node {                  // 24 bytes: a 16 MB request of tiny values is millions of them
    const char* text = nullptr;  // string: its characters; number: its lexeme
    uint32_t length = 0;
    uint32_t size = 0;  // object: members (distinct keys); array: elements
    uint32_t next = 0;  // index of the node after this value and its children
    JsonType type = JsonType::kNull;
    bool shadowed = false;  // an object key given again later in its object
    bool integer = false;   // a number without fraction or exponent, fitting int64
  };
  static_assert(sizeof(Node) == 24);

  enum class Start { kError, kScalar, kOpened };
  Start ParseValueStart();
  bool ParseKey();
  bool ParseString();
  bool ParseNumber();
  bool ParseLiteral(std::string_view word, JsonType type);
  bool Unescape(const char* begin, std::string* out);
  void CloseObject(uint32_t index);
  void SkipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  std::vector<Node> nodes_;
  std::vector<uint32_t> open_;         // containers being filled while parsing, innermost last
  std::deque<std::string> unescaped_;  // strings that held escapes (stable addresses)
  const char* p_ = nullptr;
  const char* end_ = nullptr;
};

inline JsonType JsonRef::type() const { return doc_->nodes_[index_].type; }
inline bool JsonRef::is_integer() const { return doc_->nodes_[index_].integer; }
inline std::string_view JsonRef::string() const {
  const auto& n = doc_->nodes_[index_];
  return {n.text, n.length};
}
inline uint32_t JsonRef::size() const { return doc_->nodes_[index_].size; }

template <typename F>
bool JsonRef::ForEachMember(F&& f) const {
  const auto& nodes = doc_->nodes_;
  for (uint32_t i = index_ + 1, end = nodes[index_].next; i < end; i = nodes[i + 1].next) {
    if (nodes[i].shadowed) continue;
    if (!f(std::string_view(nodes[i].text, nodes[i].length), JsonRef(doc_, i + 1))) return false;
  }
  return true;
}

template <typename F>
bool JsonRef::ForEachElement(F&& f) const {
  const auto& nodes = doc_->nodes_;
  for (uint32_t i = index_ + 1, end = nodes[index_].next; i < end; i = nodes[i].next) {
    if (!f(JsonRef(doc_, i))) return false;
  }
  return true;
}

}  // namespace pogi::gateway
