// DynamoDB Local's command line, accepted as DynamoDB Local spells it, so
// that a script, a compose file or a container command written for it
// starts pogi by changing only the binary or the image:
//   pogi -port 8000 -inMemory -sharedDb
//   pogi -jar DynamoDBLocal.jar -sharedDb -dbPath ./data    (its image's command, as is)
// The flags become `pogi start` flags; pogi's own --flags may follow them.
// The default port is DynamoDB Local's, 8000. docs/admin.md, "Drop-in for
// DynamoDB Local", says what is matched and what is not.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/version.h"

namespace pogi::cli {
namespace {

struct LocalFlag {
  const char* name;
  bool takes_value;
  const char* help;  // as pogi honours it
};

constexpr LocalFlag kLocalFlags[] = {
    {"-port", true, "the HTTP port (default 8000)"},
    {"-inMemory", false, "keep nothing on disk (--in-memory)"},
    {"-dbPath", true, "the folder the database lives in (--data-dir)"},
    {"-sharedDb", false,
     "one database for every client; without it each region has its own tables "
     "(--strict-regions), as in DynamoDB Local, though not each access key"},
    {"-cors", true, "allowed origins: pogi allows every origin ('*', DynamoDB Local's default)"},
    {"-delayTransientStatuses", false,
     "an index added by UpdateTable stays CREATING for 30 s, a deleted one DELETING for 15 s "
     "(--delay-transient-statuses)"},
    {"-optimizeDbBeforeStartup", false, "accepted; pogi's database needs no optimizing"},
    {"-disableTelemetry", false, "accepted; pogi sends no telemetry"},
    {"-help", false, "this help"},
    {"-version", false, "pogi's version"},
};

const LocalFlag* FindLocalFlag(const std::string& arg) {
  for (const auto& f : kLocalFlags) {
    if (arg == f.name) return &f;
  }
  return nullptr;
}

// DynamoDB Local is started as `java [-D...] -jar DynamoDBLocal.jar FLAGS`,
// and its image's command starts at `-jar`: those words are skipped.
size_t SkipJavaWords(const std::vector<std::string>& args) {
  size_t i = 0;
  while (i < args.size() && args[i].starts_with("-D")) ++i;
  if (i + 1 < args.size() && args[i] == "-jar" && args[i + 1].ends_with(".jar")) i += 2;
  return i;
}

void PrintLocalHelp() {
  std::printf(
      "usage: pogi [-jar DynamoDBLocal.jar] [DynamoDB Local flags] [pogi start flags]\n"
      "\n"
      "DynamoDB Local's flags, as pogi honours them:\n");
  for (const auto& f : kLocalFlags) {
    std::printf("  %-26s %s\n", (std::string(f.name) + (f.takes_value ? " VALUE" : "")).c_str(), f.help);
  }
  std::printf("\nAny `pogi start` flag may follow (see pogi help start).\n");
}

}  // namespace

bool IsDynamoDbLocalCommandLine(const std::vector<std::string>& args) {
  size_t i = SkipJavaWords(args);
  if (i >= 2 && args[i - 2] == "-jar") return true;  // `-jar DynamoDBLocal.jar` alone
  return i < args.size() && FindLocalFlag(args[i]) != nullptr;
}

int StartAsDynamoDbLocal(const std::vector<std::string>& args) {
  std::vector<std::string> start;
  bool in_memory = false, shared = false, delay = false, port_given = false, strict_given = false;
  std::string port = "8000", db_path = "null", cors = "null";
  for (size_t i = SkipJavaWords(args); i < args.size(); ++i) {
    const std::string& arg = args[i];
    const LocalFlag* flag = FindLocalFlag(arg);
    if (!flag) {
      // pogi's own flags (and anything else) go to `pogi start` as given.
      start.push_back(arg);
      if (arg == "--port" || arg.starts_with("--port=")) port_given = true;
      if (arg == "--strict-regions") strict_given = true;
      continue;
    }
    std::string value;
    if (flag->takes_value) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "pogi: %s needs a value (see pogi -help)\n", arg.c_str());
        return 2;
      }
      value = args[++i];
    }
    if (arg == "-help") {
      PrintLocalHelp();
      return 0;
    }
    if (arg == "-version") {
      std::printf("pogi %s (commit %s, built %s)\n", kVersion, kCommit, kBuildDate);
      return 0;
    }
    if (arg == "-port") port = value;
    if (arg == "-inMemory") in_memory = true;
    if (arg == "-dbPath") db_path = value;
    if (arg == "-sharedDb") shared = true;
    if (arg == "-cors") cors = value;
    if (arg == "-delayTransientStatuses") delay = true;
  }
  if (!port_given) start.insert(start.begin(), {"--port", port});
  if (in_memory) start.push_back("--in-memory");
  if (delay) start.push_back("--delay-transient-statuses");
  if (db_path != "null") start.insert(start.end(), {"--data-dir", db_path});
  // Without -sharedDb DynamoDB Local keeps a database per access key and
  // region (ACCESSKEY_REGION.db): pogi gives each region its own tables, and
  // shares them between access keys (docs/admin.md).
  if (!shared && !strict_given) start.push_back("--strict-regions");
  // DynamoDB Local's start-up lines, which scripts and wait strategies look
  // for, then pogi's own log and "Ready." once it serves.
  std::printf(
      "Initializing DynamoDB Local with the following configuration:\n"
      "Port:\t%s\n"
      "InMemory:\t%s\n"
      "Version:\tpogi %s\n"
      "DbPath:\t%s\n"
      "SharedDb:\t%s\n"
      "shouldDelayTransientStatuses:\t%s\n"
      "CorsParams:\t%s\n\n",
      port.c_str(), in_memory ? "true" : "false", kVersion, db_path.c_str(), shared ? "true" : "false",
      delay ? "true" : "false", cors.c_str());
  std::fflush(stdout);
  // Said once on stderr, not silently dropped (docs/admin.md).
  if (cors != "null" && cors != "*") {
    std::fprintf(stderr, "pogi: -cors %s accepted, but pogi allows every origin\n", cors.c_str());
  }
  return Start(start);
}

}  // namespace pogi::cli
