// `pogi env`: the shell lines that point the AWS CLI and SDKs at pogi. The
// service-specific endpoint variables redirect DynamoDB and DynamoDB Streams
// only, so other AWS services a program calls are left alone.
#include <cstdio>

#include "cli/commands.h"
#include "cli/flags.h"
#include "service/core/region.h"

namespace pogi::cli {

int Env(const std::vector<std::string>& args) {
  Flags flags({"host", "port", "region", "shell"}, {});
  std::string error;
  if (!flags.Parse(args, &error)) {
    std::fprintf(stderr, "pogi: %s (see pogi help env)\n", error.c_str());
    return 2;
  }
  uint16_t port = kDefaultHttpPort;
  if (auto p = flags.Get("port"); p && !ParsePort(*p, &port)) {
    std::fprintf(stderr, "pogi: invalid --port %s\n", p->c_str());
    return 2;
  }
  std::string host = flags.Get("host").value_or("127.0.0.1");
  // The region pogi was started with (`pogi start --region`): with
  // --check-signatures, a request signed for another is refused.
  std::string region = flags.Get("region").value_or(std::string(service::kDefaultRegion));
  if (!service::IsRegionName(region)) {
    std::fprintf(stderr, "pogi: invalid --region %s (an AWS region name, for example eu-west-1)\n",
                 region.c_str());
    return 2;
  }
  std::string shell = flags.Get("shell").value_or("sh");
  std::string endpoint = "http://" + host + ":" + std::to_string(port);

  // Endpoint for both services; a region and static credentials, which the
  // SDKs require to sign requests (pogi does not check them by default).
  const std::pair<const char*, std::string> vars[] = {
      {"AWS_ENDPOINT_URL_DYNAMODB", endpoint},
      {"AWS_ENDPOINT_URL_DYNAMODB_STREAMS", endpoint},
      {"AWS_REGION", region},
      {"AWS_DEFAULT_REGION", region},
      {"AWS_ACCESS_KEY_ID", "pogi"},
      {"AWS_SECRET_ACCESS_KEY", "pogi"},
  };
  for (const auto& [name, value] : vars) {
    if (shell == "sh" || shell == "bash" || shell == "zsh") {
      std::printf("export %s=%s\n", name, value.c_str());
    } else if (shell == "fish") {
      std::printf("set -gx %s %s;\n", name, value.c_str());
    } else if (shell == "powershell" || shell == "pwsh") {
      std::printf("$Env:%s = \"%s\"\n", name, value.c_str());
    } else {
      std::fprintf(stderr, "pogi: unknown --shell %s (sh, fish or powershell)\n", shell.c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace pogi::cli
