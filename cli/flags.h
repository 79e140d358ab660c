// A small command-line flag parser: "--name value", "--name=value" and
// boolean "--name". Unknown flags are errors, so typos do not pass silently.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pogi::cli {

class Flags {
 public:
  // `valued` flags take a value; `switches` do not.
  Flags(std::set<std::string> valued, std::set<std::string> switches)
      : valued_(std::move(valued)), switches_(std::move(switches)) {}

  // Parses args (without the program and subcommand names). On error returns
  // false and sets *error to a one-line message.
  bool Parse(const std::vector<std::string>& args, std::string* error);

  std::optional<std::string> Get(const std::string& name) const;
  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::set<std::string> valued_, switches_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// Parses a TCP port (0..65535). False if `text` is not one.
bool ParsePort(const std::string& text, uint16_t* port);

}  // namespace pogi::cli
