// The help texts of pogi and its subcommands.
#include <cstdio>
#include <map>
#include <string>

#include "cli/commands.h"

namespace pogi::cli {
namespace {

const std::map<std::string, const char*> kHelp = {
    {"start",
     "usage: pogi start [--host H] [--port P] [--grpc-port G] [--data-dir DIR]\n"
     "                  [--in-memory] [--fsync] [--threads N]\n"
     "                  [--log-level L] [--log-format F] [--log-file PATH] [--log-requests]\n"
     "                  [--check-signatures] [--allow-unsigned]\n"
     "                  [--item-collection-limit BYTES]\n"
     "\n"
     "Serves DynamoDB's JSON API over HTTP and the pogi gRPC services, and prints\n"
     "\"Ready.\" on stdout once both listen and storage is open.\n"
     "\n"
     "  --host H        address to listen on (default 127.0.0.1)\n"
     "  --port P        HTTP port for DynamoDB clients (default 7644; 0 picks one)\n"
     "  --grpc-port G   gRPC port for admin tools (default 7645; 0 picks one)\n"
     "  --data-dir DIR  where data lives (default $POGI_DATA_DIR, else ./.pogi)\n"
     "  --in-memory     keep nothing on disk\n"
     "  --fsync         fsync every commit (survive power loss, not only a crash)\n"
     "  --log-level L   error, warn, info (default) or debug\n"
     "  --log-format F  text (default) or json: one JSON object per line\n"
     "  --log-file PATH append log lines to PATH instead of stderr\n"
     "  --log-requests  one log line per answered request (operation, table,\n"
     "                  status, error type, latency, request id, bytes, door)\n"
     "  --threads N     HTTP threads (default half the CPUs, at least 1)\n"
     "  --check-signatures  verify AWS Signature V4 on every request, with\n"
     "                  --access-key-id and --secret-access-key (default pogi/pogi,\n"
     "                  what `pogi env` exports)\n"
     "  --allow-unsigned  accept requests without an Authorization header (by\n"
     "                  default its presence and form are checked as DynamoDB\n"
     "                  does, even when signatures are not verified)\n"
     "  --item-collection-limit BYTES\n"
     "                  item collection limit of tables with local indexes\n"
     "                  (default DynamoDB's 10 GB; tests lower it to reach it)\n"
     "\n"
     "SIGINT or SIGTERM (or `pogi stop`) stops it cleanly.\n"},
    {"env",
     "usage: pogi env [--host H] [--port P] [--shell sh|fish|powershell]\n"
     "\n"
     "Prints the environment settings that point the AWS CLI and SDKs at pogi:\n"
     "  eval \"$(pogi env)\"\n"},
    {"status",
     "usage: pogi status [--host H] [--grpc-port G]\n\nVersion, uptime, tables and items of a running "
     "pogi.\n"},
    {"tables",
     "usage: pogi tables [--host H] [--grpc-port G]\n\nThe tables of a running pogi, with item counts and "
     "sizes.\n"},
    {"describe",
     "usage: pogi describe TABLE [--host H] [--grpc-port G]\n\nDescribeTable of TABLE, as JSON.\n"},
    {"stop", "usage: pogi stop [--host H] [--grpc-port G]\n\nStops a running pogi cleanly.\n"},
};

}  // namespace

void PrintUsage() {
  std::printf(
      "pogi %s: a local DynamoDB\n"
      "\n"
      "usage: pogi <command> [flags]\n"
      "\n"
      "  start      serve DynamoDB's API (HTTP) and the admin API (gRPC)\n"
      "  env        print the settings that point AWS SDKs and the CLI at pogi\n"
      "  status     version, uptime, tables and items of a running pogi\n"
      "  tables     list the tables of a running pogi\n"
      "  describe   describe one table of a running pogi\n"
      "  stop       stop a running pogi\n"
      "  help CMD   help for one command\n"
      "\n"
      "  --version  print the version\n",
      POGI_VERSION);
}

bool PrintCommandHelp(const std::string& command) {
  auto it = kHelp.find(command);
  if (it == kHelp.end()) return false;
  std::fputs(it->second, stdout);
  return true;
}

}  // namespace pogi::cli
