// AdminRpcs: the calls of pogi.v1.Admin beyond status and shutdown — the
// unary ones over service/admin/admin_calls.h (admin_unary.cc), read lag
// (admin_lag.cc), export and import (admin_export.cc), the request tail
// (admin_metrics.cc).
// Included by the gRPC files of service/rpc only.
#pragma once

#include <grpcpp/grpcpp.h>

#include "pogi/v1/admin.grpc.pb.h"
#include "service/engine/engine.h"

namespace pogi::rpc {

class AdminRpcs : public v1::Admin::CallbackService {
 public:
  explicit AdminRpcs(service::Engine& engine) : engine_(engine) {}

  grpc::ServerUnaryReactor* Tables(grpc::CallbackServerContext* ctx, const v1::ListTablesSummaryRequest*,
                                   v1::ListTablesSummaryResponse* resp) override;
  grpc::ServerUnaryReactor* DescribeTable(grpc::CallbackServerContext* ctx,
                                          const v1::AdminDescribeTableRequest* req,
                                          v1::AdminDescribeTableResponse* resp) override;
  grpc::ServerUnaryReactor* Reset(grpc::CallbackServerContext* ctx, const v1::ResetRequest* req,
                                  v1::ResetResponse* resp) override;
  grpc::ServerUnaryReactor* CreateSnapshot(grpc::CallbackServerContext* ctx,
                                           const v1::CreateSnapshotRequest* req,
                                           v1::CreateSnapshotResponse* resp) override;
  grpc::ServerUnaryReactor* ListSnapshots(grpc::CallbackServerContext* ctx,
                                          const v1::ListSnapshotsRequest* req,
                                          v1::ListSnapshotsResponse* resp) override;
  grpc::ServerUnaryReactor* RestoreSnapshot(grpc::CallbackServerContext* ctx,
                                            const v1::RestoreSnapshotRequest* req,
                                            v1::RestoreSnapshotResponse* resp) override;
  grpc::ServerUnaryReactor* DeleteSnapshot(grpc::CallbackServerContext* ctx,
                                           const v1::DeleteSnapshotRequest* req,
                                           v1::DeleteSnapshotResponse* resp) override;
  grpc::ServerUnaryReactor* AddFault(grpc::CallbackServerContext* ctx, const v1::AddFaultRequest* req,
                                     v1::AddFaultResponse* resp) override;
  grpc::ServerUnaryReactor* ListFaults(grpc::CallbackServerContext* ctx, const v1::ListFaultsRequest* req,
                                       v1::ListFaultsResponse* resp) override;
  grpc::ServerUnaryReactor* ClearFaults(grpc::CallbackServerContext* ctx, const v1::ClearFaultsRequest* req,
                                        v1::ClearFaultsResponse* resp) override;
  grpc::ServerWriteReactor<v1::ExportRecord>* ExportTable(grpc::CallbackServerContext* ctx,
                                                          const v1::ExportTableRequest* req) override;
  grpc::ServerReadReactor<v1::ImportRequest>* ImportTable(grpc::CallbackServerContext* ctx,
                                                          v1::ImportResponse* resp) override;
  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx, const v1::GetMetricsRequest* req,
                                       v1::GetMetricsResponse* resp) override;
  grpc::ServerWriteReactor<v1::RequestEvent>* TailRequests(grpc::CallbackServerContext* ctx,
                                                           const v1::TailRequestsRequest* req) override;
  grpc::ServerUnaryReactor* SetReadLag(grpc::CallbackServerContext* ctx, const v1::SetReadLagRequest* req,
                                       v1::ReadLagState* resp) override;
  grpc::ServerUnaryReactor* GetReadLag(grpc::CallbackServerContext* ctx, const v1::GetReadLagRequest* req,
                                       v1::ReadLagState* resp) override;
  grpc::ServerUnaryReactor* SetReplication(grpc::CallbackServerContext* ctx,
                                           const v1::SetReplicationRequest* req,
                                           v1::ReplicationState* resp) override;
  grpc::ServerUnaryReactor* GetReplication(grpc::CallbackServerContext* ctx,
                                           const v1::GetReplicationRequest* req,
                                           v1::ReplicationState* resp) override;
  grpc::ServerUnaryReactor* SetThrottle(grpc::CallbackServerContext* ctx, const v1::SetThrottleRequest* req,
                                        v1::ThrottleState* resp) override;
  grpc::ServerUnaryReactor* GetThrottle(grpc::CallbackServerContext* ctx, const v1::GetThrottleRequest* req,
                                        v1::ThrottleState* resp) override;
  grpc::ServerUnaryReactor* ListJobs(grpc::CallbackServerContext* ctx, const v1::ListJobsRequest* req,
                                     v1::ListJobsResponse* resp) override;
  grpc::ServerUnaryReactor* CancelJob(grpc::CallbackServerContext* ctx, const v1::CancelJobRequest* req,
                                      v1::CancelJobResponse* resp) override;

  grpc::ServerUnaryReactor* GetClock(grpc::CallbackServerContext* ctx, const v1::GetClockRequest* req,
                                     v1::ClockState* resp) override;
  grpc::ServerUnaryReactor* SetClock(grpc::CallbackServerContext* ctx, const v1::SetClockRequest* req,
                                     v1::ClockState* resp) override;
  grpc::ServerUnaryReactor* AdvanceClock(grpc::CallbackServerContext* ctx, const v1::AdvanceClockRequest* req,
                                         v1::ClockState* resp) override;
  grpc::ServerUnaryReactor* FreezeClock(grpc::CallbackServerContext* ctx, const v1::FreezeClockRequest* req,
                                        v1::ClockState* resp) override;
  grpc::ServerUnaryReactor* ResumeClock(grpc::CallbackServerContext* ctx, const v1::ResumeClockRequest* req,
                                        v1::ClockState* resp) override;

 protected:
  service::Engine& engine_;

 private:
  grpc::ServerUnaryReactor* ClockReply(grpc::CallbackServerContext* ctx, Result<v1::ClockState> result,
                                       v1::ClockState* resp);
};

// A finished unary reactor: OK, or the gRPC status of `error`.
grpc::ServerUnaryReactor* Done(grpc::CallbackServerContext* ctx, const pogi::Status& status);
// A finished unary reactor with a plain gRPC status (INVALID_ARGUMENT...).
grpc::ServerUnaryReactor* Done(grpc::CallbackServerContext* ctx, grpc::StatusCode code,
                               const std::string& message);

}  // namespace pogi::rpc
