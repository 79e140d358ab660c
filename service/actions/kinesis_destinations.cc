// EnableKinesisStreamingDestination, DisableKinesisStreamingDestination,
// DescribeKinesisStreamingDestination, UpdateKinesisStreamingDestination:
// a table's Kinesis Data Streams destinations, kept in its settings, with
// the statuses DynamoDB shows (streams/kinesis_destinations.h) and its
// messages. While one is live the write path queues every change for it
// (write/change_capture.cc); jobs/kinesis_delivery checks the stream and
// delivers the queue.
//
// What real DynamoDB answered (probes of 2025-2026, notes in the issue):
// every state error is a ValidationException, never LimitExceeded or
// ResourceInUse; a table has at most one live destination; Enable never
// checks the stream synchronously (a missing one is ENABLE_FAILED later);
// DISABLED and ENABLE_FAILED entries stay listed, newest first.
#include "service/streams/kinesis_destinations.h"

#include "service/engine/engine.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/write/item_write.h"

namespace pogi::service {
namespace {

constexpr std::string_view kStatePrefix =
    "Table is not in a valid state to enable Kinesis Streaming Destination: ";

Error EnableRefused() {
  return Error::Validation(std::string(kStatePrefix) +
                           "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform "
                           "ENABLE operation.");
}

Error DisableRefused() {
  return Error::Validation(std::string(kStatePrefix) +
                           "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.");
}

// The member constraints every one of the four checks first.
void CheckNameAndArn(Constraints& c, const std::string* table, const std::string* arn, bool arn_member) {
  c.Required(table != nullptr, "tableName");
  c.Length(table, 1, 1024, "tableName");
  if (!arn_member) return;
  c.Required(arn != nullptr, "streamArn");
  c.Length(arn, 37, 1024, "streamArn");
}

void CheckPrecision(Constraints& c, bool present, const std::string& precision, std::string_view member) {
  if (!present) return;
  c.OneOf(&precision, {"MILLISECOND", "MICROSECOND"},
          std::string(member) + ".approximateCreationDateTimePrecision");
}

bool TableDeleting(const Table& table) {
  const v1::PogiTransition* phase = CurrentPhase(table.description, "");
  return phase && phase->phase() == kTableDeleting;
}

}  // namespace

// The table of a Kinesis destination request: by name or ARN, in any state
// but CREATING (DynamoDB answers then as for a missing table).
Result<std::shared_ptr<const Table>> Engine::KinesisTable(const std::string& name) {
  POGI_ASSIGN_OR_RETURN(std::string resolved, ResolveTableName(name));
  auto table = catalog_.FindNamed(resolved, name);
  if (table) {
    const v1::PogiTransition* phase = CurrentPhase(table->description, "");
    if (phase && phase->phase() == kTableCreating) table = nullptr;
  }
  if (!table) return Error::ResourceNotFound("Requested resource not found: Table: " + name + " not found");
  return table;
}

Status Engine::ChangeKinesisDestinations(
    const Table& seen, const std::function<Status(const Table&, v1::TableSettings&)>& change,
    bool want_queue) {
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, seen));
    v1::TableSettings settings = table->settings;
    SettleKinesisDestinations(settings, clock_->Now());
    POGI_RETURN_IF_ERROR(change(*table, settings));
    if (want_queue && settings.kinesis_queue_id() == 0) {
      // The changes to deliver wait in a stream row of their own (its
      // records and sequence numbers are storage's stream machinery).
      v1::StreamState queue;
      queue.set_kinesis_queue(true);
      queue.set_table_id(table->id);
      queue.set_table_name(table->description.table_name());
      POGI_ASSIGN_OR_RETURN(int64_t id, txn.CreateStream(queue.SerializeAsString()));
      settings.set_kinesis_queue_id(id);
    }
    POGI_RETURN_IF_ERROR(txn.PutTableSettings(table->id, settings.SerializeAsString()));
    catalog_.Put(Catalog::WithSettings(*table, std::move(settings)));
    return Status::Ok();
  });
}

Result<v1::EnableKinesisStreamingDestinationResponse> Engine::EnableKinesisStreamingDestination(
    const v1::EnableKinesisStreamingDestinationRequest& req) {
  const bool has_config = req.has_enable_kinesis_streaming_configuration();
  const auto& config = req.enable_kinesis_streaming_configuration();
  {
    Constraints c;
    CheckNameAndArn(c, req.has_table_name() ? &req.table_name() : nullptr,
                    req.has_stream_arn() ? &req.stream_arn() : nullptr, true);
    CheckPrecision(c, has_config && config.has_approximate_creation_date_time_precision(),
                   config.approximate_creation_date_time_precision(), "enableKinesisStreamingConfiguration");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto seen, KinesisTable(req.table_name()));
  if (TableDeleting(*seen)) return EnableRefused();
  const double now = clock_->Now();
  const std::string& arn = req.stream_arn();
  // Without a Kinesis endpoint no stream can be used: DynamoDB's answer for
  // a stream it cannot reach, decided now.
  const bool refused_now = !kinesis_configured_;
  POGI_RETURN_IF_ERROR(ChangeKinesisDestinations(
      *seen,
      [&](const Table&, v1::TableSettings& s) -> Status {
        for (const auto& d : s.kinesis_destinations()) {
          if (IsLiveKinesisStatus(d.status())) return EnableRefused();
        }
        // Re-enabling a DISABLED or ENABLE_FAILED stream flips its entry
        // (its precision reset), which becomes the newest.
        auto* list = s.mutable_kinesis_destinations();
        for (int i = 0; i < list->size(); ++i) {
          if (list->Get(i).stream_arn() == arn) {
            list->DeleteSubrange(i, 1);
            break;
          }
        }
        v1::KinesisDestinationState d;
        d.set_stream_arn(arn);
        d.set_status("ENABLING");
        d.set_ends_at(now + delays_.kinesis_destination);
        if (has_config && config.has_approximate_creation_date_time_precision()) {
          d.set_precision(config.approximate_creation_date_time_precision());
        }
        if (refused_now) {
          d.set_verdict(kKinesisStreamRefused);
          d.set_status_description(std::string(kKinesisNoPermission));
        }
        list->Add(std::move(d));
        // Newest first.
        for (int i = list->size() - 1; i > 0; --i) list->SwapElements(i, i - 1);
        return Status::Ok();
      },
      !refused_now));
  if (!refused_now && kinesis_wake_) kinesis_wake_();
  v1::EnableKinesisStreamingDestinationResponse resp;
  resp.set_table_name(seen->description.table_name());
  resp.set_stream_arn(arn);
  resp.set_destination_status("ENABLING");
  // The configuration as sent; {} when none was.
  *resp.mutable_enable_kinesis_streaming_configuration() = config;
  return resp;
}

Result<v1::DisableKinesisStreamingDestinationResponse> Engine::DisableKinesisStreamingDestination(
    const v1::DisableKinesisStreamingDestinationRequest& req) {
  const bool has_config = req.has_enable_kinesis_streaming_configuration();
  const auto& config = req.enable_kinesis_streaming_configuration();
  {
    Constraints c;
    CheckNameAndArn(c, req.has_table_name() ? &req.table_name() : nullptr,
                    req.has_stream_arn() ? &req.stream_arn() : nullptr, true);
    CheckPrecision(c, has_config && config.has_approximate_creation_date_time_precision(),
                   config.approximate_creation_date_time_precision(), "enableKinesisStreamingConfiguration");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  if (has_config) {
    return Error::Validation(
        "Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters");
  }
  POGI_ASSIGN_OR_RETURN(auto seen, KinesisTable(req.table_name()));
  if (TableDeleting(*seen)) return DisableRefused();
  const double now = clock_->Now();
  const std::string& arn = req.stream_arn();
  POGI_RETURN_IF_ERROR(ChangeKinesisDestinations(*seen, [&](const Table&, v1::TableSettings& s) -> Status {
    v1::KinesisDestinationState* d = FindKinesisDestination(s, arn);
    // A second Disable while the first is under way answers the same.
    if (!d || (d->status() != "ACTIVE" && d->status() != "DISABLING")) return DisableRefused();
    if (d->status() == "ACTIVE") {
      d->set_status("DISABLING");
      d->set_ends_at(now + delays_.kinesis_destination);
    }
    return Status::Ok();
  }));
  v1::DisableKinesisStreamingDestinationResponse resp;
  resp.set_table_name(seen->description.table_name());
  resp.set_stream_arn(arn);
  resp.set_destination_status("DISABLING");
  return resp;
}

Result<v1::DescribeKinesisStreamingDestinationResponse> Engine::DescribeKinesisStreamingDestination(
    const v1::DescribeKinesisStreamingDestinationRequest& req) {
  {
    Constraints c;
    CheckNameAndArn(c, req.has_table_name() ? &req.table_name() : nullptr, nullptr, false);
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto table, KinesisTable(req.table_name()));
  const double now = clock_->Now();
  const bool deleting = TableDeleting(*table);
  v1::DescribeKinesisStreamingDestinationResponse resp;
  resp.set_table_name(table->description.table_name());
  for (const auto& d : table->settings.kinesis_destinations()) {
    auto* out = resp.add_kinesis_data_stream_destinations();
    out->set_stream_arn(d.stream_arn());
    std::string status = KinesisStatusAt(d, now);
    // DynamoDB shows a live destination of a table being deleted UPDATING.
    if (deleting && IsLiveKinesisStatus(status)) status = "UPDATING";
    out->set_destination_status(status);
    if (status == "ENABLE_FAILED" && !d.status_description().empty()) {
      out->set_destination_status_description(d.status_description());
    }
    if (d.has_precision()) out->set_approximate_creation_date_time_precision(d.precision());
  }
  return resp;
}

Result<v1::UpdateKinesisStreamingDestinationResponse> Engine::UpdateKinesisStreamingDestination(
    const v1::UpdateKinesisStreamingDestinationRequest& req) {
  const bool has_config = req.has_update_kinesis_streaming_configuration();
  const auto& config = req.update_kinesis_streaming_configuration();
  {
    Constraints c;
    CheckNameAndArn(c, req.has_table_name() ? &req.table_name() : nullptr,
                    req.has_stream_arn() ? &req.stream_arn() : nullptr, true);
    CheckPrecision(c, has_config && config.has_approximate_creation_date_time_precision(),
                   config.approximate_creation_date_time_precision(), "updateKinesisStreamingConfiguration");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto seen, KinesisTable(req.table_name()));
  if (!config.has_approximate_creation_date_time_precision()) {
    return Error::Validation(
        "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration "
        "cannot be null or contain only null values");
  }
  const double now = clock_->Now();
  const std::string& arn = req.stream_arn();
  const std::string& precision = config.approximate_creation_date_time_precision();
  const std::string table_name = seen->description.table_name();
  POGI_RETURN_IF_ERROR(
      ChangeKinesisDestinations(*seen, [&](const Table& table, v1::TableSettings& s) -> Status {
        v1::KinesisDestinationState* d = FindKinesisDestination(s, arn);
        if (!d) {
          return Error::Validation(std::string(kStatePrefix) + "No streaming destination with streamArn: " +
                                   arn + " found for table with tableName: " + table_name);
        }
        if (d->status() != "ACTIVE") {
          return Error::Validation(
              std::string(kStatePrefix) +
              "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE "
              "state. TableName: " +
              table_name + ", kdsArn: " + arn);
        }
        // An absent precision is MILLISECOND, the default.
        const std::string current = d->has_precision() ? d->precision() : "MILLISECOND";
        if (current == precision) {
          return Error::Validation("Invalid Request: Precision is already set to the desired value of " +
                                   precision + " for tableId: " + table.description.table_id() +
                                   ", kdsArn: " + arn);
        }
        // Describe shows the new precision at once, while UPDATING lasts.
        d->set_precision(precision);
        d->set_status("UPDATING");
        d->set_ends_at(now + delays_.kinesis_destination);
        return Status::Ok();
      }));
  v1::UpdateKinesisStreamingDestinationResponse resp;
  resp.set_table_name(table_name);
  resp.set_stream_arn(arn);
  resp.set_destination_status("UPDATING");
  *resp.mutable_update_kinesis_streaming_configuration() = config;
  return resp;
}

}  // namespace pogi::service
