// Admin calls for capacity that throttles: SetThrottle, GetThrottle.
#include "service/rpc/admin_service.h"

namespace pogi::rpc {
namespace {

void Fill(const service::Throttle& throttle, v1::ThrottleState* resp) {
  service::ThrottleSettings settings = throttle.Settings();
  resp->set_all_tables(settings.all);
  for (const auto& [name, on] : settings.tables) (*resp->mutable_tables())[name] = on;
}

}  // namespace

grpc::ServerUnaryReactor* AdminRpcs::SetThrottle(grpc::CallbackServerContext* ctx,
                                                 const v1::SetThrottleRequest* req, v1::ThrottleState* resp) {
  const std::string& mode = req->mode();
  bool for_table = !req->table_name().empty();
  if (mode != "ON" && mode != "OFF" && !(for_table && mode == "DEFAULT")) {
    return Done(
        ctx, grpc::StatusCode::INVALID_ARGUMENT,
        "mode must be ON or OFF" + std::string(for_table ? " or DEFAULT" : "") + ", not '" + mode + "'");
  }
  if (for_table && !engine_.FindTableOrNull(req->table_name())) {
    return Done(ctx, grpc::StatusCode::NOT_FOUND, "no table named " + req->table_name());
  }
  std::optional<bool> on;
  if (mode != "DEFAULT") on = mode == "ON";
  engine_.throttle().Set(req->table_name(), on);
  Fill(engine_.throttle(), resp);
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::GetThrottle(grpc::CallbackServerContext* ctx,
                                                 const v1::GetThrottleRequest*, v1::ThrottleState* resp) {
  Fill(engine_.throttle(), resp);
  return Done(ctx, pogi::Status::Ok());
}

}  // namespace pogi::rpc
