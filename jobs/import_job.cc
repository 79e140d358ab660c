// An import's objects, records, checks and batches.
#include "jobs/import_job.h"

#include <chrono>
#include <map>

#include "common/log.h"
#include "gateway/json_text.h"
#include "jobs/decompress.h"
#include "jobs/input_objects.h"
#include "jobs/input_records.h"
#include "service/validate/item_validation.h"
#include "service/write/index_entries.h"

namespace pogi::jobs {
namespace {

constexpr size_t kBatchItems = 1000;      // items per storage write
constexpr int64_t kBatchBytes = 8 << 20;  // or this many bytes of items
constexpr int kMaxErrorLog = 100;         // error entries kept with the import
constexpr auto kTickEvery = std::chrono::seconds(1);

// DynamoDB's FailureCode and FailureMessage for an import with items that
// failed validation (its developer guide, "Import format quotas and
// validation").
constexpr const char* kItemValidationCode = "ItemValidationError";
constexpr const char* kItemValidationMessage =
    "Some of the items failed validation checks and were not imported. Please check CloudWatch error logs "
    "for "
    "more details.";

// Why a run ends before its last object, besides a failure.
Error Stopped() { return Error(ErrorCode::kServiceUnavailable, "stopped"); }
Error Cancelled() { return Error(ErrorCode::kServiceUnavailable, "cancelled"); }
bool Is(const Status& s, const Error& e) {
  return !s.ok() && s.error().code() == e.code() && s.error().message() == e.message();
}

// Where a record came from, for its error entry.
struct Pointer {
  std::string key;
  int64_t index = 0;
};

class ImportRun {
 public:
  ImportRun(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn, v1::StoredJob& job,
            const KeepGoing& keep_going)
      : engine_(engine),
        store_(store),
        arn_(arn),
        job_(job),
        d_(*job.mutable_import()),
        keep_going_(keep_going) {}

  Status Run() {
    POGI_ASSIGN_OR_RETURN(table_, engine_.StartImportLoad(job_));
    // A run goes from the start into an empty table, so what an earlier run
    // (stopped by kill -9, or its lease lost) counted and logged is counted
    // again: start from nothing.
    d_.set_processed_size_bytes(0);
    d_.set_processed_item_count(0);
    d_.set_imported_item_count(0);
    d_.set_error_count(0);
    job_.clear_error_log();
    const auto& csv = d_.input_format_options().csv();
    if (csv.has_delimiter() && !csv.delimiter().empty()) csv_.delimiter = csv.delimiter()[0];
    csv_.header.assign(csv.header_list().begin(), csv.header_list().end());
    // Every defined attribute is a key of the table or of an index.
    for (const auto& a : table_->description.attribute_definitions()) {
      csv_.key_types[a.attribute_name()] = a.attribute_type();
    }
    const std::string& bucket = d_.s3_bucket_source().s3_bucket();
    POGI_RETURN_IF_ERROR(store_.CheckBucket(bucket));
    POGI_ASSIGN_OR_RETURN(InputObjects input,
                          ListInputObjects(store_, bucket, d_.s3_bucket_source().s3_key_prefix()));
    for (const auto& [key, why] : input.bad_manifest_lines) AddError({key, 0}, why);
    last_tick_ = std::chrono::steady_clock::now();
    for (const auto& object : input.objects) {
      POGI_RETURN_IF_ERROR(Tick(/*now=*/true));
      POGI_RETURN_IF_ERROR(ReadObject(bucket, object.key));
    }
    return Flush();
  }

  // Ends the table and sets the outcome of a run that ended with `s`; false
  // when the run only stopped (the import stays IN_PROGRESS).
  Result<bool> Finish(const Status& s) {
    double now = engine_.clock().Now();
    if (Is(s, Stopped())) return false;
    bool keep = s.ok();
    if (table_) POGI_RETURN_IF_ERROR(engine_.EndImportLoad(*table_, keep));
    d_.set_end_time(now);
    if (Is(s, Cancelled())) {
      d_.set_import_status("CANCELLED");
    } else if (!s.ok()) {
      outbound::StoreFailure f = outbound::FailureOf(s.error());
      if (!s.error().message().starts_with("S3")) f = {"UNKNOWN", s.error().message()};
      d_.set_import_status("FAILED");
      d_.set_failure_code(f.code);
      d_.set_failure_message(f.message);
    } else if (d_.error_count() > 0) {
      d_.set_import_status("FAILED");
      d_.set_failure_code(kItemValidationCode);
      d_.set_failure_message(kItemValidationMessage);
    } else {
      d_.set_import_status("COMPLETED");
    }
    if (d_.error_count() > kMaxErrorLog) {
      log::Warn("import: errors not logged", {{"import", arn_}, {"count", d_.error_count() - kMaxErrorLog}});
    }
    return true;
  }

 private:
  Status ReadObject(const std::string& bucket, const std::string& key) {
    POGI_ASSIGN_OR_RETURN(auto raw, store_.Open(bucket, key));
    auto records =
        MakeRecordReader(d_.input_format(), csv_, Decompressing(std::move(raw), d_.input_compression_type()));
    const int64_t bytes_before = d_.processed_size_bytes();
    for (int64_t index = 0;; ++index) {
      InputRecord rec;
      Result<bool> next = records->Next(&rec);
      d_.set_processed_size_bytes(bytes_before + records->bytes());
      if (!next.ok()) {
        if (!IsDataError(next.error())) return next.error();
        // The object's bytes stop making records: one error, the rest skipped.
        d_.set_processed_item_count(d_.processed_item_count() + 1);
        AddError({key, index}, next.error().message());
        return Status::Ok();
      }
      if (!*next) return Status::Ok();
      d_.set_processed_item_count(d_.processed_item_count() + 1);
      Take(std::move(rec), {key, index});
      if (batch_.size() >= kBatchItems || batch_bytes_ >= kBatchBytes) POGI_RETURN_IF_ERROR(Flush());
      POGI_RETURN_IF_ERROR(Tick(/*now=*/false));
    }
  }

  // Checks the record as PutItem checks an item, then batches it.
  void Take(InputRecord rec, Pointer at) {
    if (!rec.error.empty()) return AddError(at, rec.error);
    Status s = service::ValidateAttributes(&rec.item);
    if (!s.ok()) return AddError(at, s.error().message());
    auto key = service::ValidateItemForPut(*table_, rec.item);
    if (!key.ok()) return AddError(at, key.error().message());
    s = service::CheckIndexKeys(*table_, rec.item);
    if (!s.ok()) return AddError(at, s.error().message());
    batch_bytes_ += value::ItemSize(rec.item);
    batch_.push_back({std::move(*key), std::move(rec.item)});
    batch_at_.push_back(std::move(at));
  }

  // Errors of storage (or the table gone) end the import; an item the write
  // path refuses (ItemCollectionSizeLimitExceeded) is one more error.
  static bool Fatal(const Error& e) {
    return e.code() == ErrorCode::kInternalServerError || e.code() == ErrorCode::kServiceUnavailable ||
           e.code() == ErrorCode::kResourceNotFound;
  }

  Status Flush() {
    if (batch_.empty()) return Status::Ok();
    Status s = engine_.LoadImportedItems(*table_, batch_);
    int64_t loaded = static_cast<int64_t>(batch_.size());
    if (!s.ok()) {
      if (Fatal(s.error())) return s;
      // One item of the batch was refused: each alone, to find which.
      loaded = 0;
      for (size_t i = 0; i < batch_.size(); ++i) {
        Status one = engine_.LoadImportedItems(*table_, {batch_[i]});
        if (one.ok()) {
          ++loaded;
        } else if (Fatal(one.error())) {
          return one;
        } else {
          AddError(batch_at_[i], one.error().message());
        }
      }
    }
    d_.set_imported_item_count(d_.imported_item_count() + loaded);
    batch_.clear();
    batch_at_.clear();
    batch_bytes_ = 0;
    return Status::Ok();
  }

  // The error entry DynamoDB writes to CloudWatch Logs, kept with the import.
  void AddError(const Pointer& at, const std::string& message) {
    d_.set_error_count(d_.error_count() + 1);
    if (d_.error_count() > kMaxErrorLog) return;
    std::string entry = "{\"itemS3Pointer\":{\"bucket\":";
    gateway::AppendJsonString(d_.s3_bucket_source().s3_bucket(), &entry);
    entry += ",\"key\":";
    gateway::AppendJsonString(at.key, &entry);
    entry += ",\"itemIndex\":" + std::to_string(at.index) + "},\"importArn\":";
    gateway::AppendJsonString(arn_, &entry);
    entry += ",\"errorMessages\":[";
    gateway::AppendJsonString(message, &entry);
    entry += "]}";
    job_.add_error_log(entry);
    log::Warn("import: an item was not imported",
              {{"import", arn_}, {"key", at.key}, {"index", at.index}, {"error", message}});
  }

  // About every second (and, `now`, at once): whether to go on, with the
  // progress stored for DescribeImport and a cancel asked for meanwhile
  // taken in.
  Status Tick(bool now) {
    auto t = std::chrono::steady_clock::now();
    if (!now && t - last_tick_ < kTickEvery) return Status::Ok();
    last_tick_ = t;
    if (!keep_going_()) return Stopped();
    bool cancel = false;
    POGI_RETURN_IF_ERROR(engine_.UpdateJob(arn_, [&](v1::StoredJob& stored) -> Status {
      cancel = stored.cancel_requested();
      v1::StoredJob mine = job_;
      if (cancel) {
        mine.set_cancel_requested(true);
        mine.mutable_import()->set_import_status("CANCELLING");
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
  v1::ImportTableDescription& d_;
  const KeepGoing& keep_going_;
  std::shared_ptr<const service::Table> table_;
  CsvSettings csv_;
  std::vector<service::KeyedItem> batch_;
  std::vector<Pointer> batch_at_;
  int64_t batch_bytes_ = 0;
  std::chrono::steady_clock::time_point last_tick_;
};

}  // namespace

Status RunImport(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
                 v1::StoredJob job, const KeepGoing& keep_going) {
  ImportRun run(engine, store, arn, job, keep_going);
  Status s = run.Run();
  POGI_ASSIGN_OR_RETURN(bool ended, run.Finish(s));
  if (!ended) return Status::Ok();  // another run takes it up
  log::Info("import: " + job.import().import_status(), {{"import", arn},
                                                        {"items", job.import().imported_item_count()},
                                                        {"errors", job.import().error_count()},
                                                        {"failure", job.import().failure_code()}});
  return engine.UpdateJob(arn, [&](v1::StoredJob& stored) -> Status {
    stored = job;
    return Status::Ok();
  });
}

}  // namespace pogi::jobs
