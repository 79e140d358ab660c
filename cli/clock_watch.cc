// `pogi clock`, `pogi watch` and `pogi close-shard`: the admin commands over
// pogi's one clock, its live change feed and its streams' shards.
#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/flags.h"
#include "gateway/json_codec.h"
#include "pogi/v1/admin.grpc.pb.h"
#include "service/core/clock.h"

namespace pogi::cli {
namespace {

int Usage(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "pogi: %s (see pogi help %s)\n", message.c_str(), command.c_str());
  return 2;
}

int CallFailed(const grpc::Status& s, const std::string& address) {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    std::fprintf(stderr, "pogi: no pogi is running at %s (start one with `pogi start`)\n", address.c_str());
  } else {
    std::fprintf(stderr, "pogi: %s\n", s.error_message().c_str());
  }
  return 1;
}

// Parses --host/--grpc-port; false after printing why.
bool Address(const std::string& command, const std::vector<std::string>& args, Flags* flags,
             std::string* address, int* exit_code) {
  std::string error;
  if (!flags->Parse(args, &error)) {
    *exit_code = Usage(command, error);
    return false;
  }
  uint16_t port = kDefaultGrpcPort;
  if (auto p = flags->Get("grpc-port"); p && !ParsePort(*p, &port)) {
    *exit_code = Usage(command, "invalid --grpc-port " + *p);
    return false;
  }
  *address = flags->Get("host").value_or("127.0.0.1") + ":" + std::to_string(port);
  return true;
}

// A JSON object of an attribute map, in DynamoDB JSON.
nlohmann::json ItemJson(const google::protobuf::Map<std::string, v1::AttributeValue>& attrs) {
  v1::Item item;
  *item.mutable_attributes() = attrs;
  std::string text;
  gateway::MessageToJson(item, &text);
  return nlohmann::json::parse(text);
}

}  // namespace

int Clock(const std::vector<std::string>& args) {
  Flags flags({"host", "grpc-port"}, {});
  std::string address;
  int code = 0;
  if (!Address("clock", args, &flags, &address, &code)) return code;
  const auto& pos = flags.positional();
  std::string verb = pos.empty() ? "show" : pos[0];
  auto admin = v1::Admin::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::ClockState state;
  grpc::Status s;
  size_t want = verb == "set" || verb == "advance" ? 2 : 1;
  if (pos.size() > want || (want == 2 && pos.size() != 2)) {
    return Usage("clock", want == 2 ? "clock " + verb + " needs one argument" : "unexpected argument");
  }
  if (verb == "show") {
    s = admin->GetClock(&ctx, v1::GetClockRequest(), &state);
  } else if (verb == "set") {
    auto t = service::ParseIsoTime(pos[1]);
    if (!t) return Usage("clock", "invalid time " + pos[1] + " (for example 2030-01-01T00:00:00Z)");
    v1::SetClockRequest req;
    req.set_now(*t);
    s = admin->SetClock(&ctx, req, &state);
  } else if (verb == "advance") {
    auto d = service::ParseDuration(pos[1]);
    if (!d) return Usage("clock", "invalid duration " + pos[1] + " (for example 25h, 90m, 1h30m, 10s)");
    v1::AdvanceClockRequest req;
    req.set_seconds(*d);
    s = admin->AdvanceClock(&ctx, req, &state);
  } else if (verb == "freeze") {
    s = admin->FreezeClock(&ctx, v1::FreezeClockRequest(), &state);
  } else if (verb == "resume") {
    s = admin->ResumeClock(&ctx, v1::ResumeClockRequest(), &state);
  } else {
    return Usage("clock", "unknown clock command '" + verb + "' (set, advance, freeze or resume)");
  }
  if (!s.ok()) return CallFailed(s, address);
  std::printf("%s%s\n", service::FormatIsoTime(state.now()).c_str(), state.frozen() ? " (frozen)" : "");
  return 0;
}

int CloseShard(const std::vector<std::string>& args) {
  Flags flags({"host", "grpc-port"}, {});
  std::string address;
  int code = 0;
  if (!Address("close-shard", args, &flags, &address, &code)) return code;
  if (flags.positional().size() != 1) return Usage("close-shard", "close-shard needs one TABLE name");
  auto admin = v1::Admin::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::CloseStreamShardRequest req;
  req.set_table_name(flags.positional()[0]);
  v1::CloseStreamShardResponse resp;
  grpc::Status s = admin->CloseStreamShard(&ctx, req, &resp);
  if (!s.ok()) return CallFailed(s, address);
  std::printf("closed %s, opened %s\n", resp.closed_shard_id().c_str(), resp.new_shard_id().c_str());
  return 0;
}

int Watch(const std::vector<std::string>& args) {
  Flags flags({"host", "grpc-port"}, {});
  std::string address;
  int code = 0;
  if (!Address("watch", args, &flags, &address, &code)) return code;
  if (flags.positional().size() > 1) return Usage("watch", "watch takes at most one TABLE");
  v1::WatchChangesRequest req;
  if (!flags.positional().empty()) req.set_table_name(flags.positional()[0]);
  auto admin = v1::Admin::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  auto reader = admin->WatchChanges(&ctx, req);
  v1::ChangeEvent e;
  while (reader->Read(&e)) {
    if (e.event_name() == "WATCHING") {
      std::fprintf(stderr, "pogi: watching %s\n",
                   req.table_name().empty() ? "every table" : req.table_name().c_str());
      continue;
    }
    nlohmann::json j;
    j["eventName"] = e.event_name();
    if (e.event_name() == "DROPPED") {
      j["dropped"] = e.dropped();
    } else {
      j["table"] = e.table_name();
      j["keys"] = ItemJson(e.keys());
      if (e.has_old_item()) j["oldItem"] = ItemJson(e.old_item().attributes());
      if (e.has_new_item()) j["newItem"] = ItemJson(e.new_item().attributes());
      if (!e.sequence_number().empty()) j["sequenceNumber"] = e.sequence_number();
      j["time"] = service::FormatIsoTime(e.time());
      if (e.ttl()) j["ttl"] = true;
    }
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
  }
  grpc::Status s = reader->Finish();
  if (!s.ok()) return CallFailed(s, address);
  return 0;
}

}  // namespace pogi::cli
