// The order of a map's entries as the request's JSON wrote them
// (common/entry_order.h): the HTTP door installs one for each request it
// runs on the engine in its own process.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/entry_order.h"
#include "gateway/json_doc.h"

namespace pogi::gateway {

class JsonEntryOrder final : public EntryOrder {
 public:
  // `body` is the request's JSON, already parsed once to decode it: it is
  // parsed again only when validation asks, on the error path.
  explicit JsonEntryOrder(std::string_view body) : body_(body) {}

  // The order of the request's objects whose keys are exactly `names`; not
  // known when there is no such object, or when two of them disagree (two
  // items of a batch written with the same attributes in different orders).
  bool Sort(std::vector<const std::string*>& names) const override;

 private:
  std::string_view body_;
  mutable std::unique_ptr<JsonDoc> doc_;  // parsed on the first question
  mutable bool parsed_ = false;
};

}  // namespace pogi::gateway
