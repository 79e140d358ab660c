// StartBulkPutItems, DescribeBulkOperation, ListBulkOperations,
// CancelBulkOperation: a bulk put is a job (engine_jobs.cc) that writes
// items from S3 into an existing table. The action checks the request as
// DynamoDB does (the table must exist and take writes), records the
// operation IN_PROGRESS and answers; the job runner (jobs/bulk_put_job)
// reads the objects and puts each item through PutItem (the one write
// path: conditions, indexes, streams, point-in-time history, counters) in
// the background, writes the report to OutputS3Configuration, then records
// COMPLETED, COMPLETED_WITH_ERRORS, FAILED or CANCELLED.
#include <algorithm>

#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/validate/s3_requests.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

// A ClientToken's first operation answers again for 8 hours (DynamoDB's
// StartBulkPutItems documentation).
constexpr double kTokenSeconds = 8 * 3600;
// DynamoDB's floor on MaxWriteRequestUnits, and its default and largest
// ListBulkOperations page.
constexpr int64_t kMinWriteRequestUnits = 1024;
constexpr int kDefaultPage = 10;
constexpr int kMaxPage = 25;

// pogi's wording: DynamoDB's is not on record.
Error BulkNotFound(const std::string& arn) {
  return Error::ResourceNotFound("Bulk operation not found: " + arn);
}

void CheckArn(Constraints& c, const v1::DescribeBulkOperationRequest& req) {
  c.Required(req.has_bulk_operation_arn(), "bulkOperationArn");
  c.Length(req.has_bulk_operation_arn() ? &req.bulk_operation_arn() : nullptr, 1, 1024, "bulkOperationArn");
}

// The member constraints, in the order of DynamoDB's model, reported
// together.
Status CheckMembers(const v1::StartBulkPutItemsRequest& req) {
  Constraints c;
  CheckClientToken(c, req.has_client_token() ? &req.client_token() : nullptr, "clientToken");
  c.Required(req.has_input_s3_configuration(), "inputS3Configuration");
  if (req.has_input_s3_configuration()) {
    const auto& in = req.input_s3_configuration();
    CheckS3BucketOwner(c, in.has_s3_bucket_owner() ? &in.s3_bucket_owner() : nullptr,
                       "inputS3Configuration.s3BucketOwner");
    c.Required(in.has_s3_bucket(), "inputS3Configuration.s3Bucket");
    CheckS3Bucket(c, in.has_s3_bucket() ? &in.s3_bucket() : nullptr, "inputS3Configuration.s3Bucket");
    c.Length(in.has_s3_key_prefix() ? &in.s3_key_prefix() : nullptr, 0, 1024,
             "inputS3Configuration.s3KeyPrefix");
    c.Required(in.has_input_format(), "inputS3Configuration.inputFormat");
    c.OneOf(in.has_input_format() ? &in.input_format() : nullptr, {"DYNAMODB_JSON", "ION"},
            "inputS3Configuration.inputFormat");
    c.OneOf(in.has_input_compression_type() ? &in.input_compression_type() : nullptr,
            {"GZIP", "ZSTD", "NONE"}, "inputS3Configuration.inputCompressionType");
  }
  c.Required(req.has_output_s3_configuration(), "outputS3Configuration");
  if (req.has_output_s3_configuration()) {
    const auto& out = req.output_s3_configuration();
    CheckS3BucketOwner(c, out.has_s3_bucket_owner() ? &out.s3_bucket_owner() : nullptr,
                       "outputS3Configuration.s3BucketOwner");
    // Optional in the model, but the documentation requires it: a report
    // needs a bucket.
    c.Required(out.has_s3_bucket(), "outputS3Configuration.s3Bucket");
    CheckS3Bucket(c, out.has_s3_bucket() ? &out.s3_bucket() : nullptr, "outputS3Configuration.s3Bucket");
    c.Length(out.has_s3_key_prefix() ? &out.s3_key_prefix() : nullptr, 0, 1024,
             "outputS3Configuration.s3KeyPrefix");
    c.OneOf(out.has_s3_sse_algorithm() ? &out.s3_sse_algorithm() : nullptr, {"AES256", "KMS"},
            "outputS3Configuration.s3SseAlgorithm");
    c.Length(out.has_s3_sse_kms_key_id() ? &out.s3_sse_kms_key_id() : nullptr, 1, 2048,
             "outputS3Configuration.s3SseKmsKeyId");
    c.Required(out.output_type_size() > 0, "outputS3Configuration.outputType");
    for (const std::string& type : out.output_type()) {
      c.OneOf(&type, {"ERROR", "CONDITION_CHECK_FAILURE"}, "outputS3Configuration.outputType");
    }
  }
  c.Required(req.has_table_name(), "tableName");
  c.Length(req.has_table_name() ? &req.table_name() : nullptr, 1, 1024, "tableName");
  c.AtLeast(req.has_max_write_request_units() ? std::optional<int64_t>(req.max_write_request_units())
                                              : std::nullopt,
            kMinWriteRequestUnits, "maxWriteRequestUnits");
  c.OneOf(req.has_performance_tier() ? &req.performance_tier() : nullptr, {"STANDARD", "ACCELERATED"},
          "performanceTier");
  return c.Finish();
}

// Whether the table takes a bulk put now, as DynamoDB's "Table state
// requirements" say: not while an index is being created (pogi's wording;
// pogi has no global tables, the other state DynamoDB refuses).
Status CheckTableState(const Table& table) {
  const v1::TableDescription& d = table.description;
  for (const auto& g : d.global_secondary_indexes()) {
    if (g.index_status() == "CREATING") {
      return Error::ResourceInUse("Table " + d.table_name() + " is creating the index " + g.index_name() +
                                  "; a bulk put cannot start until it is ACTIVE");
    }
  }
  return Status::Ok();
}

v1::BulkOperationSummary SummaryOf(const v1::BulkOperationDescription& d) {
  v1::BulkOperationSummary s;
  s.set_bulk_operation_arn(d.bulk_operation_arn());
  s.set_bulk_operation_status(d.bulk_operation_status());
  s.set_start_time(d.start_time());
  if (d.has_end_time()) s.set_end_time(d.end_time());
  return s;
}

}  // namespace

Result<v1::StartBulkPutItemsResponse> Engine::StartBulkPutItems(const v1::StartBulkPutItemsRequest& req) {
  POGI_RETURN_IF_ERROR(CheckMembers(req));
  const double now = clock_->Now();
  const std::string fingerprint = RequestFingerprint(req);
  const std::string token_key = req.has_client_token() ? "bulk-token/" + req.client_token() : "";
  // pogi's wording for a mismatch: DynamoDB's is not on record.
  POGI_ASSIGN_OR_RETURN(auto earlier,
                        JobOfClientToken(token_key, fingerprint, now,
                                         Error(ErrorCode::kIdempotentParameterMismatch,
                                               "There is already a bulk operation with the ClientToken " +
                                                   req.client_token() + " and different parameters")));
  if (earlier) {
    v1::StartBulkPutItemsResponse resp;
    *resp.mutable_bulk_operation_description() = earlier->bulk();
    return resp;
  }
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_RETURN_IF_ERROR(CheckTableState(*table));

  v1::StoredJob job;
  job.set_request_fingerprint(fingerprint);
  job.set_table_id(table->id);
  v1::BulkOperationDescription& d = *job.mutable_bulk();
  d.set_bulk_operation_arn(table->description.table_arn() + "/bulk-operation/" + NewJobId(now));
  d.set_bulk_operation_status("IN_PROGRESS");
  auto* detail = d.add_table_details();
  detail->set_table_name(table->description.table_name());
  detail->set_table_id(table->description.table_id());
  if (req.has_client_token()) d.set_client_token(req.client_token());
  *d.mutable_input_s3_configuration() = req.input_s3_configuration();
  if (!d.input_s3_configuration().has_input_compression_type()) {
    d.mutable_input_s3_configuration()->set_input_compression_type("NONE");
  }
  *d.mutable_output_s3_configuration() = req.output_s3_configuration();
  d.set_start_time(now);
  d.set_processed_item_count(0);
  d.set_processed_input_bytes(0);
  d.set_failed_item_count(0);
  if (req.has_max_write_request_units()) d.set_max_write_request_units(req.max_write_request_units());
  d.set_performance_tier(req.has_performance_tier() ? req.performance_tier() : "STANDARD");

  POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
    if (!token_key.empty()) {
      POGI_RETURN_IF_ERROR(
          txn.PutSharedValue(token_key, d.bulk_operation_arn(), ToMicros(now + kTokenSeconds)));
    }
    return txn.PutJob({d.bulk_operation_arn(), "bulk", ToMicros(now), job.SerializeAsString()});
  }));
  if (job_started_) job_started_();
  v1::StartBulkPutItemsResponse resp;
  *resp.mutable_bulk_operation_description() = d;
  return resp;
}

Result<v1::DescribeBulkOperationResponse> Engine::DescribeBulkOperation(
    const v1::DescribeBulkOperationRequest& req) {
  {
    Constraints c;
    CheckArn(c, req);
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto job, GetJob(req.bulk_operation_arn()));
  if (!job || !job->has_bulk()) return BulkNotFound(req.bulk_operation_arn());
  v1::DescribeBulkOperationResponse resp;
  *resp.mutable_bulk_operation_description() = job->bulk();
  return resp;
}

Result<v1::ListBulkOperationsResponse> Engine::ListBulkOperations(const v1::ListBulkOperationsRequest& req) {
  std::optional<std::string> after;
  {
    Constraints c;
    std::optional<int64_t> size =
        req.has_max_results() ? std::optional<int64_t>(req.max_results()) : std::nullopt;
    c.AtLeast(size, 1, "maxResults");
    c.AtMost(size, kMaxPage, "maxResults");
    if (req.has_next_token()) {
      c.Length(&req.next_token(), 1, 1024, "nextToken");
      after = ArnOfListToken(req.next_token());
      if (!req.next_token().empty() && req.next_token().size() <= 1024) {
        c.Pattern(&req.next_token(), after.has_value(), "([0-9a-f]{16})+", "nextToken");
      }
    }
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto jobs, ListJobs("bulk"));
  // The most recent first, as DynamoDB lists them.
  std::reverse(jobs.begin(), jobs.end());
  const int limit = req.has_max_results() ? req.max_results() : kDefaultPage;
  bool started = !after;
  v1::ListBulkOperationsResponse resp;
  for (const auto& job : jobs) {
    const v1::BulkOperationDescription& d = job.bulk();
    if (!started) {
      started = d.bulk_operation_arn() == *after;
      continue;
    }
    // The operations of the request's region (its account's and Region's).
    if (StrictRegions() && RegionOfArn(d.bulk_operation_arn()) != RequestRegion()) continue;
    if (resp.bulk_operations_summary_list_size() == limit) {
      resp.set_next_token(ListTokenOf(resp.bulk_operations_summary_list(limit - 1).bulk_operation_arn()));
      break;
    }
    *resp.add_bulk_operations_summary_list() = SummaryOf(d);
  }
  // pogi's wording: DynamoDB's is not on record.
  if (!started) return Error::Validation("Invalid NextToken: " + req.next_token());
  return resp;
}

Result<v1::CancelBulkOperationResponse> Engine::CancelBulkOperation(
    const v1::CancelBulkOperationRequest& req) {
  {
    Constraints c;
    c.Required(req.has_bulk_operation_arn(), "bulkOperationArn");
    c.Length(req.has_bulk_operation_arn() ? &req.bulk_operation_arn() : nullptr, 1, 1024, "bulkOperationArn");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto job, GetJob(req.bulk_operation_arn()));
  if (!job || !job->has_bulk()) return BulkNotFound(req.bulk_operation_arn());
  const std::string& status = job->bulk().bulk_operation_status();
  if (status != "IN_PROGRESS" && status != "CANCELLING") {
    // pogi's wording: DynamoDB's is not on record.
    return Error::Validation("Bulk operation " + req.bulk_operation_arn() + " is " + status +
                             " and cannot be cancelled");
  }
  POGI_ASSIGN_OR_RETURN(v1::StoredJob cancelled, RequestJobCancel(req.bulk_operation_arn()));
  v1::CancelBulkOperationResponse resp;
  resp.set_bulk_operation_arn(cancelled.bulk().bulk_operation_arn());
  resp.set_bulk_operation_status(cancelled.bulk().bulk_operation_status());
  return resp;
}

}  // namespace pogi::service
