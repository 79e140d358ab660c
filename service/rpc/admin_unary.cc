// The unary Admin calls (tables, reset, snapshots, fault rules, metrics,
// clock): gRPC adapters over service/admin/admin_calls.h, which the console's JSON
// API calls too.
#include "service/admin/admin_calls.h"
#include "service/rpc/admin_service.h"
#include "service/rpc/grpc_server.h"

namespace pogi::rpc {

grpc::ServerUnaryReactor* Done(grpc::CallbackServerContext* ctx, const pogi::Status& status) {
  auto* reactor = ctx->DefaultReactor();
  if (status.ok()) {
    reactor->Finish(grpc::Status::OK);
  } else {
    GrpcError g = ToGrpcError(status.error());
    reactor->Finish(grpc::Status(static_cast<grpc::StatusCode>(g.code), g.message, g.details));
  }
  return reactor;
}

grpc::ServerUnaryReactor* Done(grpc::CallbackServerContext* ctx, grpc::StatusCode code,
                               const std::string& message) {
  auto* reactor = ctx->DefaultReactor();
  reactor->Finish(grpc::Status(code, message));
  return reactor;
}

namespace {

// Answers an admin call's result. A refused argument (Validation) is
// INVALID_ARGUMENT with the reason alone, as an operator reads it; other
// errors carry DynamoDB's type like the DynamoDB service's.
template <typename T>
grpc::ServerUnaryReactor* Reply(grpc::CallbackServerContext* ctx, Result<T> result, T* resp) {
  if (result.ok()) {
    *resp = std::move(*result);
    return Done(ctx, pogi::Status::Ok());
  }
  if (result.error().code() == ErrorCode::kValidation) {
    return Done(ctx, grpc::StatusCode::INVALID_ARGUMENT, result.error().message());
  }
  return Done(ctx, result.error());
}

}  // namespace

grpc::ServerUnaryReactor* AdminRpcs::Tables(grpc::CallbackServerContext* ctx,
                                            const v1::ListTablesSummaryRequest* req,
                                            v1::ListTablesSummaryResponse* resp) {
  return Reply(ctx, service::AdminTables(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::DescribeTable(grpc::CallbackServerContext* ctx,
                                                   const v1::AdminDescribeTableRequest* req,
                                                   v1::AdminDescribeTableResponse* resp) {
  return Reply(ctx, service::AdminDescribeTable(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::Reset(grpc::CallbackServerContext* ctx, const v1::ResetRequest* req,
                                           v1::ResetResponse* resp) {
  return Reply(ctx, service::AdminReset(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::CreateSnapshot(grpc::CallbackServerContext* ctx,
                                                    const v1::CreateSnapshotRequest* req,
                                                    v1::CreateSnapshotResponse* resp) {
  return Reply(ctx, service::AdminCreateSnapshot(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::ListSnapshots(grpc::CallbackServerContext* ctx,
                                                   const v1::ListSnapshotsRequest* req,
                                                   v1::ListSnapshotsResponse* resp) {
  return Reply(ctx, service::AdminListSnapshots(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::RestoreSnapshot(grpc::CallbackServerContext* ctx,
                                                     const v1::RestoreSnapshotRequest* req,
                                                     v1::RestoreSnapshotResponse* resp) {
  return Reply(ctx, service::AdminRestoreSnapshot(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::DeleteSnapshot(grpc::CallbackServerContext* ctx,
                                                    const v1::DeleteSnapshotRequest* req,
                                                    v1::DeleteSnapshotResponse* resp) {
  return Reply(ctx, service::AdminDeleteSnapshot(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::AddFault(grpc::CallbackServerContext* ctx,
                                              const v1::AddFaultRequest* req, v1::AddFaultResponse* resp) {
  return Reply(ctx, service::AdminAddFault(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::ListFaults(grpc::CallbackServerContext* ctx,
                                                const v1::ListFaultsRequest* req,
                                                v1::ListFaultsResponse* resp) {
  return Reply(ctx, service::AdminListFaults(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::ClearFaults(grpc::CallbackServerContext* ctx,
                                                 const v1::ClearFaultsRequest* req,
                                                 v1::ClearFaultsResponse* resp) {
  return Reply(ctx, service::AdminClearFaults(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::GetMetrics(grpc::CallbackServerContext* ctx,
                                                const v1::GetMetricsRequest* req,
                                                v1::GetMetricsResponse* resp) {
  return Reply(ctx, service::AdminGetMetrics(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::GetClock(grpc::CallbackServerContext* ctx,
                                              const v1::GetClockRequest* req, v1::ClockState* resp) {
  return ClockReply(ctx, service::AdminGetClock(engine_, *req), resp);
}
grpc::ServerUnaryReactor* AdminRpcs::SetClock(grpc::CallbackServerContext* ctx,
                                              const v1::SetClockRequest* req, v1::ClockState* resp) {
  return ClockReply(ctx, service::AdminSetClock(engine_, *req), resp);
}
grpc::ServerUnaryReactor* AdminRpcs::AdvanceClock(grpc::CallbackServerContext* ctx,
                                                  const v1::AdvanceClockRequest* req, v1::ClockState* resp) {
  return ClockReply(ctx, service::AdminAdvanceClock(engine_, *req), resp);
}
grpc::ServerUnaryReactor* AdminRpcs::FreezeClock(grpc::CallbackServerContext* ctx,
                                                 const v1::FreezeClockRequest* req, v1::ClockState* resp) {
  return ClockReply(ctx, service::AdminFreezeClock(engine_, *req), resp);
}
grpc::ServerUnaryReactor* AdminRpcs::ResumeClock(grpc::CallbackServerContext* ctx,
                                                 const v1::ResumeClockRequest* req, v1::ClockState* resp) {
  return ClockReply(ctx, service::AdminResumeClock(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::ClockReply(grpc::CallbackServerContext* ctx,
                                                Result<v1::ClockState> result, v1::ClockState* resp) {
  // An engine opened on another clock cannot be moved: a precondition of the
  // server, not a bad argument.
  if (!engine_.controllable_clock()) {
    return Done(ctx, grpc::StatusCode::FAILED_PRECONDITION, "this pogi's clock is not controllable");
  }
  if (result.ok()) {
    *resp = std::move(*result);
    return Done(ctx, pogi::Status::Ok());
  }
  return Done(ctx, result.error());
}

grpc::ServerUnaryReactor* AdminRpcs::ListJobs(grpc::CallbackServerContext* ctx,
                                              const v1::ListJobsRequest* req, v1::ListJobsResponse* resp) {
  return Reply(ctx, service::AdminListJobs(engine_, *req), resp);
}

grpc::ServerUnaryReactor* AdminRpcs::CancelJob(grpc::CallbackServerContext* ctx,
                                               const v1::CancelJobRequest* req, v1::CancelJobResponse* resp) {
  return Reply(ctx, service::AdminCancelJob(engine_, *req), resp);
}

}  // namespace pogi::rpc
