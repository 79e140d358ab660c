// Finding a map's entries in the request's JSON by their keys.
#include "gateway/json_entry_order.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace pogi::gateway {
namespace {

// The keys of object `object` in document order when they are exactly
// `sorted` (distinct, in byte order), else nothing.
std::optional<std::vector<std::string_view>> KeysIfExactly(JsonRef object,
                                                           const std::vector<std::string_view>& sorted) {
  if (object.size() != sorted.size()) return std::nullopt;
  std::vector<std::string_view> keys;
  keys.reserve(sorted.size());
  bool all = object.ForEachMember([&](std::string_view key, JsonRef) {
    if (!std::binary_search(sorted.begin(), sorted.end(), key)) return false;
    keys.push_back(key);
    return true;
  });
  if (!all) return std::nullopt;
  return keys;
}

}  // namespace

bool JsonEntryOrder::Sort(std::vector<const std::string*>& names) const {
  if (!doc_) {
    doc_ = std::make_unique<JsonDoc>();
    parsed_ = doc_->Parse(body_);  // always: the request was decoded from this body
  }
  if (!parsed_) return false;
  std::vector<std::string_view> sorted;
  sorted.reserve(names.size());
  for (const std::string* n : names) sorted.push_back(*n);
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return false;

  // Every object of the document, walked with a stack of its own: the body
  // may nest deeper (in members the reader ignores) than a stack of calls
  // should.
  std::optional<std::vector<std::string_view>> found;
  bool agree = true;
  std::vector<JsonRef> pending{doc_->root()};
  while (!pending.empty() && agree) {
    JsonRef j = pending.back();
    pending.pop_back();
    if (j.is_object()) {
      if (auto keys = KeysIfExactly(j, sorted)) {
        if (!found) {
          found = std::move(keys);
        } else if (*found != *keys) {
          agree = false;
        }
      }
      j.ForEachMember([&](std::string_view, JsonRef member) {
        if (member.is_object() || member.is_array()) pending.push_back(member);
        return true;
      });
    } else if (j.is_array()) {
      j.ForEachElement([&](JsonRef e) {
        if (e.is_object() || e.is_array()) pending.push_back(e);
        return true;
      });
    }
  }
  if (!found || !agree) return false;
  std::unordered_map<std::string_view, const std::string*> by_key;
  for (const std::string* n : names) by_key.emplace(*n, n);
  for (size_t i = 0; i < names.size(); ++i) names[i] = by_key.at((*found)[i]);
  return true;
}

}  // namespace pogi::gateway
