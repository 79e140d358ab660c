// The order a client wrote a map's entries in. A protobuf map forgets it, yet
// DynamoDB, given two bad entries of one map (an Item, a Key,
// ExpressionAttributeValues, Expected, KeyConditions, AttributeUpdates...),
// answers the one written first: dynalite and DynamoDB Local, both built by
// watching DynamoDB, agree. The HTTP door knows the order from the request's
// JSON and installs an EntryOrder for the request its thread serves
// (EntryOrderScope). Validation asks it only once a map has a bad entry and
// more than one entry, so valid requests pay nothing. Without one (the gRPC
// door, a gateway in front of an engine elsewhere, background jobs) entries
// go in name order: the same request always gets the same answer.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "common/result.h"

namespace pogi {

class EntryOrder {
 public:
  virtual ~EntryOrder() = default;
  // Puts `names`, the distinct keys of one map, in the order the client
  // wrote them; false (and `names` unchanged) when that order is not known.
  virtual bool Sort(std::vector<const std::string*>& names) const = 0;
};

// Maps whose orders are known as lists of their names (the map literals of
// a PartiQL statement, as its parser met them).
class ListedEntryOrder final : public EntryOrder {
 public:
  // `outer`: asked about maps not listed (the request's own, when a
  // statement's parameters hold maps).
  ListedEntryOrder(const std::vector<std::vector<std::string>>* maps, const EntryOrder* outer)
      : maps_(maps), outer_(outer) {}
  // The order of the listed map of exactly `names` (not known when two that
  // disagree are listed), else the outer order's answer.
  bool Sort(std::vector<const std::string*>& names) const override;

 private:
  const std::vector<std::vector<std::string>>* maps_;
  const EntryOrder* outer_;
};

// The calling thread's EntryOrder, or null.
const EntryOrder* CurrentEntryOrder();

// Makes `order` the calling thread's EntryOrder until destroyed.
class EntryOrderScope {
 public:
  explicit EntryOrderScope(const EntryOrder* order);
  ~EntryOrderScope();
  EntryOrderScope(const EntryOrderScope&) = delete;
  EntryOrderScope& operator=(const EntryOrderScope&) = delete;

 private:
  const EntryOrder* previous_;
};

// The keys of `map` in the order the client wrote them when that is known,
// else in name order.
template <typename Map>
std::vector<const std::string*> ClientOrder(const Map& map) {
  std::vector<const std::string*> names;
  names.reserve(map.size());
  for (const auto& entry : map) names.push_back(&entry.first);
  const EntryOrder* order = names.size() > 1 ? CurrentEntryOrder() : nullptr;
  if (!order || !order->Sort(names)) {
    std::sort(names.begin(), names.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  }
  return names;
}

// The error of the first entry of `map`, in ClientOrder, for which
// `check(name)` fails. For the error path: a loop in the map's own order met
// `found`; this finds the error to answer (`found` itself when `check` fails
// for no entry, which a deterministic check cannot).
template <typename Map, typename Check>
Error FirstFailureInClientOrder(const Map& map, Error found, Check&& check) {
  for (const std::string* name : ClientOrder(map)) {
    if (Status s = check(*name); !s.ok()) return std::move(s).error();
  }
  return found;
}

}  // namespace pogi
