// ExpressionAttributeNames / ExpressionAttributeValues usage tracking.
#include "service/expr/substitutions.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pogi::expr {

const std::string* Substitutions::Name(std::string_view ref) {
  if (names_ == nullptr) return nullptr;
  auto it = names_->find(std::string(ref));
  if (it == names_->end()) return nullptr;
  used_names_.emplace(ref);
  return &it->second;
}

const AttributeValue* Substitutions::Value(std::string_view ref) {
  if (values_ == nullptr) return nullptr;
  auto it = values_->find(std::string(ref));
  if (it == values_->end()) return nullptr;
  used_values_.emplace(ref);
  return &it->second;
}

namespace {

// java.lang.String.hashCode of a UTF-8 string: 31*h + c over its UTF-16
// code units (a byte that does not decode counts as one unit).
uint32_t JavaStringHash(std::string_view s) {
  uint32_t h = 0;
  auto add = [&h](uint32_t unit) { h = 31 * h + unit; };
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) {
      add(c);
      ++i;
      continue;
    }
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      add(0xD800 + (cp >> 10));
      add(0xDC00 + (cp & 0x3FF));
    } else {
      add(cp);
    }
    i += len;
  }
  return h;
}

}  // namespace

std::vector<std::string> DynamoMapOrder(std::vector<std::string> keys) {
  // HashMap's table after keys.size() puts: 16 buckets, doubled each time
  // the size passes 3/4 of them.
  uint32_t buckets = 16;
  while (keys.size() > buckets / 4 * 3) buckets *= 2;
  auto bucket = [buckets](const std::string& k) {
    uint32_t h = JavaStringHash(k);
    return (h ^ (h >> 16)) & (buckets - 1);
  };
  std::sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
    uint32_t ba = bucket(a), bb = bucket(b);
    return ba != bb ? ba < bb : a < b;
  });
  return keys;
}

namespace {

template <typename MapT>
std::string UnusedKeys(const MapT* map, const std::set<std::string, std::less<>>& used) {
  if (map == nullptr) return {};
  std::vector<std::string> unused;
  for (const auto& [key, value] : *map) {
    if (!used.contains(key)) unused.push_back(key);
  }
  if (unused.empty()) return {};
  std::string out;
  for (const auto& key : DynamoMapOrder(std::move(unused))) {
    if (!out.empty()) out += ", ";
    out += key;
  }
  return out;
}

}  // namespace

Status Substitutions::CheckAllUsed() const {
  if (std::string keys = UnusedKeys(names_, used_names_); !keys.empty()) {
    return Error::Validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {" +
                             keys + "}");
  }
  if (std::string keys = UnusedKeys(values_, used_values_); !keys.empty()) {
    return Error::Validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {" +
                             keys + "}");
  }
  return Status::Ok();
}

}  // namespace pogi::expr
