// Catalog: the name -> table map behind every request.
#include "service/core/catalog.h"

#include <algorithm>

#include "service/core/read_lag.h"
#include "service/core/region.h"

namespace pogi::service {

std::string_view RegionOfArn(std::string_view arn) {
  constexpr std::string_view kPrefix = "arn:aws:dynamodb:";
  if (!arn.starts_with(kPrefix)) return {};
  arn.remove_prefix(kPrefix.size());
  return arn.substr(0, arn.find(':'));
}

std::string_view AccountOfArn(std::string_view arn) {
  std::string_view region = RegionOfArn(arn);
  if (region.empty() && !arn.starts_with("arn:aws:dynamodb::")) return {};
  arn.remove_prefix(std::string_view("arn:aws:dynamodb:").size() + region.size());
  if (!arn.starts_with(':')) return {};
  arn.remove_prefix(1);
  return arn.substr(0, arn.find(':'));
}

namespace {

// A table built by hand (tests) has no region: the home one.
const std::string& RegionOf(const Table& t) { return t.region.empty() ? Region() : t.region; }

}  // namespace

std::shared_ptr<const Table> Catalog::Pick(const std::vector<std::shared_ptr<const Table>>& named) {
  // One table of the name in one namespace: the common case, one branch.
  if (named.size() == 1 && !StrictRegions()) return named.front();
  const std::string& want = RequestRegion();
  for (const auto& t : named) {
    if (RegionOf(*t) == want) return t;
  }
  if (StrictRegions()) return nullptr;
  for (const auto& t : named) {
    if (RegionOf(*t) == Region()) return t;
  }
  return named.front();
}

std::shared_ptr<const Table> Catalog::Find(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : Pick(it->second);
}

std::shared_ptr<const Table> Catalog::FindNamed(const std::string& name, const std::string& as_given) const {
  std::string_view region = RegionOfArn(as_given);
  if (region.empty()) return Find(name);
  if (StrictRegions() && region != RequestRegion()) return nullptr;
  return FindIn(name, std::string(region));
}

std::shared_ptr<const Table> Catalog::FindCurrent(const Table& seen) const {
  std::lock_guard lock(mu_);
  auto it = tables_.find(seen.description.table_name());
  if (it == tables_.end()) return nullptr;
  for (const auto& t : it->second) {
    if (t->id == seen.id) return t;  // one compare in the usual case
  }
  const std::string& region = RegionOf(seen);
  for (const auto& t : it->second) {
    if (RegionOf(*t) == region) return t;
  }
  return nullptr;
}

std::shared_ptr<const Table> Catalog::FindIn(const std::string& name, const std::string& region) const {
  std::lock_guard lock(mu_);
  auto it = tables_.find(name);
  if (it == tables_.end()) return nullptr;
  for (const auto& t : it->second) {
    if (RegionOf(*t) == region) return t;
  }
  return nullptr;
}

std::vector<std::shared_ptr<const Table>> Catalog::AllNamed(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = tables_.find(name);
  return it == tables_.end() ? std::vector<std::shared_ptr<const Table>>() : it->second;
}

void Catalog::Insert(std::shared_ptr<const Table> table) {
  auto& named = tables_[table->description.table_name()];
  const std::string& region = RegionOf(*table);
  auto at = named.begin();
  while (at != named.end() && RegionOf(**at) < region) ++at;
  if (at != named.end() && RegionOf(**at) == region) {
    *at = std::move(table);
    return;
  }
  if (region != Region()) AddTableRegion(region);
  named.insert(at, std::move(table));
}

void Catalog::Put(std::shared_ptr<const Table> table) {
  std::lock_guard lock(mu_);
  Insert(std::move(table));
  UpdateNextTransitionEnd();
}

void Catalog::UpdateNextTransitionEnd() {
  double next = kNoTransition;
  for (const auto& [name, named] : tables_) {
    for (const auto& t : named) next = std::min(next, t->transition_end);
  }
  next_transition_end_.store(next, std::memory_order_release);
}

void Catalog::Remove(const std::string& name, const std::string& region) {
  std::lock_guard lock(mu_);
  auto it = tables_.find(name);
  if (it == tables_.end()) return;
  auto& named = it->second;
  for (auto t = named.begin(); t != named.end(); ++t) {
    if (RegionOf(**t) != region) continue;
    if (read_lag_) read_lag_->Forget((*t)->id);
    if (region != Region()) RemoveTableRegion(region);
    named.erase(t);
    break;
  }
  if (named.empty()) tables_.erase(it);
  UpdateNextTransitionEnd();
}

void Catalog::ReplaceAll(const std::vector<std::shared_ptr<const Table>>& tables) {
  std::lock_guard lock(mu_);
  if (read_lag_) read_lag_->ForgetAll();
  for (const auto& [name, named] : tables_) {
    for (const auto& t : named) {
      if (RegionOf(*t) != Region()) RemoveTableRegion(RegionOf(*t));
    }
  }
  tables_.clear();
  for (const auto& t : tables) Insert(t);
  UpdateNextTransitionEnd();
}

std::vector<std::shared_ptr<const Table>> Catalog::All() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<const Table>> out;
  out.reserve(tables_.size());
  for (const auto& [name, named] : tables_) out.insert(out.end(), named.begin(), named.end());
  return out;
}

std::vector<std::shared_ptr<const Table>> Catalog::Visible() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<const Table>> out;
  out.reserve(tables_.size());
  for (const auto& [name, named] : tables_) {
    if (auto t = Pick(named)) out.push_back(std::move(t));
  }
  return out;
}

std::shared_ptr<const Table> Catalog::WithSettings(const Table& table, v1::TableSettings settings) {
  auto t = std::make_shared<Table>(table);
  t->settings = std::move(settings);
  KinesisCaptureOf(*t);
  return t;
}

void Catalog::KinesisCaptureOf(Table& t) {
  t.kinesis_queue = 0;
  t.kinesis_stream_arn.clear();
  t.kinesis_microsecond = false;
  if (t.settings.kinesis_queue_id() == 0) return;
  for (const auto& d : t.settings.kinesis_destinations()) {
    bool captures =
        d.status() == "ACTIVE" || d.status() == "UPDATING" || (d.status() == "ENABLING" && d.verdict() != 2);
    if (!captures) continue;
    t.kinesis_queue = t.settings.kinesis_queue_id();
    t.kinesis_stream_arn = d.stream_arn();
    t.kinesis_microsecond = d.precision() == "MICROSECOND";
    return;
  }
}

const Index* Table::FindIndex(const std::string& name) const {
  for (const auto& i : indexes) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

const VectorIndex* Table::FindVectorIndex(const std::string& name) const {
  for (const auto& i : vector_indexes) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

std::map<std::string, int64_t> Table::IndexIds() const {
  std::map<std::string, int64_t> ids;
  for (const auto& i : indexes) ids[i.name] = i.id;
  for (const auto& v : vector_indexes) ids[v.name] = v.id;
  return ids;
}

bool KeySchema::Has(const std::string& name) const {
  for (const auto* part : {&hash, &range}) {
    for (const KeyAttribute& k : *part) {
      if (k.name == name) return true;
    }
  }
  return false;
}

KeySchema Table::KeysOf(const Index* index) const {
  if (index) return index->keys;
  KeySchema keys;
  keys.hash.push_back(hash);
  if (range) keys.range.push_back(*range);
  return keys;
}

std::shared_ptr<const Table> Catalog::Make(int64_t id, v1::TableDescription description,
                                           const std::map<std::string, int64_t>& index_ids) const {
  auto t = std::make_shared<Table>();
  t->id = id;
  t->item_collection_limit = item_collection_limit_;
  t->clock = clock_;
  std::string_view region = RegionOfArn(description.table_arn());
  t->region = region.empty() ? Region() : std::string(region);
  if (auto current = FindIn(description.table_name(), t->region); current && current->id == id) {
    t->settings = current->settings;
    KinesisCaptureOf(*t);
  }
  auto type_of = [&](const std::string& name) {
    for (const auto& def : description.attribute_definitions()) {
      if (def.attribute_name() == name) return def.attribute_type();
    }
    return std::string();
  };
  auto resolve = [&](const auto& key_schema, KeyAttribute* hash, std::optional<KeyAttribute>* range) {
    for (const auto& k : key_schema) {
      KeyAttribute attr{k.attribute_name(), type_of(k.attribute_name())};
      if (k.key_type() == "HASH") {
        *hash = attr;
      } else {
        *range = attr;
      }
    }
  };
  resolve(description.key_schema(), &t->hash, &t->range);
  auto add_index = [&](const auto& d, bool global) {
    // An index being deleted keeps its entry in the description until its
    // DELETING ends, but its entries are gone: nothing reads or writes it.
    if (global && !description.pogi_transitions().empty()) {
      const v1::PogiTransition* phase = CurrentPhase(description, d.index_name());
      if (phase && phase->phase() == kIndexDeleting) return;
    }
    Index index;
    index.name = d.index_name();
    auto it = index_ids.find(index.name);
    index.id = it == index_ids.end() ? 0 : it->second;
    index.global = global;
    // In key-schema order: every HASH element comes before every RANGE one.
    for (const auto& k : d.key_schema()) {
      (k.key_type() == "HASH" ? index.keys.hash : index.keys.range)
          .push_back(KeyAttribute{k.attribute_name(), type_of(k.attribute_name())});
    }
    index.projection_type = d.projection().projection_type();
    index.non_key_attributes.insert(d.projection().non_key_attributes().begin(),
                                    d.projection().non_key_attributes().end());
    index.readable = description.pogi_transitions().empty() || IndexReadable(description, index.name);
    t->indexes.push_back(std::move(index));
  };
  for (const auto& g : description.global_secondary_indexes()) add_index(g, true);
  for (const auto& l : description.local_secondary_indexes()) add_index(l, false);
  for (const auto& v : description.vector_indexes()) {
    // Being deleted: its entries are gone, nothing reads or writes it.
    if (!description.pogi_transitions().empty()) {
      const v1::PogiTransition* phase = CurrentPhase(description, v.index_name());
      if (phase && phase->phase() == kIndexDeleting) continue;
    }
    VectorIndex index;
    index.name = v.index_name();
    auto it = index_ids.find(index.name);
    index.id = it == index_ids.end() ? 0 : it->second;
    index.attribute = v.vector_attribute().attribute_name();
    index.dimensions = static_cast<int>(v.dimensions());
    index.distance = v.distance_function() == "EUCLIDEAN"     ? DistanceFunction::kEuclidean
                     : v.distance_function() == "DOT_PRODUCT" ? DistanceFunction::kDotProduct
                                                              : DistanceFunction::kCosine;
    for (const auto& e : v.search_schema()) {
      KeyAttribute attr{e.attribute_name(), type_of(e.attribute_name())};
      if (e.search_schema_element_type() == "HASH") {
        index.hash = attr;
      } else {
        index.filters.push_back(attr);
      }
    }
    index.projection_type = v.projection().projection_type();
    index.non_key_attributes.insert(v.projection().non_key_attributes().begin(),
                                    v.projection().non_key_attributes().end());
    index.searchable = description.pogi_transitions().empty() || IndexReadable(description, index.name);
    t->vector_indexes.push_back(std::move(index));
  }
  t->capture = capture_;
  t->read_lag = read_lag_;
  if (description.stream_specification().stream_enabled()) {
    t->stream_id = description.pogi_stream_id();
    t->stream_view_type = description.stream_specification().stream_view_type();
  }
  t->replication_queue = description.pogi_replication_queue();
  if (!description.pogi_transitions().empty()) {
    t->serves_items = TableServesItems(description);
    t->transition_end = NextTransitionEnd(description);
  }
  t->description = std::move(description);
  return t;
}

}  // namespace pogi::service
