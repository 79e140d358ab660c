// Admin calls for global tables' replication: SetReplication (lag, freeze,
// release), GetReplication.
#include "service/rpc/admin_service.h"

namespace pogi::rpc {
namespace {

// An hour, as the read lag's bound.
constexpr int64_t kMaxLagMs = 3600 * 1000;

pogi::Status Fill(service::Engine& engine, v1::ReplicationState* resp) {
  resp->set_lag_ms(engine.replication().lag_ms());
  resp->set_frozen(engine.replication().frozen());
  POGI_ASSIGN_OR_RETURN(int64_t queued, engine.ReplicationBacklog());
  resp->set_queued(queued);
  return pogi::Status::Ok();
}

}  // namespace

grpc::ServerUnaryReactor* AdminRpcs::SetReplication(grpc::CallbackServerContext* ctx,
                                                    const v1::SetReplicationRequest* req,
                                                    v1::ReplicationState* resp) {
  if (req->has_lag_ms() && (req->lag_ms() < 0 || req->lag_ms() > kMaxLagMs)) {
    return Done(ctx, grpc::StatusCode::INVALID_ARGUMENT,
                "lag_ms must be between 0 and " + std::to_string(kMaxLagMs) + ", not " +
                    std::to_string(req->lag_ms()));
  }
  if (req->has_lag_ms()) engine_.replication().set_lag_ms(req->lag_ms());
  if (req->has_frozen()) engine_.replication().set_frozen(req->frozen());
  return Done(ctx, Fill(engine_, resp));
}

grpc::ServerUnaryReactor* AdminRpcs::GetReplication(grpc::CallbackServerContext* ctx,
                                                    const v1::GetReplicationRequest*,
                                                    v1::ReplicationState* resp) {
  return Done(ctx, Fill(engine_, resp));
}

}  // namespace pogi::rpc
