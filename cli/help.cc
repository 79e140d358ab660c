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
     "                  [--clock TIME [--clock-frozen]] [--ttl-interval D]\n"
     "                  [--stream-shard-hours H]\n"
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
     "  --clock TIME    start pogi's clock at TIME (2030-01-01T00:00:00Z), not now\n"
     "  --clock-frozen  the clock stands still until `pogi clock resume`\n"
     "  --ttl-interval D  how often expired TTL items are deleted (default 1s)\n"
     "  --stream-shard-hours H  clock hours before a stream shard rolls over\n"
     "                  (default 4, as DynamoDB)\n"
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
    {"clock",
     "usage: pogi clock [set TIME | advance DURATION | freeze | resume] [--host H] [--grpc-port G]\n"
     "\n"
     "Shows or moves the one clock of a running pogi (TTL, streams, creation\n"
     "dates, transaction tokens). Advancing runs what became due (TTL deletions,\n"
     "shard roll-overs) before it returns. Prints the clock's time.\n"
     "\n"
     "  pogi clock                           2030-01-01T00:00:00.000Z\n"
     "  pogi clock set 2030-01-01T00:00:00Z\n"
     "  pogi clock advance 25h               also 90m, 1h30m, 10s, 2d, 500ms\n"
     "  pogi clock freeze | resume\n"},
    {"close-shard",
     "usage: pogi close-shard TABLE [--host H] [--grpc-port G]\n"
     "\n"
     "Closes the open shard of TABLE's stream now (as a roll-over would after\n"
     "--stream-shard-hours) and opens its child, so that a consumer's handling\n"
     "of shard lineage can be tested in milliseconds:\n"
     "  pogi close-shard orders\n"
     "  closed shardId-00000001893456000000-1a2b3c4d, opened shardId-...\n"},
    {"watch",
     "usage: pogi watch [TABLE] [--host H] [--grpc-port G]\n"
     "\n"
     "Prints every change committed from now on (of TABLE, or of every table)\n"
     "as one JSON line each, until interrupted:\n"
     "  pogi watch orders\n"
     "  "
     "{\"eventName\":\"INSERT\",\"keys\":{\"pk\":{\"S\":\"a\"}},\"newItem\":{...},\"table\":\"orders\",...}\n"
     "A watcher that cannot keep up gets {\"eventName\":\"DROPPED\",\"dropped\":N}.\n"},
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
      "  clock      show, set, advance, freeze or resume pogi's clock\n"
      "  watch      print the changes committed to a running pogi\n"
      "  close-shard  close the open shard of a table's stream now\n"
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
