// The Admin calls on exports, imports and bulk operations: every job at a
// glance (ListJobs), and the cancel of an import or a bulk operation
// (CancelJob; DynamoDB has no operation that cancels an import).
#include <algorithm>

#include "service/admin/admin_calls.h"
#include "service/engine/engine.h"

namespace pogi::service {
namespace {

std::string Location(const std::string& bucket, const std::string& prefix) {
  return "s3://" + bucket + "/" + prefix;
}

std::string TableOfArn(const std::string& arn) {
  size_t at = arn.find(":table/");
  if (at == std::string::npos) return "";
  std::string rest = arn.substr(at + 7);
  return rest.substr(0, rest.find('/'));
}

v1::JobSummary SummaryOf(const v1::StoredJob& job) {
  v1::JobSummary s;
  if (job.has_export_()) {
    const auto& d = job.export_();
    s.set_arn(d.export_arn());
    s.set_kind("export");
    s.set_status(d.export_status());
    s.set_table_name(TableOfArn(d.table_arn()));
    s.set_s3_location(Location(d.s3_bucket(), d.s3_prefix()));
    s.set_format(d.export_format());
    s.set_start_time(d.start_time());
    s.set_end_time(d.end_time());
    s.set_items_processed(d.item_count());
    s.set_items_written(d.item_count());
    s.set_bytes_processed(d.billed_size_bytes());
    s.set_failure_code(d.failure_code());
    s.set_failure_message(d.failure_message());
  } else if (job.has_import()) {
    const auto& d = job.import();
    s.set_arn(d.import_arn());
    s.set_kind("import");
    s.set_status(d.import_status());
    s.set_table_name(d.table_creation_parameters().table_name());
    s.set_s3_location(Location(d.s3_bucket_source().s3_bucket(), d.s3_bucket_source().s3_key_prefix()));
    s.set_format(d.input_format());
    s.set_start_time(d.start_time());
    s.set_end_time(d.end_time());
    s.set_items_processed(d.processed_item_count());
    s.set_items_written(d.imported_item_count());
    s.set_errors(d.error_count());
    s.set_bytes_processed(d.processed_size_bytes());
    s.set_failure_code(d.failure_code());
    s.set_failure_message(d.failure_message());
  } else if (job.has_bulk()) {
    const auto& d = job.bulk();
    s.set_arn(d.bulk_operation_arn());
    s.set_kind("bulk");
    s.set_status(d.bulk_operation_status());
    if (d.table_details_size() > 0) s.set_table_name(d.table_details(0).table_name());
    s.set_s3_location(
        Location(d.input_s3_configuration().s3_bucket(), d.input_s3_configuration().s3_key_prefix()));
    s.set_format(d.input_s3_configuration().input_format());
    s.set_start_time(d.start_time());
    s.set_end_time(d.end_time());
    s.set_items_processed(d.processed_item_count());
    s.set_items_written(d.processed_item_count() - d.failed_item_count());
    s.set_errors(d.failed_item_count());
    s.set_bytes_processed(d.processed_input_bytes());
    s.set_total_bytes(d.total_input_bytes());
    s.set_failure_code(d.failure_code());
    s.set_failure_message(d.failure_message());
  }
  *s.mutable_recent_errors() = job.error_log();
  return s;
}

}  // namespace

Result<v1::ListJobsResponse> AdminListJobs(Engine& engine, const v1::ListJobsRequest& req) {
  if (!req.kind().empty() && req.kind() != "export" && req.kind() != "import" && req.kind() != "bulk") {
    return Error::Validation("kind must be export, import or bulk, not " + req.kind());
  }
  v1::ListJobsResponse resp;
  for (const char* kind : {"export", "import", "bulk"}) {
    if (!req.kind().empty() && req.kind() != kind) continue;
    POGI_ASSIGN_OR_RETURN(auto jobs, engine.ListJobs(kind));
    for (const auto& job : jobs) *resp.add_jobs() = SummaryOf(job);
  }
  std::stable_sort(
      resp.mutable_jobs()->begin(), resp.mutable_jobs()->end(),
      [](const v1::JobSummary& a, const v1::JobSummary& b) { return a.start_time() < b.start_time(); });
  return resp;
}

Result<v1::CancelJobResponse> AdminCancelJob(Engine& engine, const v1::CancelJobRequest& req) {
  if (req.arn().empty()) return Error::Validation("arn is required");
  POGI_ASSIGN_OR_RETURN(auto job, engine.GetJob(req.arn()));
  if (!job) return Error::ResourceNotFound("No export, import or bulk operation has the ARN " + req.arn());
  POGI_ASSIGN_OR_RETURN(v1::StoredJob cancelled, engine.RequestJobCancel(req.arn()));
  v1::CancelJobResponse resp;
  *resp.mutable_job() = SummaryOf(cancelled);
  return resp;
}

}  // namespace pogi::service
