// The console's static files (console/ in the source tree), compiled into
// the binary by cmake/embed_console.cmake as constant arrays: nothing is
// read or built at start-up.
#pragma once

#include <cstddef>
#include <string_view>

namespace pogi::gateway {

struct ConsoleAsset {
  std::string_view name;          // "index.html"
  std::string_view content_type;  // "text/html; charset=utf-8"
  const unsigned char* data;
  size_t size;
};

// The asset named `name` (a path under /_pogi/, "" for index.html), or null.
const ConsoleAsset* FindConsoleAsset(std::string_view name);

}  // namespace pogi::gateway
