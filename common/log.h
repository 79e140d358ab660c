// pogi's logger: one process-wide spdlog logger writing one line per event,
// as text or as one JSON object per line, to stderr or a file. This header
// stays free of spdlog and fmt so that including it costs nothing; log.cc
// is the one translation unit that compiles them (header-only, so the static
// binary links no shared library for logging).
//
// Thread-safe. Before Init() the logger writes text at info level to stderr.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pogi::log {

enum class Level { kError, kWarn, kInfo, kDebug };
enum class Format { kText, kJson };

struct Options {
  Level level = Level::kInfo;
  Format format = Format::kText;
  std::string file;  // empty: stderr
};

// Parses "error|warn|info|debug" and "text|json"; false when not one of them.
bool ParseLevel(std::string_view text, Level* level);
bool ParseFormat(std::string_view text, Format* format);

// Replaces the logger. Fails (keeping the old one) when the file cannot be
// opened for appending.
Status Init(const Options& options);

// Whether a line at `level` would be written.
bool Enabled(Level level);

// One field of a structured line: in text `key=value`, in JSON `"key": value`.
struct Field {
  enum class Kind { kString, kInt };
  Field(std::string_view k, std::string_view v) : key(k), kind(Kind::kString), text(v) {}
  Field(std::string_view k, const char* v) : key(k), kind(Kind::kString), text(v) {}
  Field(std::string_view k, const std::string& v) : key(k), kind(Kind::kString), text(v) {}
  Field(std::string_view k, int64_t v) : key(k), kind(Kind::kInt), number(v) {}
  Field(std::string_view k, int v) : key(k), kind(Kind::kInt), number(v) {}
  Field(std::string_view k, uint64_t v) : key(k), kind(Kind::kInt), number(static_cast<int64_t>(v)) {}

  std::string_view key;
  Kind kind;
  std::string_view text;
  int64_t number = 0;
};

// Writes one line when `level` is enabled. Fields with an empty string value
// are left out.
void Write(Level level, std::string_view message, std::initializer_list<Field> fields = {});

inline void Error(std::string_view m, std::initializer_list<Field> f = {}) { Write(Level::kError, m, f); }
inline void Warn(std::string_view m, std::initializer_list<Field> f = {}) { Write(Level::kWarn, m, f); }
inline void Info(std::string_view m, std::initializer_list<Field> f = {}) { Write(Level::kInfo, m, f); }
inline void Debug(std::string_view m, std::initializer_list<Field> f = {}) { Write(Level::kDebug, m, f); }

// Writes out what is buffered (before the process exits).
void Flush();

}  // namespace pogi::log
