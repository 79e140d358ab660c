// The engine's in-memory view of the table catalog: each table's storage id,
// description and key schema, looked up by name on every request. Loaded from
// storage at start; updated by CreateTable/DeleteTable under their write.
// A table lives in a region (its ARN's): tables of one name in several
// regions (a global table's replicas, or --strict-regions) are told apart by
// it, and a request sees the one its region sees (service/core/region.h).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pogi/v1/control_state.pb.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/clock.h"
#include "service/core/transitions.h"

namespace pogi::service {

// One key attribute of a table or index: its name and type ("S", "N" or "B").
struct KeyAttribute {
  std::string name;
  std::string type;
};

// The most attributes a GSI's partition key, and its sort key, may have.
inline constexpr size_t kMaxKeyAttributes = 4;

// The key attributes of what a Query or Scan reads, in key-schema order. A
// table and a local index have one partition-key attribute and at most one
// sort-key attribute; a global index up to four of each (multi-attribute
// keys), stored as value/key_tuple.h encodes them.
struct KeySchema {
  std::vector<KeyAttribute> hash;
  std::vector<KeyAttribute> range;
  // Whether `name` is one of these attributes.
  bool Has(const std::string& name) const;
};

// A secondary index as the engine uses it.
struct Index {
  std::string name;
  int64_t id = 0;  // storage id of its entries
  bool global = true;
  KeySchema keys;
  std::string projection_type;               // ALL, KEYS_ONLY or INCLUDE
  std::set<std::string> non_key_attributes;  // for INCLUDE
  bool readable = true;                      // false while CREATING (transitions.h)
};

// How a vector index scores a stored vector against a search vector.
enum class DistanceFunction { kCosine, kEuclidean, kDotProduct };

// A vector index as the write path and SearchVectors use it.
struct VectorIndex {
  std::string name;
  int64_t id = 0;         // storage id of its entries
  std::string attribute;  // the vector attribute: a list of numbers
  int dimensions = 0;
  DistanceFunction distance = DistanceFunction::kCosine;
  std::optional<KeyAttribute> hash;          // the SearchSchema HASH element: one partition per value
  std::vector<KeyAttribute> filters;         // INLINE_FILTER elements, in SearchSchema order
  std::string projection_type;               // ALL, KEYS_ONLY or INCLUDE
  std::set<std::string> non_key_attributes;  // for INCLUDE
  bool searchable = true;                    // false while CREATING (transitions.h)
};

// DynamoDB's limit on an item collection (the items of one partition key and
// their local secondary index entries) of a table with local indexes.
inline constexpr int64_t kMaxItemCollectionBytes = int64_t{10} * 1024 * 1024 * 1024;

struct ChangeCapture;  // write/change_capture.h
class ReadLag;         // read_lag.h

struct Table {
  int64_t id = 0;
  // The region it lives in: the region of its ARN (the home region for a
  // description without one).
  std::string region;
  int64_t item_collection_limit = kMaxItemCollectionBytes;
  v1::TableDescription description;  // without live counters
  KeyAttribute hash;
  std::optional<KeyAttribute> range;
  std::vector<Index> indexes;
  std::vector<VectorIndex> vector_indexes;
  // Streams and the change feed: the stream records go to (0: none), and
  // where changes are captured (null in tests that build tables by hand).
  int64_t stream_id = 0;
  std::string stream_view_type;
  const ChangeCapture* capture = nullptr;
  // pogi's settings kept beside the description: tags, resource policy,
  // contributor insights, point-in-time recovery (ApplyChange records
  // history while settings.pitr().enabled()).
  v1::TableSettings settings;
  // The Kinesis streaming destination changes are captured for, from the
  // settings (KinesisCaptureOf): its queue's stream row (0: none, the write
  // path does nothing for Kinesis), its stream and precision.
  int64_t kinesis_queue = 0;
  std::string kinesis_stream_arn;
  bool kinesis_microsecond = false;
  // A global table's replica: the storage id of its replication queue (0:
  // not global; the write path then does nothing for replication).
  int64_t replication_queue = 0;
  const Clock* clock = nullptr;  // the engine's, for the write path
  // Its transient states (core/transitions.h): false while the table is
  // being created or deleted (requests for items answer as for a missing
  // table), and when the next one ends.
  bool serves_items = true;
  double transition_end = kNoTransition;
  // Where the write path records versions for lagging reads (null in tests
  // that build tables by hand).
  ReadLag* read_lag = nullptr;

  const Index* FindIndex(const std::string& name) const;
  const VectorIndex* FindVectorIndex(const std::string& name) const;
  // The storage id of every index (secondary and vector), by name: what
  // Catalog::Make takes to build the table again for a new description.
  std::map<std::string, int64_t> IndexIds() const;
  // The key schema a read of the table (index null) or of `index` uses.
  KeySchema KeysOf(const Index* index) const;
  // Whether `name` is a key attribute of the table or of any index.
  bool IsTableKey(const std::string& name) const {
    return name == hash.name || (range && name == range->name);
  }
};

class Catalog {
 public:
  // `item_collection_limit` is given to every table it makes (a test can
  // lower it to reach the limit with little data).
  explicit Catalog(int64_t item_collection_limit = kMaxItemCollectionBytes, const Clock* clock = nullptr)
      : item_collection_limit_(item_collection_limit), clock_(clock) {}

  // The table named `name` that the calling thread's request region sees
  // (RequestRegion): under --strict-regions the one in that region; by
  // default the one in that region, else the one in the home region, else
  // the first by region (one namespace). Null when none.
  std::shared_ptr<const Table> Find(const std::string& name) const;
  // The table a request names by `as_given`, a name or a table ARN that
  // ResolveTableName turned into `name`: for a name, Find's; for an ARN, the
  // table of that name in the ARN's region, when the request's region sees
  // that region's tables (always but under --strict-regions).
  std::shared_ptr<const Table> FindNamed(const std::string& name, const std::string& as_given) const;
  // The table that has the place of `seen` (the same name and region) now,
  // or null: `seen` itself, or what replaced it (the caller compares ids).
  std::shared_ptr<const Table> FindCurrent(const Table& seen) const;
  // The table named `name` in `region`, or null.
  std::shared_ptr<const Table> FindIn(const std::string& name, const std::string& region) const;
  // Every table named `name`, in every region, by region.
  std::vector<std::shared_ptr<const Table>> AllNamed(const std::string& name) const;
  // Adds `table`, or replaces the one of its name and region.
  void Put(std::shared_ptr<const Table> table);
  // Removes the table named `name` in `region`.
  void Remove(const std::string& name, const std::string& region);
  // Replaces every table at once (after a snapshot restore).
  void ReplaceAll(const std::vector<std::shared_ptr<const Table>>& tables);
  // Every table, ordered by name, then region.
  std::vector<std::shared_ptr<const Table>> All() const;
  // The earliest end of a transient state of any table (kNoTransition:
  // none under way). One atomic load: read before every request.
  double next_transition_end() const { return next_transition_end_.load(std::memory_order_acquire); }
  // The tables the calling thread's request region sees (as Find does),
  // ordered by name.
  std::vector<std::shared_ptr<const Table>> Visible() const;

  // Builds a Table (key attributes resolved) from its stored description and
  // the storage ids of its indexes, by index name (an index being deleted
  // is left out: it has none). A table rebuilt for a new
  // description (UpdateTable) keeps the settings of the catalog's entry with
  // the same id.
  std::shared_ptr<const Table> Make(int64_t id, v1::TableDescription description,
                                    const std::map<std::string, int64_t>& index_ids = {}) const;
  // A copy of `table` with other settings.
  static std::shared_ptr<const Table> WithSettings(const Table& table, v1::TableSettings settings);
  // Sets table.kinesis_* from table.settings: the one destination whose
  // stored status captures changes (ENABLING not refused by its check,
  // ACTIVE, UPDATING), if any.
  static void KinesisCaptureOf(Table& table);

  // Given to every table made from now on.
  void set_capture(const ChangeCapture* capture) { capture_ = capture; }
  // Given to every table made from now on; told when tables go away (their
  // recorded versions with them: a table id may be used again).
  void set_read_lag(ReadLag* read_lag) { read_lag_ = read_lag; }

 private:
  const int64_t item_collection_limit_;
  const ChangeCapture* capture_ = nullptr;
  ReadLag* read_lag_ = nullptr;
  const Clock* clock_;
  // REQUIRES: mu_ held.
  void UpdateNextTransitionEnd();
  // The visible one of `named` (non-empty, by region), or null.
  static std::shared_ptr<const Table> Pick(const std::vector<std::shared_ptr<const Table>>& named);
  // Puts `table` in the map (REQUIRES: mu_ held).
  void Insert(std::shared_ptr<const Table> table);

  mutable std::mutex mu_;
  // name -> the tables of that name, ordered by region (almost always one).
  std::map<std::string, std::vector<std::shared_ptr<const Table>>> tables_;
  std::atomic<double> next_transition_end_{kNoTransition};
};

// The region of a table ARN ("arn:aws:dynamodb:REGION:..."), or "".
std::string_view RegionOfArn(std::string_view arn);
// The account of a DynamoDB ARN (arn:aws:dynamodb:REGION:ACCOUNT:...), or
// empty when it is none.
std::string_view AccountOfArn(std::string_view arn);

}  // namespace pogi::service
