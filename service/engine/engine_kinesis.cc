// What the Kinesis delivery job (jobs/kinesis_delivery) asks of the engine:
// the tables with work, the check of a newly enabled stream, and a queue's
// records, read and then acknowledged once delivered.
#include "service/engine/engine.h"
#include "service/streams/kinesis_destinations.h"
#include "service/write/item_write.h"

namespace pogi::service {

std::vector<std::shared_ptr<const Table>> Engine::KinesisTables() {
  std::vector<std::shared_ptr<const Table>> out;
  for (auto& t : catalog_.All()) {
    bool unchecked = false;
    for (const auto& d : t->settings.kinesis_destinations()) {
      unchecked |= d.status() == "ENABLING" && d.verdict() == kKinesisUnchecked;
    }
    if (unchecked || t->settings.kinesis_queue_id() != 0) out.push_back(std::move(t));
  }
  return out;
}

Status Engine::RecordKinesisVerdict(const Table& seen, const std::string& stream_arn, bool found,
                                    const std::string& description) {
  auto state = LockState();
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    auto table = catalog_.FindCurrent(seen);
    if (!table || table->id != seen.id) return Status::Ok();  // dropped meanwhile
    v1::TableSettings settings = table->settings;
    v1::KinesisDestinationState* d = FindKinesisDestination(settings, stream_arn);
    if (!d || d->status() != "ENABLING" || d->verdict() != kKinesisUnchecked) return Status::Ok();
    d->set_verdict(found ? kKinesisStreamFound : kKinesisStreamRefused);
    if (!found) d->set_status_description(description);
    POGI_RETURN_IF_ERROR(txn.PutTableSettings(table->id, settings.SerializeAsString()));
    catalog_.Put(Catalog::WithSettings(*table, std::move(settings)));
    return Status::Ok();
  });
}

Status Engine::ReadKinesisQueue(int64_t queue, int limit, v1::StreamState* state,
                                std::vector<storage::StreamRecordRow>* records) {
  auto lock = LockState();
  return storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(queue));
    state->Clear();
    records->clear();
    if (!bytes) return Status::Ok();  // its table is gone
    if (!state->ParseFromString(*bytes))
      return Error::Internal("Kinesis queue " + std::to_string(queue) + " is corrupt");
    POGI_ASSIGN_OR_RETURN(*records, txn.ReadStreamRecords(queue, state->trimmed_through(), INT64_MAX, limit));
    return Status::Ok();
  });
}

Status Engine::AckKinesisQueue(int64_t queue, int64_t through, int64_t skipped) {
  auto lock = LockState();
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(queue));
    if (!bytes) return Status::Ok();
    v1::StreamState state;
    if (!state.ParseFromString(*bytes))
      return Error::Internal("Kinesis queue " + std::to_string(queue) + " is corrupt");
    if (through <= state.trimmed_through()) return Status::Ok();
    state.set_trimmed_through(through);
    state.set_kinesis_skipped(state.kinesis_skipped() + skipped);
    POGI_RETURN_IF_ERROR(txn.DeleteStreamRecordsThrough(queue, through));
    return txn.UpdateStream(queue, state.SerializeAsString());
  });
}

}  // namespace pogi::service
