// Change capture: what the one write path does with a change beyond storing
// it — the stream record, written in the change's own transaction, and the
// change feed's event, published after the commit.
#pragma once

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
