// ExportTableToPointInTime, DescribeExport, ListExports: an export is a job
// (engine_jobs.cc). The action checks the request as DynamoDB does, records
// the export IN_PROGRESS and answers; the job runner (jobs/) writes the
// files to the object store in the background and records COMPLETED or
// FAILED with DynamoDB's FailureCode and FailureMessage.
//
// Exports read the table's point-in-time history, so point-in-time recovery
// must be on (PointInTimeRecoveryUnavailableException otherwise, as
// DynamoDB answers). A full export is the table at ExportTime (default:
// now); an incremental one the changes in [ExportFromTime, ExportToTime).
#include <cmath>

#include "service/engine/engine.h"
#include "service/read/export_filter.h"
#include "service/validate/control_plane.h"
#include "service/validate/s3_requests.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

// A ClientToken's first export is kept 8 hours, as DynamoDB keeps it.
constexpr double kTokenSeconds = 8 * 3600;
// DynamoDB's bounds on an incremental export's span.
constexpr double kMinIncrementalSeconds = 15 * 60;
constexpr double kMaxIncrementalSeconds = 24 * 3600;

Error ExportNotFound(const std::string& arn) {
  return Error(ErrorCode::kExportNotFound, "Export not found: " + arn);
}

}  // namespace

Result<v1::ExportTableToPointInTimeResponse> Engine::ExportTableToPointInTime(
    const v1::ExportTableToPointInTimeRequest& req) {
  {
    Constraints c;
    c.Required(req.has_table_arn(), "tableArn");
    c.Length(req.has_table_arn() ? &req.table_arn() : nullptr, 1, 1024, "tableArn");
    c.Required(req.has_s3_bucket(), "s3Bucket");
    c.Length(req.has_s3_bucket() ? &req.s3_bucket() : nullptr, 0, 255, "s3Bucket");
    c.Length(req.has_s3_prefix() ? &req.s3_prefix() : nullptr, 0, 1024, "s3Prefix");
    c.Length(req.has_s3_sse_kms_key_id() ? &req.s3_sse_kms_key_id() : nullptr, 1, 2048, "s3SseKmsKeyId");
    c.OneOf(req.has_s3_sse_algorithm() ? &req.s3_sse_algorithm() : nullptr, {"AES256", "KMS"},
            "s3SseAlgorithm");
    c.OneOf(req.has_export_format() ? &req.export_format() : nullptr, {"DYNAMODB_JSON", "ION"},
            "exportFormat");
    c.OneOf(req.has_export_type() ? &req.export_type() : nullptr, {"FULL_EXPORT", "INCREMENTAL_EXPORT"},
            "exportType");
    const auto& inc = req.incremental_export_specification();
    c.OneOf(inc.has_export_view_type() ? &inc.export_view_type() : nullptr,
            {"NEW_IMAGE", "NEW_AND_OLD_IMAGES"}, "incrementalExportSpecification.exportViewType");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  std::optional<std::string> name = TableNameOfArn(req.table_arn());
  auto table = name ? catalog_.Find(*name) : nullptr;
  if (!table) return Error(ErrorCode::kTableNotFound, "Table not found: " + req.table_arn());
  const v1::PitrState& pitr = table->settings.pitr();
  if (!pitr.enabled()) {
    return Error(ErrorCode::kPointInTimeRecoveryUnavailable,
                 "Point in time recovery is not enabled for table '" + *name + "'");
  }
  // The FilterSpecification's expressions, by the rules of Query's and
  // Scan's (the job applies them: jobs/export_job.cc).
  if (req.has_filter_specification()) {
    auto filter = ExportFilter::Make(req.filter_specification(), *table);
    if (!filter.ok()) return std::move(filter).error();
  }
  double now = clock_->Now();
  double earliest = EarliestRestorable(pitr, now);
  bool incremental = req.export_type() == "INCREMENTAL_EXPORT";
  // pogi's wording below, where DynamoDB's is not known.
  if (incremental) {
    if (req.has_export_time()) {
      return Error::Validation("ExportTime cannot be specified for an INCREMENTAL_EXPORT");
    }
    const auto& inc = req.incremental_export_specification();
    if (!inc.has_export_from_time()) {
      return Error::Validation(
          "IncrementalExportSpecification.ExportFromTime is required for an INCREMENTAL_EXPORT");
    }
    double from = inc.export_from_time(), to = inc.has_export_to_time() ? inc.export_to_time() : now;
    if (from < std::floor(earliest) || to > now || from >= to) {
      return Error(ErrorCode::kInvalidExportTime,
                   "The incremental export period must lie within the point-in-time recovery window, "
                   "ExportFromTime before ExportToTime");
    }
    if (to - from < kMinIncrementalSeconds || to - from > kMaxIncrementalSeconds) {
      return Error(ErrorCode::kInvalidExportTime,
                   "The incremental export period must be at least 15 minutes and at most 24 hours");
    }
  } else {
    if (req.has_incremental_export_specification()) {
      return Error::Validation(
          "IncrementalExportSpecification can only be specified for an INCREMENTAL_EXPORT");
    }
    if (req.has_export_time() && (req.export_time() < std::floor(earliest) || req.export_time() > now)) {
      return Error(ErrorCode::kInvalidExportTime,
                   "ExportTime must be within the point-in-time recovery window of the table");
    }
  }
  std::string fingerprint = RequestFingerprint(req);
  std::string token_key = req.has_client_token() ? "export-token/" + req.client_token() : "";
  POGI_ASSIGN_OR_RETURN(auto earlier,
                        JobOfClientToken(token_key, fingerprint, now,
                                         Error(ErrorCode::kExportConflict,
                                               "There is already an export with the ClientToken " +
                                                   req.client_token() + " and different parameters")));
  if (earlier) {
    v1::ExportTableToPointInTimeResponse resp;
    *resp.mutable_export_description() = earlier->export_();
    return resp;
  }

  v1::StoredJob job;
  job.set_table_id(table->id);
  job.set_request_fingerprint(fingerprint);
  v1::ExportDescription& d = *job.mutable_export_();
  d.set_export_arn(table->description.table_arn() + "/export/" + NewJobId(now));
  d.set_export_status("IN_PROGRESS");
  d.set_start_time(now);
  d.set_table_arn(table->description.table_arn());
  d.set_table_id(table->description.table_id());
  if (req.has_client_token()) d.set_client_token(req.client_token());
  d.set_s3_bucket(req.s3_bucket());
  if (req.has_s3_bucket_owner()) d.set_s3_bucket_owner(req.s3_bucket_owner());
  if (req.has_s3_prefix()) d.set_s3_prefix(req.s3_prefix());
  d.set_s3_sse_algorithm(req.has_s3_sse_algorithm() ? req.s3_sse_algorithm() : "AES256");
  if (req.has_s3_sse_kms_key_id()) d.set_s3_sse_kms_key_id(req.s3_sse_kms_key_id());
  d.set_export_format(req.has_export_format() ? req.export_format() : "DYNAMODB_JSON");
  d.set_export_type(incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT");
  if (incremental) {
    auto* inc = d.mutable_incremental_export_specification();
    *inc = req.incremental_export_specification();
    if (!inc->has_export_to_time()) inc->set_export_to_time(now);
    if (!inc->has_export_view_type()) inc->set_export_view_type("NEW_AND_OLD_IMAGES");
  } else {
    d.set_export_time(req.has_export_time() ? req.export_time() : now);
  }
  if (req.has_filter_specification()) *d.mutable_filter_specification() = req.filter_specification();

  POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
    if (!token_key.empty()) {
      POGI_RETURN_IF_ERROR(txn.PutSharedValue(token_key, d.export_arn(), ToMicros(now + kTokenSeconds)));
    }
    return txn.PutJob({d.export_arn(), "export", ToMicros(now), job.SerializeAsString()});
  }));
  if (job_started_) job_started_();
  v1::ExportTableToPointInTimeResponse resp;
  *resp.mutable_export_description() = d;
  return resp;
}

Result<v1::DescribeExportResponse> Engine::DescribeExport(const v1::DescribeExportRequest& req) {
  {
    Constraints c;
    c.Required(req.has_export_arn(), "exportArn");
    c.Length(req.has_export_arn() ? &req.export_arn() : nullptr, 37, 1024, "exportArn");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto job, GetJob(req.export_arn()));
  if (!job || !job->has_export_()) return ExportNotFound(req.export_arn());
  v1::DescribeExportResponse resp;
  *resp.mutable_export_description() = job->export_();
  return resp;
}

Result<v1::ListExportsResponse> Engine::ListExports(const v1::ListExportsRequest& req) {
  {
    Constraints c;
    c.Length(req.has_table_arn() ? &req.table_arn() : nullptr, 1, 1024, "tableArn");
    if (req.has_max_results() && (req.max_results() < 1 || req.max_results() > 25)) {
      c.Add("Value '" + std::to_string(req.max_results()) +
            "' at 'maxResults' failed to satisfy constraint: Member must have value " +
            (req.max_results() < 1 ? "greater than or equal to 1" : "less than or equal to 25"));
    }
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto jobs, ListJobs("export"));
  int limit = req.has_max_results() ? req.max_results() : 25;
  bool started = !req.has_next_token();
  v1::ListExportsResponse resp;
  for (const auto& job : jobs) {
    const v1::ExportDescription& d = job.export_();
    if (!started) {
      started = d.export_arn() == req.next_token();
      continue;
    }
    if (req.has_table_arn() && d.table_arn() != req.table_arn()) continue;
    if (resp.export_summaries_size() == limit) {
      resp.set_next_token(resp.export_summaries(limit - 1).export_arn());
      break;
    }
    auto* s = resp.add_export_summaries();
    s->set_export_arn(d.export_arn());
    s->set_export_status(d.export_status());
    s->set_export_type(d.export_type());
  }
  if (!started) return Error::Validation("Invalid NextToken: " + req.next_token());
  return resp;
}

}  // namespace pogi::service
