// Admin calls for fault rules: AddFault, ListFaults, ClearFaults, converting
// between pogi.v1.FaultRule and the engine's FaultSpec.
#include "service/rpc/admin_service.h"

namespace pogi::rpc {
namespace {

service::FaultSpec FromProto(const v1::FaultRule& r) {
  service::FaultSpec s;
  s.operations.assign(r.operations().begin(), r.operations().end());
  s.tables.assign(r.tables().begin(), r.tables().end());
  s.key_prefix = r.key_prefix();
  s.door = r.door();
  s.error = r.error();
  s.message = r.message();
  s.latency_ms = r.latency_ms();
  s.disconnect = r.disconnect();
  s.count = r.count();
  s.every = r.every();
  s.probability = r.probability();
  s.seed = r.seed();
  return s;
}

void ToProto(const service::FaultSpec& s, v1::FaultRule* r) {
  r->set_id(s.id);
  for (const auto& o : s.operations) r->add_operations(o);
  for (const auto& t : s.tables) r->add_tables(t);
  r->set_key_prefix(s.key_prefix);
  r->set_door(s.door);
  r->set_error(s.error);
  r->set_message(s.message);
  r->set_latency_ms(s.latency_ms);
  r->set_disconnect(s.disconnect);
  r->set_count(s.count);
  r->set_every(s.every);
  r->set_probability(s.probability);
  r->set_seed(s.seed);
  r->set_matched(s.matched);
  r->set_fired(s.fired);
}

}  // namespace

grpc::ServerUnaryReactor* AdminRpcs::AddFault(grpc::CallbackServerContext* ctx,
                                              const v1::AddFaultRequest* req, v1::AddFaultResponse* resp) {
  auto added = engine_.faults().Add(FromProto(req->rule()));
  // A bad rule is the caller's mistake: INVALID_ARGUMENT with the reason.
  if (!added.ok()) return Done(ctx, grpc::StatusCode::INVALID_ARGUMENT, added.error().message());
  ToProto(*added, resp->mutable_rule());
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::ListFaults(grpc::CallbackServerContext* ctx,
                                                const v1::ListFaultsRequest*, v1::ListFaultsResponse* resp) {
  for (const auto& s : engine_.faults().List()) ToProto(s, resp->add_rules());
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::ClearFaults(grpc::CallbackServerContext* ctx,
                                                 const v1::ClearFaultsRequest* req,
                                                 v1::ClearFaultsResponse* resp) {
  auto cleared = engine_.faults().Clear(req->id());
  if (!cleared.ok()) return Done(ctx, cleared.error());
  resp->set_cleared(*cleared);
  return Done(ctx, pogi::Status::Ok());
}

}  // namespace pogi::rpc
