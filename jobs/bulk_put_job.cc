// A bulk put's objects, records, puts, rate, report and progress.
#include "jobs/bulk_put_job.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

#include "common/log.h"
#include "gateway/json_codec.h"
#include "gateway/json_text.h"
#include "jobs/decompress.h"
#include "jobs/input_objects.h"
#include "jobs/input_records.h"
#include "service/core/catalog.h"
#include "service/core/region.h"
#include "service/engine/operations.h"
#include "service/value/decoded.h"

namespace pogi::jobs {
namespace {

constexpr int kMaxErrorLog = 100;  // error entries kept with the operation (pogi jobs)
constexpr auto kTickEvery = std::chrono::seconds(1);
constexpr size_t kMaxPendingReport = 8 << 20;  // report bytes held before an object is written
constexpr std::string_view kError = "ERROR";
constexpr std::string_view kConditionFailure = "CONDITION_CHECK_FAILURE";

// pogi's FailureCode and FailureMessage of a cancelled operation: DynamoDB's
// are not on record.
constexpr const char* kCancelledCode = "BulkOperationCancelled";
constexpr const char* kCancelledMessage = "The bulk operation was cancelled by a CancelBulkOperation request";

// Why a run ends before its last object, besides a failure.
Error Stopped() { return Error(ErrorCode::kServiceUnavailable, "stopped"); }
Error Cancelled() { return Error(ErrorCode::kServiceUnavailable, "cancelled"); }
bool Is(const Status& s, const Error& e) {
  return !s.ok() && s.error().code() == e.code() && s.error().message() == e.message();
}

// Counts the stored bytes read of an object (ProcessedInputBytes), below
// its decompressor.
class CountingReader final : public outbound::ObjectReader {
 public:
  CountingReader(std::unique_ptr<outbound::ObjectReader> in, int64_t* count)
      : in_(std::move(in)), count_(count) {}
  Result<size_t> Read(char* buf, size_t n) override {
    POGI_ASSIGN_OR_RETURN(size_t got, in_->Read(buf, n));
    *count_ += static_cast<int64_t>(got);
    return got;
  }

 private:
  std::unique_ptr<outbound::ObjectReader> in_;
  int64_t* count_;
};

struct Pointer {
  std::string key;
  int64_t index = 0;
};

// The report lines of one OutputType not yet written to the store.
struct PendingReport {
  std::string lines;
  int64_t count = 0;
};

class BulkPutRun {
 public:
  BulkPutRun(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
             v1::StoredJob& job, const KeepGoing& keep_going)
      : engine_(engine),
        store_(store),
        arn_(arn),
        job_(job),
        d_(*job.mutable_bulk()),
        keep_going_(keep_going) {
    const auto& out = d_.output_s3_configuration();
    for (const std::string& t : out.output_type()) {
      if (t == kError) want_errors_ = true;
      if (t == kConditionFailure) want_condition_failures_ = true;
    }
    std::string prefix = out.s3_key_prefix();
    if (!prefix.empty() && prefix.back() != '/') prefix.push_back('/');
    report_base_ = prefix + "AWSDynamoDB/BulkOperations/" + arn_.substr(arn_.rfind('/') + 1) + "/";
    put_ = service::FindOperation("PutItem");
  }

  Status Run() {
    const auto& in = d_.input_s3_configuration();
    table_arn_ = TableArnOfBulkOperation(arn_);
    POGI_RETURN_IF_ERROR(store_.CheckBucket(in.s3_bucket()));
    POGI_RETURN_IF_ERROR(store_.CheckBucket(d_.output_s3_configuration().s3_bucket()));
    POGI_ASSIGN_OR_RETURN(InputObjects input, ListInputObjects(store_, in.s3_bucket(), in.s3_key_prefix()));
    if (!d_.has_total_input_bytes()) {  // the first run: a later one has these already
      int64_t total = 0;
      for (const auto& o : input.objects) total += o.size;
      d_.set_total_input_bytes(total);
      for (const auto& [key, why] : input.bad_manifest_lines) {
        d_.set_processed_item_count(d_.processed_item_count() + 1);
        Failed({key, 0}, why, nullptr);
      }
    }
    last_tick_ = std::chrono::steady_clock::now();
    started_ = last_tick_;
    POGI_RETURN_IF_ERROR(Tick(/*now=*/true));  // a cancel asked for before the run began
    int64_t before = 0;
    for (size_t i = 0; i < input.objects.size(); ++i) {
      const auto& object = input.objects[i];
      if (static_cast<int64_t>(i) >= job_.objects_done()) {
        POGI_RETURN_IF_ERROR(Tick(/*now=*/true));
        POGI_RETURN_IF_ERROR(ReadObject(in.s3_bucket(), object, before));
        job_.set_objects_done(static_cast<int64_t>(i) + 1);
        job_.set_lines_done(0);
      }
      before += object.size;
      d_.set_processed_input_bytes(before);
    }
    return Status::Ok();
  }

  // Sets the outcome of a run that ended with `s` and writes the report;
  // false when the run only stopped (the operation stays IN_PROGRESS).
  Result<bool> Finish(const Status& s) {
    if (Is(s, Stopped())) return false;
    d_.set_end_time(engine_.clock().Now());
    if (Is(s, Cancelled())) {
      d_.set_bulk_operation_status("CANCELLED");
      d_.set_failure_code(kCancelledCode);
      d_.set_failure_message(kCancelledMessage);
    } else if (!s.ok()) {
      Fail(s.error());
    } else {
      d_.set_bulk_operation_status(d_.failed_item_count() > 0 ? "COMPLETED_WITH_ERRORS" : "COMPLETED");
    }
    // The report, whatever the outcome, unless its bucket is what failed.
    if (d_.failure_code() != "S3NoSuchBucket" && d_.failure_code() != "S3AccessDenied") {
      Status written = FlushReports();
      if (written.ok()) written = WriteManifest();
      if (!written.ok() && d_.bulk_operation_status() != "FAILED") Fail(written.error());
    }
    return true;
  }

 private:
  void Fail(const Error& e) {
    outbound::StoreFailure f = outbound::FailureOf(e);
    if (!e.message().starts_with("S3")) f = {std::string(e.info().short_name), e.message()};
    d_.set_bulk_operation_status("FAILED");
    d_.set_failure_code(f.code);
    d_.set_failure_message(f.message);
  }

  Status ReadObject(const std::string& bucket, const outbound::ObjectInfo& object, int64_t before) {
    const int64_t skip = job_.lines_done();  // records of this object done by an earlier run
    POGI_ASSIGN_OR_RETURN(auto raw, store_.Open(bucket, object.key));
    int64_t read = 0;
    auto counted = std::make_unique<CountingReader>(std::move(raw), &read);
    const auto& in = d_.input_s3_configuration();
    auto records = MakeRecordReader(in.input_format(), CsvSettings(),
                                    Decompressing(std::move(counted), in.input_compression_type()));
    for (int64_t index = 0;; ++index) {
      InputRecord rec;
      Result<bool> next = records->Next(&rec);
      d_.set_processed_input_bytes(before + std::min(read, object.size));
      if (!next.ok()) {
        if (!IsDataError(next.error())) return next.error();
        // The object's bytes stop making records: one error, the rest skipped.
        if (index >= skip) {
          d_.set_processed_item_count(d_.processed_item_count() + 1);
          Failed({object.key, index}, next.error().message(), nullptr);
        }
        return Status::Ok();
      }
      if (!*next) return Status::Ok();
      if (index < skip) continue;
      // Done before the put: progress stored from inside it (the rate's
      // waits) then counts this record done with its put.
      job_.set_lines_done(index + 1);
      POGI_RETURN_IF_ERROR(Put(std::move(rec), {object.key, index}));
      POGI_RETURN_IF_ERROR(Tick(/*now=*/false));
    }
  }

  // Errors of storage, or the table gone, end the operation; any other
  // refusal of PutItem is the record's own.
  static bool Fatal(const Error& e) {
    return e.code() == ErrorCode::kInternalServerError || e.code() == ErrorCode::kServiceUnavailable ||
           e.code() == ErrorCode::kResourceNotFound;
  }

  // One record: put through PutItem as a request would be (the operation
  // table's entry: the catalog followed, a snapshot restore waited for).
  Status Put(InputRecord rec, Pointer at) {
    d_.set_processed_item_count(d_.processed_item_count() + 1);
    if (!rec.error.empty()) {
      Failed(at, rec.error, rec.item.empty() ? nullptr : &rec.item);
      return Status::Ok();
    }
    v1::PutItemRequest req = std::move(rec.condition);
    req.set_table_name(table_arn_);
    *req.mutable_item()->mutable_attributes() = rec.item;
    req.set_return_values_on_condition_check_failure("ALL_OLD");
    req.set_return_consumed_capacity("INDEXES");
    Result<std::unique_ptr<google::protobuf::Message>> r = [&] {
      service::RequestRegionScope region(service::RegionOfArn(table_arn_));
      return put_->invoke(engine_, req);
    }();
    if (r.ok()) {
      Count(rec.item, static_cast<const v1::PutItemResponse&>(**r).consumed_capacity());
      return Throttle();
    }
    const Error& e = r.error();
    if (e.code() == ErrorCode::kConditionalCheckFailed) {
      job_.set_condition_check_failures(job_.condition_check_failures() + 1);
      if (want_condition_failures_) {
        // The item comes carried in its stored order (value/decoded.h).
        std::optional<v1::Item> existing;
        if (e.detail() && e.detail()->has_item()) existing = value::Decoded(e.detail()->item());
        AddLine(kConditionFailure, at, "", &rec.item, existing ? &existing->attributes() : nullptr);
      }
      return Status::Ok();
    }
    if (Fatal(e)) return e;
    Failed(at, e.message(), &rec.item);
    return Status::Ok();
  }

  // BulkOperationUsage: the item's bytes, to the table and to each index
  // PutItem charged (the item is in it).
  void Count(const value::AttributeMap& item, const v1::ConsumedCapacity& cc) {
    const int64_t size = value::ItemSize(item);
    if (d_.bulk_operation_usage_size() == 0) {
      auto* u = d_.add_bulk_operation_usage();
      u->set_table_name(d_.table_details_size() > 0 ? d_.table_details(0).table_name() : "");
      u->set_bulk_put_bytes(0);
      u->mutable_table()->set_bulk_put_bytes(0);
    }
    v1::BulkOperationUsage& u = *d_.mutable_bulk_operation_usage(0);
    int64_t total = size;
    u.mutable_table()->set_bulk_put_bytes(u.table().bulk_put_bytes() + size);
    for (const auto& [name, c] : cc.global_secondary_indexes()) {
      auto& b = (*u.mutable_global_secondary_indexes())[name];
      b.set_bulk_put_bytes(b.bulk_put_bytes() + size);
      total += size;
    }
    for (const auto& [name, c] : cc.local_secondary_indexes()) {
      auto& b = (*u.mutable_local_secondary_indexes())[name];
      b.set_bulk_put_bytes(b.bulk_put_bytes() + size);
      total += size;
    }
    for (const auto& [name, c] : cc.vector_indexes()) {  // not in BulkPutBytes, as DynamoDB counts
      auto& b = (*u.mutable_vector_indexes())[name];
      b.set_bulk_put_vector_bytes(b.bulk_put_vector_bytes() + size);
    }
    u.set_bulk_put_bytes(u.bulk_put_bytes() + total);
    units_ += cc.capacity_units();
  }

  // MaxWriteRequestUnits: waits until the units spent since the run began
  // are within the rate, looking for a cancel meanwhile.
  Status Throttle() {
    if (!d_.has_max_write_request_units() || d_.max_write_request_units() <= 0) return Status::Ok();
    const auto due = started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(units_ / d_.max_write_request_units()));
    for (;;) {
      auto now = std::chrono::steady_clock::now();
      if (now >= due) return Status::Ok();
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(due - now, std::chrono::milliseconds(100)));
      POGI_RETURN_IF_ERROR(Tick(/*now=*/false));
    }
  }

  // A record not written for a parse or validation error.
  void Failed(const Pointer& at, const std::string& message, const value::AttributeMap* item) {
    d_.set_failed_item_count(d_.failed_item_count() + 1);
    std::string line = AddLine(kError, at, message, item, nullptr);
    if (job_.error_log_size() < kMaxErrorLog) job_.add_error_log(line);
    log::Warn("bulk put: an item was not written",
              {{"operation", arn_}, {"key", at.key}, {"index", at.index}, {"error", message}});
  }

  // The report line of a record, held for the report when its OutputType
  // was asked for; returned either way.
  std::string AddLine(std::string_view type, const Pointer& at, const std::string& message,
                      const value::AttributeMap* item, const value::AttributeMap* existing) {
    v1::BulkReportLine line;
    line.mutable_item_s3_pointer()->set_bucket(d_.input_s3_configuration().s3_bucket());
    line.mutable_item_s3_pointer()->set_key(at.key);
    line.mutable_item_s3_pointer()->set_item_index(at.index);
    line.set_output_type(std::string(type));
    if (!message.empty()) line.add_error_messages(message);
    if (item) *line.mutable_item() = *item;
    if (existing) *line.mutable_existing_item() = *existing;
    std::string json;
    gateway::MessageToJson(line, &json);
    bool wanted = type == kError ? want_errors_ : want_condition_failures_;
    if (wanted) {
      PendingReport& p = type == kError ? errors_ : condition_failures_;
      p.lines.append(json).push_back('\n');
      ++p.count;
      if (p.lines.size() >= kMaxPendingReport) pending_full_ = true;
    }
    return json;
  }

  // Writes what the report holds as one object per OutputType.
  Status FlushReports() {
    pending_full_ = false;
    const std::pair<std::string_view, PendingReport*> kinds[] = {{kError, &errors_},
                                                                 {kConditionFailure, &condition_failures_}};
    for (auto [type, p] : kinds) {
      if (p->count == 0) continue;
      char name[16];
      std::snprintf(name, sizeof name, "%05d", job_.report_files_size());
      std::string key = report_base_ + std::string(type) + "/" + name + ".json";
      POGI_RETURN_IF_ERROR(store_.Put(d_.output_s3_configuration().s3_bucket(), key, p->lines));
      auto* f = job_.add_report_files();
      f->set_output_type(std::string(type));
      f->set_key(key);
      f->set_item_count(p->count);
      *p = PendingReport();
    }
    return Status::Ok();
  }

  // manifest.json: the outcome, its counts and the report's objects.
  Status WriteManifest() {
    std::string m = "{\"bulkOperationArn\":";
    gateway::AppendJsonString(arn_, &m);
    m += ",\"bulkOperationStatus\":";
    gateway::AppendJsonString(d_.bulk_operation_status(), &m);
    m += ",\"processedItemCount\":" + std::to_string(d_.processed_item_count());
    m += ",\"failedItemCount\":" + std::to_string(d_.failed_item_count());
    m += ",\"conditionCheckFailureCount\":" + std::to_string(job_.condition_check_failures());
    m += ",\"outputFiles\":[";
    for (int i = 0; i < job_.report_files_size(); ++i) {
      const auto& f = job_.report_files(i);
      if (i) m += ",";
      m += "{\"outputType\":";
      gateway::AppendJsonString(f.output_type(), &m);
      m += ",\"s3Key\":";
      gateway::AppendJsonString(f.key(), &m);
      m += ",\"itemCount\":" + std::to_string(f.item_count()) + "}";
    }
    m += "]}\n";
    return store_.Put(d_.output_s3_configuration().s3_bucket(), report_base_ + "manifest.json", m);
  }

  // About every second (and, `now`, at once): whether to go on, with the
  // report so far written and the progress stored for
  // DescribeBulkOperation, and a cancel asked for meanwhile taken in.
  Status Tick(bool now) {
    auto t = std::chrono::steady_clock::now();
    if (!now && !pending_full_ && t - last_tick_ < kTickEvery) return Status::Ok();
    last_tick_ = t;
    if (!keep_going_()) return Stopped();
    POGI_RETURN_IF_ERROR(FlushReports());
    bool cancel = false;
    POGI_RETURN_IF_ERROR(engine_.UpdateJob(arn_, [&](v1::StoredJob& stored) -> Status {
      cancel = stored.cancel_requested();
      v1::StoredJob mine = job_;
      if (cancel) {
        mine.set_cancel_requested(true);
        mine.mutable_bulk()->set_bulk_operation_status("CANCELLING");
      }
      stored = std::move(mine);
      return Status::Ok();
    }));
    if (cancel) return Cancelled();
    return Status::Ok();
  }

  service::Engine& engine_;
  outbound::ObjectStore& store_;
  const std::string& arn_;
  v1::StoredJob& job_;
  v1::BulkOperationDescription& d_;
  const KeepGoing& keep_going_;
  const service::Operation* put_ = nullptr;
  std::string table_arn_;
  std::string report_base_;
  bool want_errors_ = false;
  bool want_condition_failures_ = false;
  PendingReport errors_;
  PendingReport condition_failures_;
  bool pending_full_ = false;
  double units_ = 0;  // write units spent by this run
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_tick_;
};

}  // namespace

std::string TableArnOfBulkOperation(const std::string& arn) {
  size_t at = arn.rfind("/bulk-operation/");
  return at == std::string::npos ? arn : arn.substr(0, at);
}

Status RunBulkPut(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
                  v1::StoredJob job, const KeepGoing& keep_going) {
  BulkPutRun run(engine, store, arn, job, keep_going);
  Status s = run.Run();
  POGI_ASSIGN_OR_RETURN(bool ended, run.Finish(s));
  if (!ended) return Status::Ok();  // another run takes it up
  const auto& d = job.bulk();
  log::Info("bulk put: " + d.bulk_operation_status(), {{"operation", arn},
                                                       {"processed", d.processed_item_count()},
                                                       {"failed", d.failed_item_count()},
                                                       {"condition_failures", job.condition_check_failures()},
                                                       {"failure", d.failure_code()}});
  return engine.UpdateJob(arn, [&](v1::StoredJob& stored) -> Status {
    stored = job;
    return Status::Ok();
  });
}

}  // namespace pogi::jobs
