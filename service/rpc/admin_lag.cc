// Admin calls for the read lag of eventually consistent reads: SetReadLag,
// GetReadLag.
#include "service/rpc/admin_service.h"

namespace pogi::rpc {
namespace {

// An hour: far more than any replication delay worth simulating, and it
// bounds the versions a busy table keeps.
constexpr int64_t kMaxLagMs = 3600 * 1000;

void Fill(const service::ReadLag& lag, v1::ReadLagState* resp) {
  resp->set_global_lag_ms(lag.global_ms());
  for (const auto& [name, ms] : lag.table_ms()) (*resp->mutable_table_lag_ms())[name] = ms;
}

}  // namespace

grpc::ServerUnaryReactor* AdminRpcs::SetReadLag(grpc::CallbackServerContext* ctx,
                                                const v1::SetReadLagRequest* req, v1::ReadLagState* resp) {
  if (req->lag_ms() < 0 || req->lag_ms() > kMaxLagMs) {
    return Done(ctx, grpc::StatusCode::INVALID_ARGUMENT,
                "lag_ms must be between 0 and " + std::to_string(kMaxLagMs) + ", not " +
                    std::to_string(req->lag_ms()));
  }
  if (!req->table_name().empty() && !engine_.FindTableOrNull(req->table_name())) {
    return Done(ctx, grpc::StatusCode::NOT_FOUND, "no table named " + req->table_name());
  }
  engine_.read_lag().Set(req->table_name(), req->lag_ms());
  Fill(engine_.read_lag(), resp);
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::GetReadLag(grpc::CallbackServerContext* ctx,
                                                const v1::GetReadLagRequest*, v1::ReadLagState* resp) {
  Fill(engine_.read_lag(), resp);
  return Done(ctx, pogi::Status::Ok());
}

}  // namespace pogi::rpc
