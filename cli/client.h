// What the admin subcommands share: connecting to a running pogi over gRPC
// from --host/--grpc-port, one-line errors, and deadlines.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/flags.h"

namespace pogi::cli {

struct Client {
  std::string address;
  std::shared_ptr<grpc::Channel> channel;
};

// Parses `args` with `flags` (to which --host and --grpc-port are added) and
// makes the channel. On a usage error prints one line and returns nullopt
// with *exit_code = 2.
std::optional<Client> Connect(const std::string& command, std::set<std::string> valued,
                              std::set<std::string> switches, const std::vector<std::string>& args,
                              Flags* flags, int* exit_code);

// Prints why a call failed, in one line; returns the exit code (1).
int CallFailed(const grpc::Status& status, const std::string& address);
// Prints a usage error in one line; returns 2.
int UsageError(const std::string& command, const std::string& message);
void SetDeadline(grpc::ClientContext* ctx, int seconds = 30);

// "200ms", "1.5s", "2m" or a bare number of milliseconds; false if not one.
bool ParseDuration(const std::string& text, int64_t* ms);
// Splits "a,b,c" (empty parts dropped).
std::vector<std::string> SplitList(const std::string& text);

}  // namespace pogi::cli
