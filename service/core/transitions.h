// Transient states: a table, or an index (or, from the rooms that add them, a
// vector index or a replica), that stays CREATING, UPDATING or DELETING until
// a time of pogi's one clock, then moves on by itself, as DynamoDB's do.
//
// How it works:
//   - A transition is a PogiTransition in the table's stored description
//     (`pogi_transitions`: a phase, a subject, the clock time it ends). The
//     description is in storage, so every process sharing a PostgreSQL
//     database sees it, and a restart goes on with it.
//   - A request that starts one (CreateTable, UpdateTable, DeleteTable)
//     calls BeginTransition for each phase, with absolute end times (a
//     phase that follows another begins where that one ends), then
//     ApplyTransitionStatuses, and stores the description.
//   - Engine::SettleTransitions (engine/engine_transitions.cc) runs before
//     every operation and in the maintenance loop: once the clock has passed
//     a transition's end, it ends it (EndTransitionsDue here for what the
//     description shows; the engine for what storage must do, such as a
//     deleted table's items) in one storage write. `pogi clock advance`
//     therefore ends them, and tests never sleep. With none under way it
//     costs a request one atomic load.
//   - TransientDelays says how long each phase lasts: all zero by default
//     (every state ends inside the call that began it, and no transition is
//     ever stored), DynamoDB Local's with -delayTransientStatuses, or one
//     duration for every phase (pogi start --transient-delay).
//
// A vector index goes through the index phases (its name is in the same set
// as the secondary indexes').
//
// Adding a kind (a replica's statuses):
//   1. name its phases below (kReplicaCreating...) and give
//      TransientDelays a duration for each;
//   2. in the request that starts it, BeginTransition(d, phase, subject,
//      ends_at) for each phase, set what the description shows while it
//      lasts (or teach ApplyTransitionStatuses to derive it), and store d;
//   3. what its end changes in the description goes in EndTransitionsDue's
//      EndOne (transitions.cc); what needs storage goes in
//      Engine::FinishTransition (engine/engine_transitions.cc);
//   4. what DynamoDB refuses while it lasts: the Check* functions below, or
//      one of your own beside them, with DynamoDB's messages.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

// The phases (PogiTransition.phase). DO NOT CHANGE the strings: stored in
// table descriptions.
inline constexpr std::string_view kTableCreating = "TABLE_CREATING";  // table and its indexes CREATING
inline constexpr std::string_view kTableUpdating = "TABLE_UPDATING";  // table UPDATING
inline constexpr std::string_view kTableDeleting = "TABLE_DELETING";  // table DELETING, then gone
// An index added by UpdateTable: CREATING with Backfilling false while
// DynamoDB allocates it (the table UPDATING), then CREATING with
// Backfilling true (the table ACTIVE again), then ACTIVE.
inline constexpr std::string_view kIndexCreating = "INDEX_CREATING";
inline constexpr std::string_view kIndexBackfilling = "INDEX_BACKFILLING";
inline constexpr std::string_view kIndexUpdating = "INDEX_UPDATING";  // index UPDATING (throughput)
inline constexpr std::string_view kIndexDeleting =
    "INDEX_DELETING";  // index DELETING (table UPDATING), then gone
// A global table's replica (subject ReplicaSubject(region)), in the
// description of every replica: CREATING, then ACTIVE; DELETING, then out
// of the Replicas list (and the list gone once one replica is left). The
// table is UPDATING meanwhile.
inline constexpr std::string_view kReplicaCreating = "REPLICA_CREATING";
inline constexpr std::string_view kReplicaDeleting = "REPLICA_DELETING";
// The subject of a replica's transitions ("replica:REGION": apart from
// index names, which cannot hold ':').
std::string ReplicaSubject(std::string_view region);

// A time no transition ends at: none is under way.
inline constexpr double kNoTransition = std::numeric_limits<double>::infinity();

// How long each phase lasts, in seconds of pogi's clock; 0: the state ends
// inside the call that began it.
struct TransientDelays {
  double table_creating = 0;
  double table_updating = 0;
  double table_deleting = 0;
  double index_creating = 0;  // the allocation part of an added index
  double index_backfilling = 0;
  double index_updating = 0;
  double index_deleting = 0;
  // A Kinesis streaming destination ENABLING, UPDATING or DISABLING
  // (service/streams/kinesis_destinations.h keeps its own end time).
  double kinesis_destination = 0;
  // A global table's replica being created or deleted.
  double replica_creating = 0;
  double replica_deleting = 0;

  // Every phase `seconds` long.
  static TransientDelays Uniform(double seconds);
  // DynamoDB Local 3.3.1's -delayTransientStatuses, as observed: an index
  // added by UpdateTable is CREATING (not backfilling) for 15 s, then
  // backfilling for 15 s; a deleted index is DELETING for 15 s; tables and
  // index throughput changes are not delayed.
  static TransientDelays DynamoDbLocal();
};

// Adds a transition of `subject` ("" for the table) in `phase`, ending at
// `ends_at`.
void BeginTransition(v1::TableDescription& d, std::string_view phase, const std::string& subject,
                     double ends_at);

// The phase `subject` is in now (its earliest-ending transition), or null.
const v1::PogiTransition* CurrentPhase(const v1::TableDescription& d, const std::string& subject);
// Whether any transition of `phase` is under way (of any subject).
bool HasPhase(const v1::TableDescription& d, std::string_view phase);

// The earliest end among `d`'s transitions, kNoTransition when none.
double NextTransitionEnd(const v1::TableDescription& d);

// Sets TableStatus, each index's IndexStatus and Backfilling from the
// transitions under way: the table CREATING or DELETING while its own
// phase lasts, UPDATING while it or an index is being updated (an index
// being allocated or deleted included), else ACTIVE; an index CREATING
// (Backfilling false, then true for one added by UpdateTable; absent for
// one made with its table), UPDATING or DELETING, else ACTIVE.
void ApplyTransitionStatuses(v1::TableDescription& d);

// Ends every transition of `d` due at `now`, earliest first: removes it
// and applies what its end changes in the description (an index that was
// DELETING leaves the list, with the attribute definitions only it used),
// then the statuses. Returns the transitions ended; the caller does what
// they need beyond the description (kTableDeleting: the table goes).
std::vector<v1::PogiTransition> EndTransitionsDue(v1::TableDescription& d, double now);

// Removes the attribute definitions no key schema of the table or of an
// index uses any more, as DynamoDB drops them.
void PruneAttributeDefinitions(v1::TableDescription& d);

// ---- what DynamoDB refuses while a transition lasts ---------------------

// A table being created or deleted serves no item: a data-plane request
// (items, Query, Scan, PartiQL, transactions, TTL) reaches it as one that
// does not exist (Catalog::Make keeps the answer in Table::serves_items).
bool TableServesItems(const v1::TableDescription& d);
// Whether an index may be read (not CREATING; Index::readable).
bool IndexReadable(const v1::TableDescription& d, const std::string& index);
// DynamoDB's answer to a read (Query, Scan, PartiQL SELECT) of an index
// still being created.
Error IndexNotReadable(const std::string& index);

// UpdateTable or DeleteTable of a table being created, deleted or (with
// `updating_too`) updated: DynamoDB's ResourceInUseException, "Attempt to
// change a resource which is still in use: Table is being created: NAME".
Status CheckTableChangeable(const v1::TableDescription& d, bool updating_too);

// DeleteTable while an index is being created, updated or deleted.
Status CheckNoIndexInTransition(const v1::TableDescription& d);

}  // namespace pogi::service
