// ImportTable, DescribeImport, ListImports: an import is a job
// (engine_jobs.cc) and a new table (engine_imports.cc). The action checks
// the request as DynamoDB does, creates the table (CREATING until the
// import ends), records the import IN_PROGRESS and answers; the job runner
// (jobs/import_job) reads the objects and loads the items in the
// background, then records COMPLETED, or FAILED with DynamoDB's
// FailureCode and FailureMessage (the table kept with what passed when
// items failed validation, dropped when S3 failed), or CANCELLED.
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/validate/s3_requests.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

// A ClientToken's first import answers again for 8 hours (DynamoDB's
// ImportTable documentation).
constexpr double kTokenSeconds = 8 * 3600;

Error ImportNotFound(const std::string& arn) {
  return Error(ErrorCode::kImportNotFound, "Import not found: " + arn);
}

// The CreateTable request that TableCreationParameters stand for.
v1::CreateTableRequest CreateRequestOf(const v1::TableCreationParameters& p) {
  v1::CreateTableRequest r;
  if (p.has_table_name()) r.set_table_name(p.table_name());
  *r.mutable_attribute_definitions() = p.attribute_definitions();
  *r.mutable_key_schema() = p.key_schema();
  if (p.has_billing_mode()) r.set_billing_mode(p.billing_mode());
  if (p.has_provisioned_throughput()) *r.mutable_provisioned_throughput() = p.provisioned_throughput();
  if (p.has_on_demand_throughput()) *r.mutable_on_demand_throughput() = p.on_demand_throughput();
  if (p.has_sse_specification()) *r.mutable_sse_specification() = p.sse_specification();
  *r.mutable_global_secondary_indexes() = p.global_secondary_indexes();
  return r;
}

// The member constraints, in the order of DynamoDB's model, reported
// together.
Status CheckMembers(const v1::ImportTableRequest& req) {
  Constraints c;
  CheckClientToken(c, req.has_client_token() ? &req.client_token() : nullptr, "clientToken");
  c.Required(req.has_s3_bucket_source(), "s3BucketSource");
  CheckS3BucketSource(c, req.has_s3_bucket_source() ? &req.s3_bucket_source() : nullptr, "s3BucketSource");
  c.Required(req.has_input_format(), "inputFormat");
  c.OneOf(req.has_input_format() ? &req.input_format() : nullptr, {"DYNAMODB_JSON", "ION", "CSV"},
          "inputFormat");
  if (req.input_format_options().has_csv()) {
    CheckCsvOptions(c, req.input_format_options().csv(), "inputFormatOptions.csv");
  }
  c.OneOf(req.has_input_compression_type() ? &req.input_compression_type() : nullptr,
          {"GZIP", "ZSTD", "NONE"}, "inputCompressionType");
  c.Required(req.has_table_creation_parameters(), "tableCreationParameters");
  if (req.has_table_creation_parameters()) {
    c.set_prefix("tableCreationParameters.");
    CheckCreateTableMembers(c, CreateRequestOf(req.table_creation_parameters()));
    c.set_prefix("");
  }
  return c.Finish();
}

v1::ImportSummary SummaryOf(const v1::ImportTableDescription& d) {
  v1::ImportSummary s;
  s.set_import_arn(d.import_arn());
  s.set_import_status(d.import_status());
  s.set_table_arn(d.table_arn());
  *s.mutable_s3_bucket_source() = d.s3_bucket_source();
  s.set_cloud_watch_log_group_arn(d.cloud_watch_log_group_arn());
  s.set_input_format(d.input_format());
  s.set_start_time(d.start_time());
  if (d.has_end_time()) s.set_end_time(d.end_time());
  return s;
}

}  // namespace

Result<v1::ImportTableResponse> Engine::ImportTable(const v1::ImportTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckMembers(req));
  const double now = clock_->Now();
  const std::string fingerprint = RequestFingerprint(req);
  const std::string token_key = req.has_client_token() ? "import-token/" + req.client_token() : "";
  // pogi's wording for a mismatch: DynamoDB's is not on record.
  POGI_ASSIGN_OR_RETURN(auto earlier,
                        JobOfClientToken(token_key, fingerprint, now,
                                         Error(ErrorCode::kImportConflict,
                                               "There is already an import with the ClientToken " +
                                                   req.client_token() + " and different parameters")));
  if (earlier) {
    v1::ImportTableResponse resp;
    *resp.mutable_import_table_description() = earlier->import();
    return resp;
  }
  const v1::CreateTableRequest create = CreateRequestOf(req.table_creation_parameters());
  POGI_ASSIGN_OR_RETURN(v1::TableDescription d, NewTableDescriptionOfChecked(create, now));
  // CREATING until the import ends it (engine_imports.cc): no clock time
  // ends this transition.
  BeginTransition(d, kTableCreating, "", kNoTransition);
  ApplyTransitionStatuses(d);

  v1::StoredJob job;
  job.set_request_fingerprint(fingerprint);
  v1::ImportTableDescription& imp = *job.mutable_import();
  imp.set_import_arn(d.table_arn() + "/import/" + NewJobId(now));
  imp.set_import_status("IN_PROGRESS");
  imp.set_table_arn(d.table_arn());
  imp.set_table_id(d.table_id());
  if (req.has_client_token()) imp.set_client_token(req.client_token());
  *imp.mutable_s3_bucket_source() = req.s3_bucket_source();
  imp.set_error_count(0);
  // Where DynamoDB logs the import's errors; pogi keeps them with the
  // import instead (docs/operations.md, "Imports from S3").
  imp.set_cloud_watch_log_group_arn("arn:aws:logs:" + std::string(RegionOfArn(d.table_arn())) + ":" +
                                    AccountId() + ":log-group:/aws-dynamodb/imports:*");
  imp.set_input_format(req.input_format());
  if (req.has_input_format_options()) *imp.mutable_input_format_options() = req.input_format_options();
  imp.set_input_compression_type(req.has_input_compression_type() ? req.input_compression_type() : "NONE");
  *imp.mutable_table_creation_parameters() = req.table_creation_parameters();
  imp.set_start_time(now);
  imp.set_processed_size_bytes(0);
  imp.set_processed_item_count(0);
  imp.set_imported_item_count(0);

  const std::string& name = d.table_name();
  std::shared_ptr<const Table> table;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    if (catalog_.Find(name)) {
      return Error::ResourceInUse("Table already exists: " + name);
    }
    POGI_ASSIGN_OR_RETURN(table, CreateTableInTxn(txn, d, v1::TableSettings()));
    job.set_table_id(table->id);
    if (!token_key.empty()) {
      POGI_RETURN_IF_ERROR(txn.PutSharedValue(token_key, imp.import_arn(), ToMicros(now + kTokenSeconds)));
    }
    return txn.PutJob({imp.import_arn(), "import", ToMicros(now), job.SerializeAsString()});
  });
  if (!s.ok() && table) catalog_.Remove(name, table->region);
  POGI_RETURN_IF_ERROR(s);
  if (job_started_) job_started_();
  v1::ImportTableResponse resp;
  *resp.mutable_import_table_description() = imp;
  return resp;
}

Result<v1::DescribeImportResponse> Engine::DescribeImport(const v1::DescribeImportRequest& req) {
  {
    Constraints c;
    c.Required(req.has_import_arn(), "importArn");
    c.Length(req.has_import_arn() ? &req.import_arn() : nullptr, 37, 1024, "importArn");
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto job, GetJob(req.import_arn()));
  if (!job || !job->has_import()) return ImportNotFound(req.import_arn());
  v1::DescribeImportResponse resp;
  *resp.mutable_import_table_description() = job->import();
  return resp;
}

Result<v1::ListImportsResponse> Engine::ListImports(const v1::ListImportsRequest& req) {
  std::optional<std::string> after;
  {
    Constraints c;
    c.Length(req.has_table_arn() ? &req.table_arn() : nullptr, 1, 1024, "tableArn");
    std::optional<int64_t> size =
        req.has_page_size() ? std::optional<int64_t>(req.page_size()) : std::nullopt;
    c.AtLeast(size, 1, "pageSize");
    c.AtMost(size, 25, "pageSize");
    if (req.has_next_token()) {
      c.Length(&req.next_token(), 112, 1024, "nextToken");
      after = ArnOfListToken(req.next_token());
      if (req.next_token().size() >= 112 && req.next_token().size() <= 1024) {
        c.Pattern(&req.next_token(), after.has_value(), "([0-9a-f]{16})+", "nextToken");
      }
    }
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  POGI_ASSIGN_OR_RETURN(auto jobs, ListJobs("import"));
  const int limit = req.has_page_size() ? req.page_size() : 25;
  bool started = !after;
  v1::ListImportsResponse resp;
  for (const auto& job : jobs) {
    const v1::ImportTableDescription& d = job.import();
    if (!started) {
      started = d.import_arn() == *after;
      continue;
    }
    if (req.has_table_arn() && d.table_arn() != req.table_arn()) continue;
    if (resp.import_summary_list_size() == limit) {
      resp.set_next_token(ListTokenOf(resp.import_summary_list(limit - 1).import_arn()));
      break;
    }
    *resp.add_import_summary_list() = SummaryOf(d);
  }
  // pogi's wording: DynamoDB's is not on record.
  if (!started) return Error::Validation("Invalid NextToken: " + req.next_token());
  return resp;
}

}  // namespace pogi::service
