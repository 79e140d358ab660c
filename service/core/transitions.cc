// Transient states kept in a table's description: beginning them, the
// statuses they show, ending them, and what DynamoDB refuses meanwhile.
#include "service/core/transitions.h"

#include <algorithm>
#include <set>

namespace pogi::service {
namespace {

constexpr std::string_view kInUse = "Attempt to change a resource which is still in use: ";

bool IsIndexPhase(std::string_view phase) {
  return phase == kIndexCreating || phase == kIndexBackfilling || phase == kIndexUpdating ||
         phase == kIndexDeleting;
}

// What the end of `t` changes in the description, beyond the statuses.
void EndOne(v1::TableDescription& d, const v1::PogiTransition& t) {
  if (t.phase() == kReplicaDeleting) {
    auto* replicas = d.mutable_replicas();
    for (int i = 0; i < replicas->size(); ++i) {
      if (ReplicaSubject((*replicas)[i].region_name()) == t.subject()) {
        replicas->DeleteSubrange(i, 1);
        break;
      }
    }
    // One replica left: a regional table again (its stream stays enabled,
    // as DynamoDB's does).
    if (replicas->size() <= 1) {
      d.clear_replicas();
      d.clear_global_table_version();
    }
    return;
  }
  if (t.phase() == kIndexDeleting) {
    auto* gsis = d.mutable_global_secondary_indexes();
    for (int i = 0; i < gsis->size(); ++i) {
      if ((*gsis)[i].index_name() == t.subject()) {
        gsis->DeleteSubrange(i, 1);
        break;
      }
    }
    auto* vectors = d.mutable_vector_indexes();
    for (int i = 0; i < vectors->size(); ++i) {
      if ((*vectors)[i].index_name() == t.subject()) {
        vectors->DeleteSubrange(i, 1);
        break;
      }
    }
    PruneAttributeDefinitions(d);
  }
}

}  // namespace

std::string ReplicaSubject(std::string_view region) { return "replica:" + std::string(region); }

TransientDelays TransientDelays::Uniform(double seconds) {
  TransientDelays d;
  d.table_creating = d.table_updating = d.table_deleting = seconds;
  d.index_creating = d.index_backfilling = d.index_updating = d.index_deleting = seconds;
  d.kinesis_destination = seconds;
  d.replica_creating = d.replica_deleting = seconds;
  return d;
}

TransientDelays TransientDelays::DynamoDbLocal() {
  TransientDelays d;
  d.index_creating = 15;
  d.index_backfilling = 15;
  d.index_deleting = 15;
  return d;
}

void BeginTransition(v1::TableDescription& d, std::string_view phase, const std::string& subject,
                     double ends_at) {
  auto* t = d.add_pogi_transitions();
  t->set_phase(std::string(phase));
  t->set_subject(subject);
  t->set_ends_at(ends_at);
}

const v1::PogiTransition* CurrentPhase(const v1::TableDescription& d, const std::string& subject) {
  const v1::PogiTransition* current = nullptr;
  for (const auto& t : d.pogi_transitions()) {
    if (t.subject() == subject && (!current || t.ends_at() < current->ends_at())) current = &t;
  }
  return current;
}

bool HasPhase(const v1::TableDescription& d, std::string_view phase) {
  for (const auto& t : d.pogi_transitions()) {
    if (t.phase() == phase) return true;
  }
  return false;
}

double NextTransitionEnd(const v1::TableDescription& d) {
  double next = kNoTransition;
  for (const auto& t : d.pogi_transitions()) next = std::min(next, t.ends_at());
  return next;
}

void ApplyTransitionStatuses(v1::TableDescription& d) {
  std::string table = "ACTIVE";
  if (HasPhase(d, kTableCreating)) {
    table = "CREATING";
  } else if (HasPhase(d, kTableDeleting)) {
    table = "DELETING";
  } else {
    for (const auto& t : d.pogi_transitions()) {
      // An index being allocated or deleted keeps its table UPDATING; one
      // backfilling or changing its throughput does not.
      if (t.phase() == kTableUpdating || t.phase() == kIndexCreating || t.phase() == kIndexDeleting ||
          t.phase() == kReplicaCreating || t.phase() == kReplicaDeleting) {
        table = "UPDATING";
      }
    }
  }
  d.set_table_status(table);
  const bool table_creating = table == "CREATING";
  // Global secondary and vector indexes alike (their names are one set).
  auto show = [&](auto& g) {
    const v1::PogiTransition* phase = CurrentPhase(d, g.index_name());
    if (table_creating) {
      g.set_index_status("CREATING");  // made with its table: no Backfilling member
    } else if (!phase || !IsIndexPhase(phase->phase())) {
      g.set_index_status("ACTIVE");
      g.clear_backfilling();
    } else if (phase->phase() == kIndexCreating || phase->phase() == kIndexBackfilling) {
      g.set_index_status("CREATING");
      g.set_backfilling(phase->phase() == kIndexBackfilling);
    } else {
      g.set_index_status(phase->phase() == kIndexUpdating ? "UPDATING" : "DELETING");
      g.clear_backfilling();
    }
  };
  for (auto& g : *d.mutable_global_secondary_indexes()) show(g);
  for (auto& v : *d.mutable_vector_indexes()) show(v);
  for (auto& r : *d.mutable_replicas()) {
    const v1::PogiTransition* phase = CurrentPhase(d, ReplicaSubject(r.region_name()));
    r.set_replica_status(!phase                               ? "ACTIVE"
                         : phase->phase() == kReplicaCreating ? "CREATING"
                         : phase->phase() == kReplicaDeleting ? "DELETING"
                                                              : "ACTIVE");
  }
}

std::vector<v1::PogiTransition> EndTransitionsDue(v1::TableDescription& d, double now) {
  std::vector<v1::PogiTransition> ended;
  auto* all = d.mutable_pogi_transitions();
  for (int i = all->size() - 1; i >= 0; --i) {
    if ((*all)[i].ends_at() <= now) {
      ended.push_back((*all)[i]);
      all->DeleteSubrange(i, 1);
    }
  }
  if (ended.empty()) return ended;
  std::stable_sort(ended.begin(), ended.end(),
                   [](const auto& a, const auto& b) { return a.ends_at() < b.ends_at(); });
  for (const auto& t : ended) EndOne(d, t);
  ApplyTransitionStatuses(d);
  return ended;
}

void PruneAttributeDefinitions(v1::TableDescription& d) {
  std::set<std::string> used;
  for (const auto& k : d.key_schema()) used.insert(k.attribute_name());
  for (const auto& g : d.global_secondary_indexes()) {
    for (const auto& k : g.key_schema()) used.insert(k.attribute_name());
  }
  for (const auto& l : d.local_secondary_indexes()) {
    for (const auto& k : l.key_schema()) used.insert(k.attribute_name());
  }
  for (const auto& v : d.vector_indexes()) {
    for (const auto& e : v.search_schema()) used.insert(e.attribute_name());
  }
  auto* defs = d.mutable_attribute_definitions();
  for (int i = defs->size() - 1; i >= 0; --i) {
    if (!used.count((*defs)[i].attribute_name())) defs->DeleteSubrange(i, 1);
  }
}

bool TableServesItems(const v1::TableDescription& d) {
  return !HasPhase(d, kTableCreating) && !HasPhase(d, kTableDeleting);
}

bool IndexReadable(const v1::TableDescription& d, const std::string& index) {
  if (HasPhase(d, kTableCreating)) return false;
  const v1::PogiTransition* phase = CurrentPhase(d, index);
  return !phase || (phase->phase() != kIndexCreating && phase->phase() != kIndexBackfilling);
}

Error IndexNotReadable(const std::string& index) {
  return Error::Validation("Cannot read from backfilling global secondary index: " + index);
}

Status CheckTableChangeable(const v1::TableDescription& d, bool updating_too) {
  const std::string& name = d.table_name();
  // What DynamoDB answers UpdateTable and DeleteTable meanwhile (recorded
  // against the service: "Table is being created: NAME" and the others).
  if (HasPhase(d, kTableCreating))
    return Error::ResourceInUse(std::string(kInUse) + "Table is being created: " + name);
  if (HasPhase(d, kTableDeleting))
    return Error::ResourceInUse(std::string(kInUse) + "Table is being deleted: " + name);
  if (updating_too && d.table_status() == "UPDATING") {
    return Error::ResourceInUse(std::string(kInUse) + "Table is being updated: " + name);
  }
  return Status::Ok();
}

Status CheckNoIndexInTransition(const v1::TableDescription& d) {
  for (const auto& t : d.pogi_transitions()) {
    if (IsIndexPhase(t.phase())) {
      return Error::ResourceInUse(
          std::string(kInUse) + "Cannot delete table while indexes are being created, updated, or deleted.");
    }
  }
  return Status::Ok();
}

}  // namespace pogi::service
