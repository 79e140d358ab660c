// The Admin calls that answer at once, on the engine, shared by the gRPC
// Admin service and the console's JSON API.
#include "service/admin/admin_calls.h"

#include <array>
#include <cctype>
#include <chrono>

#include "service/engine/engine.h"
#include "service/engine/operations.h"

namespace pogi::service {
namespace {

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Snapshot names become file names: no path separators, no dot files.
Status CheckSnapshotName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 128 && name[0] != '.';
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') ok = false;
  }
  if (ok) return Status::Ok();
  return Error::Validation("invalid snapshot name '" + name +
                           "': use 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'");
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

Result<v1::TableDescription> DescribeOne(Engine& engine, const std::string& name) {
  v1::DescribeTableRequest req;
  req.set_table_name(name);
  auto state = engine.LockState();
  POGI_RETURN_IF_ERROR(engine.SettleTransitions());
  POGI_ASSIGN_OR_RETURN(auto resp, engine.DescribeTable(req));
  return resp.table();
}

void FillSnapshot(Engine& engine, const std::string& name, v1::SnapshotInfo* info) {
  info->set_name(name);
  auto all = engine.ListSnapshots();
  if (!all.ok()) return;
  for (const auto& s : *all) {
    if (s.name != name) continue;
    info->set_size_bytes(s.size_bytes);
    info->set_created_at(s.created_at);
  }
}

FaultSpec FromProto(const v1::FaultRule& r) {
  FaultSpec s;
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

void ToProto(const FaultSpec& s, v1::FaultRule* r) {
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

// `change` on the engine's clock (kept in the database for every process
// sharing it), then the clock's state. `catch_up`: then runs what became due
// before answering, so a test that advances past an expiry sees the deletion
// at once.
template <typename Fn>
Result<v1::ClockState> ClockCall(Engine& engine, Fn change, bool catch_up = false) {
  ControllableClock* clock = engine.controllable_clock();
  if (!clock) return Error::Validation("this pogi's clock is not controllable");
  POGI_RETURN_IF_ERROR(engine.ChangeClock(change));
  if (catch_up) POGI_RETURN_IF_ERROR(engine.RunMaintenance());
  v1::ClockState state;
  state.set_now(clock->Now());
  state.set_frozen(clock->frozen());
  return state;
}

}  // namespace

Result<v1::ListTablesSummaryResponse> AdminTables(Engine& engine, const v1::ListTablesSummaryRequest&) {
  POGI_ASSIGN_OR_RETURN(auto stats, engine.Stats());
  v1::ListTablesSummaryResponse resp;
  for (const auto& t : stats) {
    auto d = DescribeOne(engine, t.name);
    if (!d.ok()) continue;  // dropped meanwhile
    Summarize(*d, resp.add_tables());
  }
  return resp;
}

Result<v1::AdminDescribeTableResponse> AdminDescribeTable(Engine& engine,
                                                          const v1::AdminDescribeTableRequest& req) {
  if (req.table_name().empty()) return Error::Validation("table_name is required");
  POGI_ASSIGN_OR_RETURN(auto d, DescribeOne(engine, req.table_name()));
  v1::AdminDescribeTableResponse resp;
  Summarize(d, resp.mutable_summary());
  *resp.mutable_table() = std::move(d);
  return resp;
}

Result<v1::ResetResponse> AdminReset(Engine& engine, const v1::ResetRequest& req) {
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> names(req.table_names().begin(), req.table_names().end());
  POGI_ASSIGN_OR_RETURN(auto dropped, engine.Reset(names));
  v1::ResetResponse resp;
  for (auto& n : dropped) resp.add_dropped(std::move(n));
  resp.set_elapsed_ms(MillisSince(start));
  return resp;
}

Result<v1::CreateSnapshotResponse> AdminCreateSnapshot(Engine& engine, const v1::CreateSnapshotRequest& req) {
  POGI_RETURN_IF_ERROR(CheckSnapshotName(req.name()));
  auto start = std::chrono::steady_clock::now();
  POGI_RETURN_IF_ERROR(engine.CreateSnapshot(req.name()));
  v1::CreateSnapshotResponse resp;
  resp.set_elapsed_ms(MillisSince(start));
  FillSnapshot(engine, req.name(), resp.mutable_snapshot());
  return resp;
}

Result<v1::ListSnapshotsResponse> AdminListSnapshots(Engine& engine, const v1::ListSnapshotsRequest&) {
  POGI_ASSIGN_OR_RETURN(auto all, engine.ListSnapshots());
  v1::ListSnapshotsResponse resp;
  for (const auto& s : all) {
    auto* info = resp.add_snapshots();
    info->set_name(s.name);
    info->set_size_bytes(s.size_bytes);
    info->set_created_at(s.created_at);
  }
  return resp;
}

Result<v1::RestoreSnapshotResponse> AdminRestoreSnapshot(Engine& engine,
                                                         const v1::RestoreSnapshotRequest& req) {
  POGI_RETURN_IF_ERROR(CheckSnapshotName(req.name()));
  auto start = std::chrono::steady_clock::now();
  POGI_RETURN_IF_ERROR(engine.RestoreSnapshot(req.name()));
  v1::RestoreSnapshotResponse resp;
  resp.set_elapsed_ms(MillisSince(start));
  FillSnapshot(engine, req.name(), resp.mutable_snapshot());
  return resp;
}

Result<v1::DeleteSnapshotResponse> AdminDeleteSnapshot(Engine& engine, const v1::DeleteSnapshotRequest& req) {
  POGI_RETURN_IF_ERROR(CheckSnapshotName(req.name()));
  POGI_RETURN_IF_ERROR(engine.DeleteSnapshot(req.name()));
  return v1::DeleteSnapshotResponse();
}

Result<v1::AddFaultResponse> AdminAddFault(Engine& engine, const v1::AddFaultRequest& req) {
  for (const auto& op : req.rule().operations()) {
    if (!FindOperation(op)) return Error::Validation("unknown operation '" + op + "'");
  }
  auto added = engine.faults().Add(FromProto(req.rule()));
  // A bad rule is the caller's mistake, whatever the rule checker called it.
  if (!added.ok()) return Error::Validation(added.error().message());
  v1::AddFaultResponse resp;
  ToProto(*added, resp.mutable_rule());
  return resp;
}

Result<v1::ListFaultsResponse> AdminListFaults(Engine& engine, const v1::ListFaultsRequest&) {
  v1::ListFaultsResponse resp;
  for (const auto& s : engine.faults().List()) ToProto(s, resp.add_rules());
  return resp;
}

Result<v1::ClearFaultsResponse> AdminClearFaults(Engine& engine, const v1::ClearFaultsRequest& req) {
  POGI_ASSIGN_OR_RETURN(int64_t cleared, engine.faults().Clear(req.id()));
  v1::ClearFaultsResponse resp;
  resp.set_cleared(cleared);
  return resp;
}

Result<v1::ClockState> AdminGetClock(Engine& engine, const v1::GetClockRequest&) {
  // As moved last, through whichever process sharing the database.
  POGI_RETURN_IF_ERROR(engine.FollowCatalog());
  v1::ClockState state;
  state.set_now(engine.clock().Now());
  if (ControllableClock* clock = engine.controllable_clock()) state.set_frozen(clock->frozen());
  return state;
}

Result<v1::ClockState> AdminSetClock(Engine& engine, const v1::SetClockRequest& req) {
  return ClockCall(
      engine,
      [&](ControllableClock& c) {
        c.Set(req.now());
        return Status::Ok();
      },
      /*catch_up=*/true);
}

Result<v1::ClockState> AdminAdvanceClock(Engine& engine, const v1::AdvanceClockRequest& req) {
  if (!(req.seconds() >= 0)) return Error::Validation("the clock only advances; set it to go back");
  return ClockCall(
      engine,
      [&](ControllableClock& c) {
        c.Advance(req.seconds());
        return Status::Ok();
      },
      /*catch_up=*/true);
}

Result<v1::ClockState> AdminFreezeClock(Engine& engine, const v1::FreezeClockRequest&) {
  return ClockCall(engine, [](ControllableClock& c) {
    c.Freeze();
    return Status::Ok();
  });
}

Result<v1::ClockState> AdminResumeClock(Engine& engine, const v1::ResumeClockRequest&) {
  return ClockCall(engine, [](ControllableClock& c) {
    c.Resume();
    return Status::Ok();
  });
}

Result<v1::GetMetricsResponse> AdminGetMetrics(Engine& engine, const v1::GetMetricsRequest&) {
  Metrics& metrics = engine.metrics();
  v1::GetMetricsResponse resp;
  for (int64_t b : Metrics::kBoundsUs) resp.add_latency_bounds_us(b);
  resp.set_since_seconds(engine.clock().Now() - metrics.started_at());
  for (const auto& [key, s] : metrics.Snapshot()) {
    auto* m = resp.add_metrics();
    m->set_operation(key.first);
    m->set_table_name(key.second);
    m->set_calls(s.calls);
    for (const auto& [type, n] : s.errors) (*m->mutable_errors())[type] = n;
    for (int64_t c : s.latency) m->add_latency_counts(c);
    m->set_latency_sum_us(s.latency_sum_us);
    m->set_bytes_in(s.bytes_in);
    m->set_bytes_out(s.bytes_out);
  }
  return resp;
}

namespace {

// One type-erased entry per call: the request's prototype and a thunk that
// downcasts, calls and boxes the answer.
template <typename Req, typename Resp, Result<Resp> (*Fn)(Engine&, const Req&)>
Result<std::unique_ptr<google::protobuf::Message>> Invoke(Engine& engine,
                                                          const google::protobuf::Message& request) {
  POGI_ASSIGN_OR_RETURN(Resp resp, Fn(engine, static_cast<const Req&>(request)));
  return std::unique_ptr<google::protobuf::Message>(new Resp(std::move(resp)));
}

#define POGI_ADMIN_CALL(name, Req, Resp) \
  AdminCall { #name, &Req::default_instance(), &Invoke < Req, Resp, &Admin##name> }

const auto& Calls() {
  static const std::array<AdminCall, 18> kCalls = {
      POGI_ADMIN_CALL(Tables, v1::ListTablesSummaryRequest, v1::ListTablesSummaryResponse),
      POGI_ADMIN_CALL(DescribeTable, v1::AdminDescribeTableRequest, v1::AdminDescribeTableResponse),
      POGI_ADMIN_CALL(Reset, v1::ResetRequest, v1::ResetResponse),
      POGI_ADMIN_CALL(CreateSnapshot, v1::CreateSnapshotRequest, v1::CreateSnapshotResponse),
      POGI_ADMIN_CALL(ListSnapshots, v1::ListSnapshotsRequest, v1::ListSnapshotsResponse),
      POGI_ADMIN_CALL(RestoreSnapshot, v1::RestoreSnapshotRequest, v1::RestoreSnapshotResponse),
      POGI_ADMIN_CALL(DeleteSnapshot, v1::DeleteSnapshotRequest, v1::DeleteSnapshotResponse),
      POGI_ADMIN_CALL(AddFault, v1::AddFaultRequest, v1::AddFaultResponse),
      POGI_ADMIN_CALL(ListFaults, v1::ListFaultsRequest, v1::ListFaultsResponse),
      POGI_ADMIN_CALL(ClearFaults, v1::ClearFaultsRequest, v1::ClearFaultsResponse),
      POGI_ADMIN_CALL(GetClock, v1::GetClockRequest, v1::ClockState),
      POGI_ADMIN_CALL(SetClock, v1::SetClockRequest, v1::ClockState),
      POGI_ADMIN_CALL(AdvanceClock, v1::AdvanceClockRequest, v1::ClockState),
      POGI_ADMIN_CALL(FreezeClock, v1::FreezeClockRequest, v1::ClockState),
      POGI_ADMIN_CALL(ResumeClock, v1::ResumeClockRequest, v1::ClockState),
      POGI_ADMIN_CALL(GetMetrics, v1::GetMetricsRequest, v1::GetMetricsResponse),
      POGI_ADMIN_CALL(ListJobs, v1::ListJobsRequest, v1::ListJobsResponse),
      POGI_ADMIN_CALL(CancelJob, v1::CancelJobRequest, v1::CancelJobResponse),
  };
  return kCalls;
}

#undef POGI_ADMIN_CALL

}  // namespace

const AdminCall* FindAdminCall(std::string_view name) {
  for (const auto& c : Calls()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace pogi::service
