// Admin calls over tables and the whole database: table summaries,
// DescribeTable, Reset and named snapshots.
#include <cctype>
#include <chrono>

#include "service/rpc/admin_service.h"
#include "service/rpc/grpc_server.h"

namespace pogi::rpc {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Snapshot names become file names: no path separators, no dot files.
bool ValidSnapshotName(const std::string& name) {
  if (name.empty() || name.size() > 128 || name[0] == '.') return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

grpc::ServerUnaryReactor* BadName(grpc::CallbackServerContext* ctx, const std::string& name) {
  return Done(ctx, grpc::StatusCode::INVALID_ARGUMENT,
              "invalid snapshot name '" + name +
                  "': use 1 to 128 letters, digits, '.', '_' or '-', not starting "
                  "with '.'");
}

void Summarize(const v1::TableDescription& d, v1::TableSummary* s) {
  s->set_table_name(d.table_name());
  s->set_item_count(d.item_count());
  s->set_size_bytes(d.table_size_bytes());
  s->set_status(d.table_status());
  s->set_billing_mode(d.billing_mode_summary().billing_mode().empty()
                          ? "PROVISIONED"
                          : d.billing_mode_summary().billing_mode());
  for (const auto& g : d.global_secondary_indexes()) {
    auto* i = s->add_indexes();
    i->set_index_name(g.index_name());
    i->set_kind("GLOBAL");
    i->set_item_count(g.item_count());
    i->set_size_bytes(g.index_size_bytes());
    i->set_status(g.index_status());
  }
  for (const auto& l : d.local_secondary_indexes()) {
    auto* i = s->add_indexes();
    i->set_index_name(l.index_name());
    i->set_kind("LOCAL");
    i->set_item_count(l.item_count());
    i->set_size_bytes(l.index_size_bytes());
    i->set_status("ACTIVE");
  }
  auto* stream = s->mutable_stream();
  stream->set_enabled(d.stream_specification().stream_enabled());
  stream->set_view_type(d.stream_specification().stream_view_type());
  stream->set_stream_arn(d.latest_stream_arn());
}

Result<v1::TableDescription> DescribeOne(service::Engine& engine, const std::string& name) {
  v1::DescribeTableRequest req;
  req.set_table_name(name);
  auto state = engine.LockState();
  POGI_ASSIGN_OR_RETURN(auto resp, engine.DescribeTable(req));
  return resp.table();
}

}  // namespace

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

grpc::ServerUnaryReactor* AdminRpcs::Tables(grpc::CallbackServerContext* ctx,
                                            const v1::ListTablesSummaryRequest*,
                                            v1::ListTablesSummaryResponse* resp) {
  auto stats = engine_.Stats();
  if (!stats.ok()) return Done(ctx, stats.error());
  for (const auto& t : *stats) {
    auto d = DescribeOne(engine_, t.name);
    if (!d.ok()) continue;  // dropped meanwhile
    Summarize(*d, resp->add_tables());
  }
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::DescribeTable(grpc::CallbackServerContext* ctx,
                                                   const v1::AdminDescribeTableRequest* req,
                                                   v1::AdminDescribeTableResponse* resp) {
  if (req->table_name().empty())
    return Done(ctx, grpc::StatusCode::INVALID_ARGUMENT, "table_name is required");
  auto d = DescribeOne(engine_, req->table_name());
  if (!d.ok()) return Done(ctx, d.error());
  Summarize(*d, resp->mutable_summary());
  *resp->mutable_table() = std::move(*d);
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::Reset(grpc::CallbackServerContext* ctx, const v1::ResetRequest* req,
                                           v1::ResetResponse* resp) {
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> names(req->table_names().begin(), req->table_names().end());
  auto dropped = engine_.Reset(names);
  if (!dropped.ok()) return Done(ctx, dropped.error());
  for (auto& n : *dropped) resp->add_dropped(std::move(n));
  resp->set_elapsed_ms(MillisSince(start));
  return Done(ctx, pogi::Status::Ok());
}

static void FillSnapshot(service::Engine& engine, const std::string& name, v1::SnapshotInfo* info) {
  info->set_name(name);
  auto all = engine.ListSnapshots();
  if (!all.ok()) return;
  for (const auto& s : *all) {
    if (s.name != name) continue;
    info->set_size_bytes(s.size_bytes);
    info->set_created_at(s.created_at);
  }
}

grpc::ServerUnaryReactor* AdminRpcs::CreateSnapshot(grpc::CallbackServerContext* ctx,
                                                    const v1::CreateSnapshotRequest* req,
                                                    v1::CreateSnapshotResponse* resp) {
  if (!ValidSnapshotName(req->name())) return BadName(ctx, req->name());
  auto start = std::chrono::steady_clock::now();
  if (pogi::Status s = engine_.CreateSnapshot(req->name()); !s.ok()) return Done(ctx, s);
  resp->set_elapsed_ms(MillisSince(start));
  FillSnapshot(engine_, req->name(), resp->mutable_snapshot());
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::ListSnapshots(grpc::CallbackServerContext* ctx,
                                                   const v1::ListSnapshotsRequest*,
                                                   v1::ListSnapshotsResponse* resp) {
  auto all = engine_.ListSnapshots();
  if (!all.ok()) return Done(ctx, all.error());
  for (const auto& s : *all) {
    auto* info = resp->add_snapshots();
    info->set_name(s.name);
    info->set_size_bytes(s.size_bytes);
    info->set_created_at(s.created_at);
  }
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::RestoreSnapshot(grpc::CallbackServerContext* ctx,
                                                     const v1::RestoreSnapshotRequest* req,
                                                     v1::RestoreSnapshotResponse* resp) {
  if (!ValidSnapshotName(req->name())) return BadName(ctx, req->name());
  auto start = std::chrono::steady_clock::now();
  if (pogi::Status s = engine_.RestoreSnapshot(req->name()); !s.ok()) return Done(ctx, s);
  resp->set_elapsed_ms(MillisSince(start));
  FillSnapshot(engine_, req->name(), resp->mutable_snapshot());
  return Done(ctx, pogi::Status::Ok());
}

grpc::ServerUnaryReactor* AdminRpcs::DeleteSnapshot(grpc::CallbackServerContext* ctx,
                                                    const v1::DeleteSnapshotRequest* req,
                                                    v1::DeleteSnapshotResponse*) {
  if (!ValidSnapshotName(req->name())) return BadName(ctx, req->name());
  return Done(ctx, engine_.DeleteSnapshot(req->name()));
}

}  // namespace pogi::rpc
