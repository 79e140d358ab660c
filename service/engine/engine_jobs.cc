// Exports', imports' and bulk operations' records in storage: one row per
// job (storage's jobs table), its state a pogi.v1.StoredJob.
#include "service/engine/engine.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

Result<v1::StoredJob> ParseJob(const storage::JobRecord& r) {
  v1::StoredJob job;
  if (!job.ParseFromString(r.state)) return Error::Internal("job " + r.arn + " is corrupt");
  return job;
}

}  // namespace

Result<std::vector<v1::StoredJob>> Engine::ListJobs(std::string_view kind) {
  std::vector<v1::StoredJob> out;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    out.clear();
    POGI_ASSIGN_OR_RETURN(auto rows, txn.ListJobs(kind));
    for (const auto& r : rows) {
      POGI_ASSIGN_OR_RETURN(v1::StoredJob job, ParseJob(r));
      out.push_back(std::move(job));
    }
    return Status::Ok();
  }));
  return out;
}

Result<std::optional<v1::StoredJob>> Engine::GetJob(const std::string& arn) {
  std::optional<v1::StoredJob> out;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto row, txn.GetJob(arn));
    if (!row) return Status::Ok();
    POGI_ASSIGN_OR_RETURN(v1::StoredJob job, ParseJob(*row));
    out = std::move(job);
    return Status::Ok();
  }));
  return out;
}

Result<std::optional<v1::StoredJob>> Engine::JobOfClientToken(const std::string& token_key,
                                                              const std::string& fingerprint, double now,
                                                              const Error& mismatch) {
  if (token_key.empty()) return std::optional<v1::StoredJob>();
  std::optional<std::string> arn;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(arn, txn.GetSharedValue(token_key, ToMicros(now)));
    return Status::Ok();
  }));
  if (!arn) return std::optional<v1::StoredJob>();
  POGI_ASSIGN_OR_RETURN(auto job, GetJob(*arn));
  if (!job || job->request_fingerprint() != fingerprint) return mismatch;
  return job;
}

Status Engine::SaveJob(const std::string& arn, std::string_view kind, double created,
                       const v1::StoredJob& job) {
  storage::JobRecord record{arn, std::string(kind), ToMicros(created), job.SerializeAsString()};
  return storage_->Write([&](storage::WriteTxn& txn) { return txn.PutJob(record); });
}

Status Engine::UpdateJob(const std::string& arn, const std::function<Status(v1::StoredJob&)>& change) {
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto row, txn.GetJob(arn));
    if (!row) return Error::ResourceNotFound("Job not found: " + arn);
    POGI_ASSIGN_OR_RETURN(v1::StoredJob job, ParseJob(*row));
    POGI_RETURN_IF_ERROR(change(job));
    row->state = job.SerializeAsString();
    return txn.PutJob(*row);
  });
}

Result<v1::StoredJob> Engine::RequestJobCancel(const std::string& arn) {
  v1::StoredJob out;
  POGI_RETURN_IF_ERROR(UpdateJob(arn, [&](v1::StoredJob& job) -> Status {
    std::string* status = nullptr;
    if (job.has_import()) status = job.mutable_import()->mutable_import_status();
    if (job.has_bulk()) status = job.mutable_bulk()->mutable_bulk_operation_status();
    if (!status) return Error::Validation("an export cannot be cancelled");
    if (*status != "IN_PROGRESS" && *status != "CANCELLING") {
      return Error::Validation("the job is " + *status + ", not in progress");
    }
    job.set_cancel_requested(true);
    *status = "CANCELLING";
    out = job;
    return Status::Ok();
  }));
  if (job_started_) job_started_();  // the runner looks again at once
  return out;
}

}  // namespace pogi::service
