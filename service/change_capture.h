// Change capture: what the one write path does with a change beyond storing
// it — the stream record, written in the change's own transaction, and the
// change feed's event, published after the commit.
#pragma once

#include "common/result.h"
#include "service/catalog.h"
#include "service/change_feed.h"
#include "service/clock.h"
#include "service/stream_records.h"
#include "storage/storage.h"

namespace pogi::service {

struct ChangeCapture {
  const Clock* clock = nullptr;
  ChangeFeed* feed = nullptr;
};

// REQUIRES: table.capture is set; old_item and new_item are not both null.
// `new_item_stored` is the new item's stored form (value::EncodeItem), so
// that a record's new image is written without encoding the item again.
Status CaptureChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                     std::string_view new_item_stored, ChangeSource source);

}  // namespace pogi::service
