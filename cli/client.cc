// The admin subcommands' shared client helpers.
#include "cli/client.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"

namespace pogi::cli {

std::optional<Client> Connect(const std::string& command, std::set<std::string> valued,
                              std::set<std::string> switches, const std::vector<std::string>& args,
                              Flags* flags, int* exit_code) {
  valued.insert("host");
  valued.insert("grpc-port");
  *flags = Flags(std::move(valued), std::move(switches));
  std::string error;
  if (!flags->Parse(args, &error)) {
    *exit_code = UsageError(command, error);
    return std::nullopt;
  }
  uint16_t port = kDefaultGrpcPort;
  if (auto p = flags->Get("grpc-port"); p && !ParsePort(*p, &port)) {
    *exit_code = UsageError(command, "invalid --grpc-port " + *p);
    return std::nullopt;
  }
  Client c;
  c.address = flags->Get("host").value_or("127.0.0.1") + ":" + std::to_string(port);
  grpc::ChannelArguments channel_args;
  channel_args.SetMaxReceiveMessageSize(64 * 1024 * 1024);
  c.channel = grpc::CreateCustomChannel(c.address, grpc::InsecureChannelCredentials(), channel_args);
  return c;
}

int CallFailed(const grpc::Status& s, const std::string& address) {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE &&
      s.error_message().find("fault") == std::string::npos) {
    std::fprintf(stderr, "pogi: no pogi is running at %s (start one with `pogi start`)\n", address.c_str());
  } else if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    std::fprintf(stderr, "pogi: pogi at %s did not answer in time\n", address.c_str());
  } else {
    std::fprintf(stderr, "pogi: %s\n", s.error_message().c_str());
  }
  return 1;
}

int UsageError(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "pogi: %s (see pogi %s --help)\n", message.c_str(), command.c_str());
  return 2;
}

void SetDeadline(grpc::ClientContext* ctx, int seconds) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
}

bool ParseDuration(const std::string& text, int64_t* ms) {
  if (text.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  std::string unit(end);
  if (end == text.c_str() || v < 0) return false;
  double scale = unit.empty() || unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : -1;
  if (scale < 0) return false;
  *ms = static_cast<int64_t>(v * scale + 0.5);
  return true;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace pogi::cli
