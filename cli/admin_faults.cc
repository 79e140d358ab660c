// `pogi faults add|list|clear`: fault rules of a running pogi, over gRPC.
#include <cstdio>
#include <cstdlib>

#include "cli/client.h"
#include "cli/commands.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {
namespace {

std::string Join(const google::protobuf::RepeatedPtrField<std::string>& list) {
  std::string out;
  for (const auto& s : list) out += (out.empty() ? "" : ",") + s;
  return out.empty() ? "*" : out;
}

bool ParseInt(const std::string& text, int64_t* v) {
  char* end = nullptr;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 0) return false;
  *v = n;
  return true;
}

int Add(const Client& client, const Flags& flags) {
  v1::FaultRule rule;
  for (const auto& o : SplitList(flags.Get("operation").value_or(""))) rule.add_operations(o);
  for (const auto& t : SplitList(flags.Get("table").value_or(""))) rule.add_tables(t);
  rule.set_key_prefix(flags.Get("key-prefix").value_or(""));
  rule.set_door(flags.Get("door").value_or(""));
  rule.set_error(flags.Get("error").value_or(""));
  rule.set_message(flags.Get("message").value_or(""));
  rule.set_disconnect(flags.Has("disconnect"));
  if (auto l = flags.Get("latency")) {
    int64_t ms = 0;
    if (!ParseDuration(*l, &ms) || ms == 0)
      return UsageError("faults", "invalid --latency " + *l + " (e.g. 200ms)");
    rule.set_latency_ms(ms);
  }
  for (const char* name : {"count", "every", "seed"}) {
    auto v = flags.Get(name);
    if (!v) continue;
    int64_t n = 0;
    if (!ParseInt(*v, &n)) return UsageError("faults", "invalid --" + std::string(name) + " " + *v);
    if (std::string(name) == "count") rule.set_count(n);
    if (std::string(name) == "every") rule.set_every(n);
    if (std::string(name) == "seed") rule.set_seed(static_cast<uint64_t>(n));
  }
  if (auto p = flags.Get("probability")) {
    char* end = nullptr;
    double v = std::strtod(p->c_str(), &end);
    if (p->empty() || *end != '\0') return UsageError("faults", "invalid --probability " + *p);
    rule.set_probability(v);
  }
  v1::AddFaultRequest req;
  *req.mutable_rule() = rule;
  v1::AddFaultResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = v1::Admin::NewStub(client.channel)->AddFault(&ctx, req, &resp);
  if (!s.ok()) return CallFailed(s, client.address);
  std::printf("added fault rule %s\n", resp.rule().id().c_str());
  return 0;
}

int List(const Client& client) {
  v1::ListFaultsResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = v1::Admin::NewStub(client.channel)->ListFaults(&ctx, v1::ListFaultsRequest(), &resp);
  if (!s.ok()) return CallFailed(s, client.address);
  std::printf("%-4s %-28s %-20s %-40s %-18s %8s %8s\n", "ID", "OPERATIONS", "TABLES", "ACTION", "WHEN",
              "MATCHED", "FIRED");
  for (const auto& r : resp.rules()) {
    std::string action = !r.error().empty() ? "error " + r.error()
                         : r.disconnect()   ? std::string("disconnect")
                                            : "latency " + std::to_string(r.latency_ms()) + "ms";
    std::string when = r.count() > 0         ? "next " + std::to_string(r.count())
                       : r.every() > 0       ? "every " + std::to_string(r.every())
                       : r.probability() > 0 ? "p=" + std::to_string(r.probability()).substr(0, 5) +
                                                   " seed " + std::to_string(r.seed())
                                             : std::string("always");
    std::printf("%-4s %-28s %-20s %-40s %-18s %8lld %8lld\n", r.id().c_str(), Join(r.operations()).c_str(),
                Join(r.tables()).c_str(), action.c_str(), when.c_str(), static_cast<long long>(r.matched()),
                static_cast<long long>(r.fired()));
  }
  return 0;
}

int Clear(const Client& client, const Flags& flags) {
  v1::ClearFaultsRequest req;
  req.set_id(flags.Get("id").value_or(""));
  v1::ClearFaultsResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = v1::Admin::NewStub(client.channel)->ClearFaults(&ctx, req, &resp);
  if (!s.ok()) return CallFailed(s, client.address);
  std::printf("cleared %lld fault rule%s\n", static_cast<long long>(resp.cleared()),
              resp.cleared() == 1 ? "" : "s");
  return 0;
}

}  // namespace

int FaultsCommand(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("faults",
                        {"operation", "table", "key-prefix", "door", "error", "message", "latency", "count",
                         "every", "probability", "seed", "id"},
                        {"disconnect"}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  if (pos.size() != 1) return UsageError("faults", "faults needs one of add, list or clear");
  if (pos[0] == "add") return Add(*client, flags);
  if (pos[0] == "list") return List(*client);
  if (pos[0] == "clear") return Clear(*client, flags);
  return UsageError("faults", "unknown faults command '" + pos[0] + "'");
}

}  // namespace pogi::cli
