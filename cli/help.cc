// The help texts of pogi and its subcommands.
#include <cstdio>
#include <map>
#include <string>

#include "cli/commands.h"
#include "cli/version.h"

namespace pogi::cli {
namespace {

const std::map<std::string, const char*> kHelp = {
    {"start",
     "usage: pogi start [--host H] [--port P] [--grpc-port G] [--data-dir DIR]\n"
     "                  [--in-memory] [--fsync]\n"
     "                  [--storage CONN [--pg-schema S] [--pg-connections N]]\n"
     "                  [--threads N]\n"
     "                  [--log-level L] [--log-format F] [--log-file PATH] [--log-requests]\n"
     "                  [--check-signatures] [--allow-unsigned] [--no-console]\n"
     "                  [--region R] [--strict-regions] [--item-collection-limit BYTES]\n"
     "                  [--account-id ID] [--vector-cache MB] [--throttle]\n"
     "                  [--clock TIME [--clock-frozen]] [--ttl-interval D]\n"
     "                  [--stream-shard-hours H] [--max-connections N] [--idle-timeout D]\n"
     "                  [--transient-delay D | --delay-transient-statuses]\n"
     "                  [--kinesis-endpoint URL [--kinesis-access-key-id K]\n"
     "                   [--kinesis-secret-access-key S] [--kinesis-region R]]\n"
     "\n"
     "Serves DynamoDB's JSON API over HTTP and the pogi gRPC services, and prints\n"
     "\"Ready.\" on stdout once both listen and storage is open.\n"
     "\n"
     "  --host H        address to listen on (default 127.0.0.1; any other address\n"
     "                  without --check-signatures draws a warning)\n"
     "  --port P        HTTP port for DynamoDB clients (default 7644; 0 picks one)\n"
     "  --grpc-port G   gRPC port for admin tools (default 7645; 0 picks one)\n"
     "  --data-dir DIR  where data lives (default $POGI_DATA_DIR, else ./.pogi)\n"
     "  --in-memory     keep nothing on disk\n"
     "  --fsync         fsync every commit (survive power loss, not only a crash)\n"
     "  --storage CONN  keep the data in PostgreSQL instead (default $POGI_STORAGE):\n"
     "                  a postgresql:// URI or a libpq key=value string\n"
     "  --pg-schema S   the PostgreSQL schema pogi creates and uses (default\n"
     "                  $POGI_PG_SCHEMA, else pogi)\n"
     "  --pg-connections N  connections to PostgreSQL kept open, each carrying\n"
     "                  one request's transaction at a time (default 16; a burst\n"
     "                  opens more and closes them after)\n"
     "  --log-level L   error, warn, info (default) or debug\n"
     "  --log-format F  text (default) or json: one JSON object per line\n"
     "  --log-file PATH append log lines to PATH instead of stderr\n"
     "  --log-requests  one log line per answered request (operation, table,\n"
     "                  status, error type, latency, request id, bytes, door)\n"
     "  --threads N     HTTP threads (default half the CPUs, at least 1; with\n"
     "                  --storage at least 8)\n"
     "  --check-signatures  verify AWS Signature V4 on every request, with\n"
     "                  --access-key-id and --secret-access-key (default pogi/pogi,\n"
     "                  what `pogi env` exports)\n"
     "  --allow-unsigned  accept requests without an Authorization header (by\n"
     "                  default its presence and form are checked as DynamoDB\n"
     "                  does, even when signatures are not verified)\n"
     "  --region R      the AWS region pogi answers as (default us-east-1): in\n"
     "                  table, index, stream and backup ARNs, stream records, and\n"
     "                  the credential scope --check-signatures accepts; tables\n"
     "                  made under another region keep their ARNs. Give `pogi env`\n"
     "                  the same --region\n"
     "  --account-id ID the 12-digit AWS account pogi answers as (default\n"
     "                  000000000000, as DynamoDB Local's): in every ARN it makes,\n"
     "                  and the one account whose ARNs name its tables; tables made\n"
     "                  under another account keep their ARNs\n"
     "  --strict-regions  each region its own tables, as in AWS (a request's region\n"
     "                  is its credential scope's); by default every table answers\n"
     "                  from every region, and a global table's replica in region R\n"
     "                  answers the requests of region R\n"
     "  --no-console    no web console at http://HOST:PORT/_pogi/ (and no\n"
     "                  /_pogi/api/): those paths then answer like any other\n"
     "                  path DynamoDB does not serve\n"
     "  --throttle      capacity that throttles, for every table (see pogi help\n"
     "                  throttle); off by default\n"
     "  --vector-cache MB  memory SearchVectors keeps vectors in (default 1024; 0:\n"
     "                  scan them from storage each time)\n"
     "  --item-collection-limit BYTES\n"
     "                  item collection limit of tables with local indexes\n"
     "                  (default DynamoDB's 10 GB; tests lower it to reach it)\n"
     "  --clock TIME    start pogi's clock at TIME (2030-01-01T00:00:00Z), not now\n"
     "  --clock-frozen  the clock stands still until `pogi clock resume`\n"
     "  --ttl-interval D  how often expired TTL items are deleted (default 1s)\n"
     "  --stream-shard-hours H  clock hours before a stream shard rolls over\n"
     "                  (default 4, as DynamoDB)\n"
     "  --max-connections N  HTTP connections at once (default 16384, less if the\n"
     "                  open-files limit is lower); one more is answered 503\n"
     "  --idle-timeout D  longest wait for a whole request or for a client to take\n"
     "                  its answer, before the connection is closed (default 60s)\n"
     "  --transient-delay D  tables and indexes stay CREATING, UPDATING or DELETING\n"
     "                  for D of pogi's clock (`pogi clock advance` ends them), as\n"
     "                  DynamoDB's do (default 0: ACTIVE as soon as each call answers)\n"
     "  --delay-transient-statuses  as DynamoDB Local's -delayTransientStatuses: an\n"
     "                  index added by UpdateTable is CREATING for 15 s, then\n"
     "                  backfilling for 15 s; a deleted one DELETING for 15 s\n"
     "  --kinesis-endpoint URL  a Kinesis-compatible server (http:// or https://:\n"
     "                  LocalStack, kinesalite, Kinesis itself) that Kinesis streaming\n"
     "                  destinations deliver to, SigV4-signed; without it, a\n"
     "                  destination enabled fails (ENABLE_FAILED, \"User does not\n"
     "                  have a permission to use kinesis stream\"), as DynamoDB's\n"
     "                  does for a stream it cannot reach\n"
     "  --kinesis-access-key-id K, --kinesis-secret-access-key S  the credentials\n"
     "                  pogi signs its Kinesis requests with (default pogi, pogi)\n"
     "  --kinesis-region R  the region pogi signs them for (default --region's)\n"
     "\n"
     "SIGINT or SIGTERM (or `pogi stop`) stops it cleanly.\n"},
    {"gateway",
     "usage: pogi gateway --engine HOST:PORT [--host H] [--port P] [--threads N]\n"
     "                    [--log-level L] [--log-format F] [--log-file PATH] [--log-requests]\n"
     "                    [--check-signatures] [--allow-unsigned]\n"
     "                    [--max-connections N] [--idle-timeout D] [--region R]\n"
     "                    [--strict-regions]\n"
     "\n"
     "Serves DynamoDB's JSON API over HTTP in a process of its own, forwarding\n"
     "every request over gRPC to the pogi engine at HOST:PORT (the --grpc-port of\n"
     "a `pogi start`), on one connection. Answers exactly as that engine's own\n"
     "HTTP door; the console and /_pogi/metrics are the engine's (404 here), and\n"
     "fault rules act on the engine's gRPC door. While the engine is down,\n"
     "requests answer ServiceUnavailable (503) and the gateway reconnects by\n"
     "itself. Prints \"Ready.\" once it listens.\n"
     "\n"
     "  pogi start --port 7644 --grpc-port 7645\n"
     "  pogi gateway --engine 127.0.0.1:7645 --port 8000\n"
     "\n"
     "  --engine HOST:PORT  the engine's gRPC address (required)\n"
     "  --host H, --port P  where to listen (default 127.0.0.1, 7644)\n"
     "  --threads N     HTTP threads, each waiting on one forwarded request (default\n"
     "                  the CPUs, at least 8)\n"
     "  Other flags as `pogi start`'s (give --region and --strict-regions as the\n"
     "  engine has them, for --check-signatures' credential scope; a gateway with\n"
     "  --check-signatures before replicas of global tables in other regions\n"
     "  needs --strict-regions, since it does not see where they live).\n"
     "\n"
     "SIGINT or SIGTERM stops it cleanly.\n"},
    {"env",
     "usage: pogi env [--host H] [--port P] [--region R] [--shell sh|fish|powershell]\n"
     "\n"
     "Prints the environment settings that point the AWS CLI and SDKs at pogi:\n"
     "  eval \"$(pogi env)\"\n"
     "It does not ask the server: give it the --host, --port and --region that\n"
     "pogi was started with (default 127.0.0.1, 7644, us-east-1).\n"},
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
    {"reset",
     "usage: pogi reset [TABLE...] [--host H] [--grpc-port G]\n"
     "\n"
     "Drops every table of a running pogi, or only the named ones, at once.\n"
     "\n"
     "example: pogi reset              # an empty database before each test\n"
     "         pogi reset orders users\n"},
    {"snapshot",
     "usage: pogi snapshot save NAME | restore NAME | list | rm NAME [--host H] [--grpc-port G]\n"
     "\n"
     "Named snapshots of the whole database. A durable pogi keeps them in\n"
     "DATA_DIR/snapshots (they survive restarts); an in-memory one in memory;\n"
     "on PostgreSQL they are copies inside pogi's schema.\n"
     "A restore replaces every table at once: requests running meanwhile see\n"
     "the old state or the new one, never a mix. NAME: letters, digits, '.',\n"
     "'_' and '-'.\n"
     "\n"
     "example: pogi snapshot save seeded && pogi snapshot restore seeded\n"},
    {"export",
     "usage: pogi export [TABLE] [--host H] [--grpc-port G] > dump.jsonl\n"
     "\n"
     "Writes every table (or TABLE) as JSON lines on stdout: each table's\n"
     "definition ({\"Table\": ...}, DescribeTable's shape), then its items\n"
     "({\"TableName\": ..., \"Item\": ...}, PutItem's shape), streamed. Progress\n"
     "goes to stderr when it is a terminal.\n"
     "\n"
     "example: pogi export orders > orders.jsonl\n"},
    {"import",
     "usage: pogi import [TABLE] FILE [--no-create] [--host H] [--grpc-port G]\n"
     "\n"
     "Loads a dump of `pogi export` (FILE, or - for stdin), creating missing\n"
     "tables from their definitions unless --no-create. With TABLE, every item\n"
     "goes into TABLE. Items that fail are reported on stderr (exit 1) and the\n"
     "rest are still written.\n"
     "\n"
     "example: pogi import dump.jsonl\n"
     "         pogi import orders-copy orders.jsonl\n"},
    {"scan",
     "usage: pogi scan TABLE [--index I] [--filter EXPR] [--values JSON] [--names JSON]\n"
     "                 [--projection P] [--limit N] [--consistent] [--output json|jsonl|table]\n"
     "                 [--simple] [--host H] [--grpc-port G]\n"
     "\n"
     "Every item of TABLE (all pages). Items print as DynamoDB JSON, or as plain\n"
     "values with --simple (and always with --output table).\n"
     "\n"
     "example: pogi scan orders --output table\n"},
    {"query",
     "usage: pogi query TABLE --key EXPR [--values JSON] [--names JSON] [--index I]\n"
     "                  [--filter EXPR] [--limit N] [--reverse] [--output json|jsonl|table]\n"
     "                  [--simple]\n"
     "\n"
     "Items matching a key condition. --values takes DynamoDB JSON or plain JSON.\n"
     "\n"
     "example: pogi query orders --key 'pk = :v' --values '{\":v\": \"user#1\"}'\n"},
    {"get",
     "usage: pogi get TABLE KEY [--consistent] [--projection P] [--output json|jsonl|table]\n"
     "\n"
     "One item by its key (DynamoDB JSON or plain JSON); exit 1 when missing.\n"
     "\n"
     "example: pogi get orders '{\"pk\": \"user#1\", \"sk\": 3}'\n"},
    {"put",
     "usage: pogi put TABLE ITEM\n"
     "\n"
     "Writes one item (DynamoDB JSON or plain JSON).\n"
     "\n"
     "example: pogi put orders '{\"pk\": \"user#1\", \"sk\": 3, \"total\": 12.5}'\n"},
    {"delete",
     "usage: pogi delete TABLE KEY [--output json|jsonl|table]\n"
     "\n"
     "Deletes one item by its key and prints it as it was.\n"
     "\n"
     "example: pogi delete orders '{\"pk\": \"user#1\", \"sk\": 3}'\n"},
    {"tail",
     "usage: pogi tail [--body] [--host H] [--grpc-port G]\n"
     "\n"
     "Each request as it is answered: time, door, operation, table, status,\n"
     "latency, error type and request id; --body adds up to 1 KB of the body.\n"
     "\n"
     "example: pogi tail | grep PutItem\n"},
    {"top",
     "usage: pogi top [--interval 1s] [--iterations N] [--host H] [--grpc-port G]\n"
     "\n"
     "Per operation and table: calls, rate, errors and p50/p99 latency, redrawn\n"
     "each interval. Metrics are collected from the first time one asks.\n"
     "\n"
     "example: pogi top\n"},
    {"completion",
     "usage: pogi completion bash|zsh|fish\n"
     "\n"
     "Prints shell completion for pogi's commands.\n"
     "\n"
     "example: source <(pogi completion bash)\n"},
    {"throttle",
     "usage: pogi throttle [on | off | default] [--table T] [--host H] [--grpc-port G]\n"
     "\n"
     "Makes tables say no as DynamoDB does when a request needs more capacity than\n"
     "is left, so retry and back-off code can be tested. A provisioned table or\n"
     "global index spends its read and write capacity units per second and keeps\n"
     "up to 300 seconds of unused capacity (burst); an on-demand one is held to\n"
     "its OnDemandThroughput maximum (else the account's 40,000 units); one\n"
     "partition key value serves at most 3,000 read or 1,000 write units a\n"
     "second. Refused requests get ProvisionedThroughputExceededException,\n"
     "ThrottlingException or RequestLimitExceeded with ThrottlingReasons; batches\n"
     "return the throttled tables' requests unprocessed and transactions are\n"
     "cancelled. Capacity refills on pogi's clock: `pogi clock advance 1m`\n"
     "refills a minute's worth. A new table starts with one second's capacity.\n"
     "\n"
     "`on`/`off` set it for every table (as `pogi start --throttle` does), or with\n"
     "--table for one table; `default` with --table makes that table follow the\n"
     "setting for every table again. Without arguments, prints the settings.\n"
     "Off by default. PartiQL statements and SearchVectors are not throttled.\n"
     "\n"
     "example: pogi throttle on --table orders\n"},
    {"lag",
     "usage: pogi lag [DURATION | off] [--table T] [--host H] [--grpc-port G]\n"
     "\n"
     "Makes eventually consistent reads (ConsistentRead false, the default, on\n"
     "GetItem, BatchGetItem, Query, Scan and PartiQL SELECT) and every read of a\n"
     "global secondary index see each table as it was DURATION ago, so code that\n"
     "reads right after writing without ConsistentRead fails in tests as it may\n"
     "on AWS. Consistent reads and transactions always see the latest data.\n"
     "With --table, only that table lags (its own lag wins over the global one);\n"
     "`off` turns every lag off, or with --table removes that table's own lag.\n"
     "Without arguments, prints the lags set. The lag runs on wall time, not on\n"
     "pogi's clock (`pogi clock freeze` does not stop it).\n"
     "\n"
     "example: pogi lag 500ms --table orders\n"},
    {"replication",
     "usage: pogi replication [lag DURATION | freeze | release] [--host H] [--grpc-port G]\n"
     "\n"
     "Global tables (UpdateTable ReplicaUpdates): a write to one replica reaches\n"
     "the others DURATION after it was made (200ms at start; wall time, not\n"
     "pogi's clock), through each replica's write path, so it shows in its\n"
     "stream and indexes. `freeze` stops replication: changes wait, in order and\n"
     "in storage, until `release`; writes to one item in two regions meanwhile\n"
     "resolve last writer wins, as in DynamoDB. Without arguments, prints the\n"
     "lag, whether replication is frozen and how many changes wait.\n"
     "\n"
     "example: pogi replication freeze\n"},
    {"jobs",
     "usage: pogi jobs [--kind export|import|bulk] [--json] [--host H] [--grpc-port G]\n"
     "       pogi jobs cancel ARN\n"
     "\n"
     "Lists the exports (ExportTableToPointInTime), imports (ImportTable) and bulk\n"
     "operations (StartBulkPutItems) of a running pogi, oldest first: status,\n"
     "table, items written so far, errors, start time and ARN, with the failure\n"
     "and the first errors of each (an import's errors as DynamoDB would log them\n"
     "to CloudWatch). --json prints one JSON object a job. `cancel` stops an\n"
     "import (its table is dropped) or a bulk operation in progress: CANCELLING,\n"
     "then CANCELLED.\n"
     "\n"
     "example: pogi jobs --kind import\n"},
    {"faults",
     "usage: pogi faults add --operation OP[,OP...] [--table T[,T...]] [--key-prefix P]\n"
     "                       [--door http|grpc]\n"
     "                       (--error NAME [--message M] | --latency 200ms | --disconnect)\n"
     "                       [--count K | --every N | --probability P [--seed S]]\n"
     "       pogi faults list\n"
     "       pogi faults clear [--id ID]\n"
     "\n"
     "Makes matching requests fail on purpose: a DynamoDB error in DynamoDB's\n"
     "shape and HTTP status, added latency, or a cut connection (gRPC callers\n"
     "see UNAVAILABLE). By default a rule acts on every matching call; --count K\n"
     "acts on the next K, --every N on each Nth, --probability P on a seeded\n"
     "random share (the same seed gives the same sequence). `list` shows how\n"
     "often each rule matched and fired.\n"
     "\n"
     "errors: ProvisionedThroughputExceededException, ThrottlingException,\n"
     "  RequestLimitExceeded, InternalServerError (500), ServiceUnavailable (503),\n"
     "  TransactionConflict (a TransactionCanceledException for transactions),\n"
     "  ConditionalCheckFailedException, TransactionInProgressException,\n"
     "  ValidationException, ResourceNotFoundException, LimitExceededException,\n"
     "  ItemCollectionSizeLimitExceededException\n"
     "\n"
     "example: pogi faults add --operation PutItem --table orders \\\n"
     "           --error ProvisionedThroughputExceededException --count 2\n"},
};

}  // namespace

void PrintUsage() {
  std::printf(
      "pogi %s: a local DynamoDB\n"
      "\n"
      "usage: pogi <command> [flags]\n"
      "\n"
      "  start      serve DynamoDB's API (HTTP) and the admin API (gRPC)\n"
      "  gateway    serve DynamoDB's API (HTTP) in front of an engine elsewhere\n"
      "  env        print the settings that point AWS SDKs and the CLI at pogi\n"
      "  status     version, uptime, tables and items of a running pogi\n"
      "  tables     list the tables of a running pogi\n"
      "  describe   describe one table of a running pogi\n"
      "  stop       stop a running pogi\n"
      "  clock      show, set, advance, freeze or resume pogi's clock\n"
      "  watch      print the changes committed to a running pogi\n"
      "  close-shard  close the open shard of a table's stream now\n"
      "  reset      drop every table (or the named ones) at once\n"
      "  snapshot   save, restore, list or remove named snapshots of the database\n"
      "  export     write tables and items as JSON lines on stdout\n"
      "  import     load a dump made by export\n"
      "  scan, query, get, put, delete   read and write items\n"
      "  tail       each request as it is answered\n"
      "  top        live rates and latencies per operation\n"
      "  completion print shell completion (bash, zsh, fish)\n"
      "  faults     make chosen requests fail on purpose (errors, latency, cuts)\n"
      "  lag        make eventually consistent reads see older data\n"
      "  replication  global tables' replication lag, freeze and release\n"
      "  throttle   make tables refuse requests beyond their capacity\n"
      "  jobs       exports, imports and bulk puts in progress or done\n"
      "  help CMD   help for one command\n"
      "\n"
      "  --version  print the version, commit and build date\n"
      "\n"
      "DynamoDB Local's flags work too: pogi -port 8000 -inMemory (see pogi -help)\n",
      kVersion);
}

bool PrintCommandHelp(const std::string& command) {
  auto it = kHelp.find(command);
  if (it == kHelp.end()) return false;
  std::fputs(it->second, stdout);
  return true;
}

}  // namespace pogi::cli
