// The order of a map's entries as the request's JSON wrote them
// (common/entry_order.h): the HTTP door installs one for each request it
// runs on the engine in its own process.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/entry_order.h"
#include "gateway/json_codec.h"
#include "gateway/json_doc.h"

namespace pogi::gateway {

class JsonEntryOrder final : public EntryOrder {
 public:
  // `body` is the request's JSON, already parsed once to decode it:
  // `attribute_maps` (if given) is what that decode recorded of its
  // attribute maps, enough for the order of an item's attributes; the body
  // is parsed again only for other maps (validation's, on the error path).
  explicit JsonEntryOrder(std::string_view body, const MapKeyOrders* attribute_maps = nullptr)
      : body_(body), attribute_maps_(attribute_maps) {}

  // The order of the request's objects whose keys are exactly `names`; not
  // known when there is no such object, or when two of them disagree (two
  // items of a batch written with the same attributes in different orders).
  bool Sort(std::vector<const std::string*>& names) const override;

 private:
  // The document order of the keys of every object of two or more
  // members, by the set of its keys; empty where two objects of the same
  // keys disagree. Built on the first question: one walk of the document,
  // then one look-up per map (an item with many nested maps asks often).
  using Index = std::unordered_map<std::string, std::vector<std::string_view>>;
  void Build() const;
  // The order of a recorded attribute map of exactly `names`: 1 found, 0 no
  // such map, -1 two that disagree.
  int SortAsRecorded(std::vector<const std::string*>& names) const;

  std::string_view body_;
  const MapKeyOrders* attribute_maps_;
  mutable std::unique_ptr<JsonDoc> doc_;  // parsed on the first question
  mutable Index index_;
  mutable bool built_ = false;
};

}  // namespace pogi::gateway
