// Change capture: stream records and change feed events.
#include "service/change_capture.h"

namespace pogi::service {

Status CaptureChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                     std::string_view new_item_stored, ChangeSource source) {
  const ChangeCapture& capture = *table.capture;
  double now = capture.clock->Now();
  int64_t sequence = 0;
  if (table.stream_id != 0) {
    std::string_view new_proto;
    if (new_item && !new_item_stored.empty()) {
      POGI_ASSIGN_OR_RETURN(new_proto, value::StoredItemProto(new_item_stored));
    }
    std::string record =
        SerializeRecord(table, table.stream_view_type, old_item, new_item, new_proto, now, source);
    POGI_ASSIGN_OR_RETURN(sequence, txn.AppendStreamRecord(table.stream_id, now, record));
  }
  if (!capture.feed->active()) return Status::Ok();
  v1::ChangeEvent event;
  event.set_table_name(table.description.table_name());
  event.set_event_name(!old_item ? "INSERT" : !new_item ? "REMOVE" : "MODIFY");
  v1::Record keys = BuildRecord(table, "KEYS_ONLY", old_item, new_item, now, source);
  *event.mutable_keys() = keys.dynamodb().keys();
  if (old_item) *event.mutable_old_item()->mutable_attributes() = *old_item;
  if (new_item) *event.mutable_new_item()->mutable_attributes() = *new_item;
  if (sequence) event.set_sequence_number(FormatSequence(sequence));
  event.set_time(now);
  event.set_ttl(source == ChangeSource::kTimeToLive);
  ChangeFeed* feed = capture.feed;
  txn.OnCommit([feed, event = std::move(event)]() mutable { feed->Publish(std::move(event)); });
  return Status::Ok();
}

}  // namespace pogi::service
