// Change capture: stream records and change feed events.
#include "service/write/change_capture.h"

#include "service/streams/kinesis_destinations.h"

namespace pogi::service {

Status CaptureChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                     const StoredChange& stored, ChangeSource source) {
  const ChangeCapture& capture = *table.capture;
  double now = capture.clock->Now();
  int64_t sequence = 0;
  if (table.stream_id != 0 || table.kinesis_queue != 0) {
    ItemForms forms;
    if (new_item && !stored.new_stored.empty()) {
      POGI_ASSIGN_OR_RETURN(forms.new_proto, value::StoredItemProto(stored.new_stored));
    }
    if (old_item && !stored.old_stored.empty()) {
      POGI_ASSIGN_OR_RETURN(forms.old_proto, value::StoredItemProto(stored.old_stored));
    }
    forms.new_size = stored.new_size;
    forms.old_size = stored.old_size;
    std::string record;
    if (table.stream_id != 0) {
      record = SerializeRecord(table, table.stream_view_type, old_item, new_item, forms, now, source);
      POGI_ASSIGN_OR_RETURN(sequence, txn.AppendStreamRecord(table.stream_id, now, record));
    }
    // A Kinesis destination gets every change with both images, in the
    // same transaction: delivery (jobs/kinesis_delivery) never misses one.
    if (table.kinesis_queue != 0) {
      if (table.stream_id == 0 || table.stream_view_type != "NEW_AND_OLD_IMAGES") {
        record = SerializeRecord(table, "NEW_AND_OLD_IMAGES", old_item, new_item, forms, now, source);
      }
      POGI_RETURN_IF_ERROR(txn.AppendStreamRecord(
          table.kinesis_queue, now,
          KinesisQueueEntry(table.kinesis_stream_arn, table.kinesis_microsecond, key, record)));
    }
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
