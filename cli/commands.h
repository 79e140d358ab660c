// The pogi subcommands. Each takes its arguments after the subcommand name
// and returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace pogi::cli {

inline constexpr uint16_t kDefaultHttpPort = 7644;
inline constexpr uint16_t kDefaultGrpcPort = 7645;

int Start(const std::vector<std::string>& args);
// `pogi gateway --engine HOST:PORT`: the HTTP door in front of an engine elsewhere.
int Gateway(const std::vector<std::string>& args);
int Env(const std::vector<std::string>& args);
// status, tables, describe, stop: gRPC clients of a running pogi.
int Admin(const std::string& command, const std::vector<std::string>& args);
int Reset(const std::vector<std::string>& args);
int Snapshot(const std::vector<std::string>& args);
int FaultsCommand(const std::vector<std::string>& args);
// `pogi lag [DURATION | off] [--table T]`.
int Lag(const std::vector<std::string>& args);
// `pogi replication [lag DURATION | freeze | release]`: global tables.
int Replication(const std::vector<std::string>& args);
// `pogi throttle [on | off | default] [--table T]`.
int ThrottleCommand(const std::vector<std::string>& args);
// `pogi jobs [--kind K] [--json] | pogi jobs cancel ARN`: exports, imports
// and bulk operations.
int Jobs(const std::vector<std::string>& args);
int Export(const std::vector<std::string>& args);
int Import(const std::vector<std::string>& args);
// scan, query, get, put, delete over the DynamoDB gRPC service.
int Data(const std::string& command, const std::vector<std::string>& args);
int Tail(const std::vector<std::string>& args);
int Top(const std::vector<std::string>& args);
int Completion(const std::vector<std::string>& args);

// `pogi clock [set TIME | advance DURATION | freeze | resume]`.
int Clock(const std::vector<std::string>& args);
// `pogi close-shard TABLE`: closes the open shard of TABLE's stream now.
int CloseShard(const std::vector<std::string>& args);
// `pogi watch [TABLE]`: committed changes as JSON lines.
int Watch(const std::vector<std::string>& args);

// DynamoDB Local's command line (`pogi -port 8000 -inMemory`), as DynamoDB
// Local spells it: whether `args` is one, and starting pogi from it.
bool IsDynamoDbLocalCommandLine(const std::vector<std::string>& args);
int StartAsDynamoDbLocal(const std::vector<std::string>& args);

// Help texts.
void PrintUsage();
bool PrintCommandHelp(const std::string& command);

}  // namespace pogi::cli
