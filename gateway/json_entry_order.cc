// Finding a map's entries in the request's JSON by their keys.
#include "gateway/json_entry_order.h"

#include <algorithm>
#include <unordered_map>

namespace pogi::gateway {
namespace {

// An object's keys in byte order, each after its length: the index's key.
std::string Signature(std::vector<std::string_view> keys) {
  std::sort(keys.begin(), keys.end());
  std::string out;
  for (std::string_view k : keys) {
    out.append(std::to_string(k.size())).push_back(':');
    out.append(k);
  }
  return out;
}

}  // namespace

void JsonEntryOrder::Build() const {
  built_ = true;
  doc_ = std::make_unique<JsonDoc>();
  if (!doc_->Parse(body_)) return;  // always parses: the request was decoded from this body
  // Every object of the document, walked with a stack of its own: the body
  // may nest deeper (in members the reader ignores) than a stack of calls
  // should.
  std::vector<JsonRef> pending{doc_->root()};
  while (!pending.empty()) {
    JsonRef j = pending.back();
    pending.pop_back();
    if (j.is_object()) {
      std::vector<std::string_view> keys;
      j.ForEachMember([&](std::string_view key, JsonRef member) {
        keys.push_back(key);
        if (member.is_object() || member.is_array()) pending.push_back(member);
        return true;
      });
      if (keys.size() < 2) continue;
      auto [it, inserted] = index_.try_emplace(Signature(keys), keys);
      if (!inserted && it->second != keys) it->second.clear();  // two orders: not known
    } else if (j.is_array()) {
      j.ForEachElement([&](JsonRef e) {
        if (e.is_object() || e.is_array()) pending.push_back(e);
        return true;
      });
    }
  }
}

int JsonEntryOrder::SortAsRecorded(std::vector<const std::string*>& names) const {
  auto by_text = [](const std::string* a, const std::string* b) { return *a < *b; };
  std::vector<const std::string*> wanted(names);
  std::sort(wanted.begin(), wanted.end(), by_text);
  const std::vector<const std::string*>* found = nullptr;
  std::vector<const std::string*> keys;
  for (const auto& map : *attribute_maps_) {
    if (map.size() != names.size()) continue;
    keys = map;
    std::sort(keys.begin(), keys.end(), by_text);
    bool same = std::equal(keys.begin(), keys.end(), wanted.begin(),
                           [](const std::string* a, const std::string* b) { return *a == *b; });
    if (!same) continue;
    if (found && !std::equal(found->begin(), found->end(), map.begin(),
                             [](const std::string* a, const std::string* b) { return *a == *b; })) {
      return -1;
    }
    found = &map;
  }
  if (!found) return 0;
  // `wanted` holds the names in byte order: place each by its key's rank.
  for (size_t i = 0; i < found->size(); ++i) {
    auto at = std::lower_bound(wanted.begin(), wanted.end(), (*found)[i], by_text);
    names[i] = *at;
  }
  return 1;
}

bool JsonEntryOrder::Sort(std::vector<const std::string*>& names) const {
  if (attribute_maps_) {
    if (int recorded = SortAsRecorded(names); recorded != 0) return recorded > 0;
  }
  if (!built_) Build();
  std::vector<std::string_view> keys;
  keys.reserve(names.size());
  for (const std::string* n : names) keys.push_back(*n);
  auto it = index_.find(Signature(keys));
  if (it == index_.end() || it->second.size() != names.size()) return false;
  std::unordered_map<std::string_view, const std::string*> by_key;
  for (const std::string* n : names) by_key.emplace(*n, n);
  if (by_key.size() != names.size()) return false;  // not distinct
  for (size_t i = 0; i < names.size(); ++i) names[i] = by_key.at(it->second[i]);
  return true;
}

}  // namespace pogi::gateway
