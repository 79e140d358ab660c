// Change capture: what the one write path does with a change beyond storing
// it — the stream record, written in the change's own transaction, and the
// change feed's event, published after the commit.
#pragma once

#include <functional>
#include <string>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/core/clock.h"
#include "service/streams/stream_records.h"
#include "service/write/change_feed.h"
#include "storage/storage.h"

namespace pogi::service {

struct ChangeCapture {
  const Clock* clock = nullptr;
  ChangeFeed* feed = nullptr;
  // Multi-region strong consistency: applies a local write of a replica of
  // a STRONG global table to the other replicas in the write's own storage
  // transaction (engine/engine_replication.cc), instead of queueing it.
  // `new_item_stored` is the new item's stored form (null: deleted). Set
  // by the engine; null in tests that build tables by hand.
  std::function<Status(storage::WriteTxn&, const Table&, const storage::EncodedKey&,
                       const std::string* new_item_stored)>
      replicate_now;
};

// What the write path has of a change's items: their stored forms
// (value::EncodeItem; empty: not at hand) and sizes (value::ItemSize; -1:
// not measured), so that a record's images are neither encoded nor
// measured again.
struct StoredChange {
  std::string_view new_stored, old_stored;
  int64_t new_size = -1, old_size = -1;
};

// REQUIRES: table.capture is set; old_item and new_item are not both null.
Status CaptureChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                     const StoredChange& stored, ChangeSource source);

}  // namespace pogi::service
