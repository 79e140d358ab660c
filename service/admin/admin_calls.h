// The calls of pogi.v1.Admin that answer at once (tables, reset, snapshots,
// clock, fault rules, metrics) as plain engine-level functions on the Admin
// protos: the gRPC Admin service and the console's JSON API both call these,
// so there is one implementation behind two encodings. A refused argument is
// Error::Validation with the reason; the engine's own errors pass through.
#pragma once

#include <google/protobuf/message.h>

#include <memory>
#include <string_view>

#include "common/result.h"
#include "pogi/v1/admin.pb.h"

namespace pogi::service {

class Engine;

Result<v1::ListTablesSummaryResponse> AdminTables(Engine& engine, const v1::ListTablesSummaryRequest& req);
Result<v1::AdminDescribeTableResponse> AdminDescribeTable(Engine& engine,
                                                          const v1::AdminDescribeTableRequest& req);
Result<v1::ResetResponse> AdminReset(Engine& engine, const v1::ResetRequest& req);
Result<v1::CreateSnapshotResponse> AdminCreateSnapshot(Engine& engine, const v1::CreateSnapshotRequest& req);
Result<v1::ListSnapshotsResponse> AdminListSnapshots(Engine& engine, const v1::ListSnapshotsRequest& req);
Result<v1::RestoreSnapshotResponse> AdminRestoreSnapshot(Engine& engine,
                                                         const v1::RestoreSnapshotRequest& req);
Result<v1::DeleteSnapshotResponse> AdminDeleteSnapshot(Engine& engine, const v1::DeleteSnapshotRequest& req);
Result<v1::AddFaultResponse> AdminAddFault(Engine& engine, const v1::AddFaultRequest& req);
Result<v1::ListFaultsResponse> AdminListFaults(Engine& engine, const v1::ListFaultsRequest& req);
Result<v1::ClearFaultsResponse> AdminClearFaults(Engine& engine, const v1::ClearFaultsRequest& req);
// The clock calls answer the clock's state after the change. REQUIRES:
// engine.controllable_clock() is set (else a Validation error says so).
// Setting or advancing runs the maintenance that became due (TTL deletions)
// before answering, so a caller sees its effect at once.
Result<v1::ClockState> AdminGetClock(Engine& engine, const v1::GetClockRequest& req);
Result<v1::ClockState> AdminSetClock(Engine& engine, const v1::SetClockRequest& req);
Result<v1::ClockState> AdminAdvanceClock(Engine& engine, const v1::AdvanceClockRequest& req);
Result<v1::ClockState> AdminFreezeClock(Engine& engine, const v1::FreezeClockRequest& req);
Result<v1::ClockState> AdminResumeClock(Engine& engine, const v1::ResumeClockRequest& req);
Result<v1::GetMetricsResponse> AdminGetMetrics(Engine& engine, const v1::GetMetricsRequest& req);
// Exports, imports and bulk operations (admin_jobs.cc), oldest first, and
// the cancel of an import or bulk operation in progress.
Result<v1::ListJobsResponse> AdminListJobs(Engine& engine, const v1::ListJobsRequest& req);
Result<v1::CancelJobResponse> AdminCancelJob(Engine& engine, const v1::CancelJobRequest& req);

// The calls above by their rpc name ("Tables", "AdvanceClock"), type-erased
// like the operation table, for doors that dispatch by name.
struct AdminCall {
  std::string_view name;
  const google::protobuf::Message* request_prototype;
  Result<std::unique_ptr<google::protobuf::Message>> (*invoke)(Engine& engine,
                                                               const google::protobuf::Message& request);
};

// The admin call named `name`, or null.
const AdminCall* FindAdminCall(std::string_view name);

}  // namespace pogi::service
