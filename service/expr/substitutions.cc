// ExpressionAttributeNames / ExpressionAttributeValues usage tracking.
#include "service/expr/substitutions.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "service/value/attribute_order.h"

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

namespace {}  // namespace

std::vector<std::string> DynamoMapOrder(std::vector<std::string> keys) {
  // HashMap's table after keys.size() puts: 16 buckets, doubled each time
  // the size passes 3/4 of them.
  uint32_t buckets = 16;
  while (keys.size() > buckets / 4 * 3) buckets *= 2;
  auto bucket = [buckets](const std::string& k) {
    uint32_t h = value::JavaStringHash(k);
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
