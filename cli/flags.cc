// Flag parsing for the pogi subcommands.
#include "cli/flags.h"

#include <charconv>

namespace pogi::cli {

bool Flags::Parse(const std::vector<std::string>& args, std::string* error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!a.starts_with("--")) {
      positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (switches_.count(name)) {
      if (has_value) {
        *error = "flag --" + name + " takes no value";
        return false;
      }
      values_[name] = "true";
    } else if (valued_.count(name)) {
      if (!has_value) {
        if (i + 1 >= args.size()) {
          *error = "flag --" + name + " needs a value";
          return false;
        }
        value = args[++i];
      }
      values_[name] = value;
    } else {
      *error = "unknown flag --" + name;
      return false;
    }
  }
  return true;
}

std::optional<std::string> Flags::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

bool ParsePort(const std::string& text, uint16_t* port) {
  unsigned v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v > 65535) return false;
  *port = static_cast<uint16_t>(v);
  return true;
}

}  // namespace pogi::cli
