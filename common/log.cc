// The logger behind common/log.h, on spdlog (header-only, with fmt
// header-only): spdlog owns the sinks, the level filter, the time stamp and
// the locking; this file renders the message and its fields as text
// (logfmt-style key=value) or as the body of one JSON object.
#define SPDLOG_LEVEL_NAMES \
  { "trace", "debug", "info", "warn", "error", "critical", "off" }

#include "common/log.h"

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdio>
#include <memory>

namespace pogi::log {
namespace {

// Text: "2026-12-01T09:30:00.123Z info message key=value".
// JSON: {"time":"2026-12-01T09:30:00.123Z","level":"info","message":"...","key":value}
// where %v is what Render() writes after the level.
constexpr const char* kTextPattern = "%Y-%m-%dT%H:%M:%S.%eZ %l %v";
constexpr const char* kJsonPattern = "{\"time\":\"%Y-%m-%dT%H:%M:%S.%eZ\",\"level\":\"%l\",%v}";

struct State {
  std::shared_ptr<spdlog::logger> logger;
  Format format = Format::kText;
};

std::shared_ptr<spdlog::logger> MakeLogger(spdlog::sink_ptr sink, Format format, Level level) {
  auto logger = std::make_shared<spdlog::logger>("pogi", std::move(sink));
  logger->set_formatter(std::make_unique<spdlog::pattern_formatter>(
      format == Format::kJson ? kJsonPattern : kTextPattern, spdlog::pattern_time_type::utc));
  spdlog::level::level_enum l = level == Level::kError  ? spdlog::level::err
                                : level == Level::kWarn ? spdlog::level::warn
                                : level == Level::kInfo ? spdlog::level::info
                                                        : spdlog::level::debug;
  logger->set_level(l);
  // A line is written out when it is logged: pogi's lines are few (start-up,
  // shutdown, errors) unless --log-requests asks for one per request, and a
  // line lost to kill -9 is the one that would have explained it.
  logger->flush_on(spdlog::level::debug);
  return logger;
}

State& Current() {
  static State state{
      MakeLogger(std::make_shared<spdlog::sinks::stderr_sink_mt>(), Format::kText, Level::kInfo),
      Format::kText};
  return state;
}

spdlog::level::level_enum ToSpd(Level level) {
  switch (level) {
    case Level::kError:
      return spdlog::level::err;
    case Level::kWarn:
      return spdlog::level::warn;
    case Level::kInfo:
      return spdlog::level::info;
    case Level::kDebug:
      return spdlog::level::debug;
  }
  return spdlog::level::info;
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

// A text value is quoted (JSON-style) when it would not read back as one
// token: empty, or holding a space, '=', '"' or a control character.
void AppendTextValue(std::string_view s, std::string* out) {
  bool plain = !s.empty();
  for (unsigned char c : s) {
    if (c <= ' ' || c == '=' || c == '"' || c == 0x7f) plain = false;
  }
  if (plain) {
    out->append(s);
  } else {
    AppendJsonString(s, out);
  }
}

std::string Render(Format format, std::string_view message, std::initializer_list<Field> fields) {
  std::string out;
  out.reserve(message.size() + 32 * fields.size() + 16);
  if (format == Format::kJson) {
    out.append("\"message\":");
    AppendJsonString(message, &out);
  } else {
    out.append(message);
  }
  for (const Field& f : fields) {
    if (f.kind == Field::Kind::kString && f.text.empty()) continue;
    if (format == Format::kJson) {
      out.push_back(',');
      AppendJsonString(f.key, &out);
      out.push_back(':');
      if (f.kind == Field::Kind::kInt) {
        out.append(std::to_string(f.number));
      } else {
        AppendJsonString(f.text, &out);
      }
    } else {
      out.push_back(' ');
      out.append(f.key);
      out.push_back('=');
      if (f.kind == Field::Kind::kInt) {
        out.append(std::to_string(f.number));
      } else {
        AppendTextValue(f.text, &out);
      }
    }
  }
  return out;
}

}  // namespace

bool ParseLevel(std::string_view text, Level* level) {
  if (text == "error") {
    *level = Level::kError;
  } else if (text == "warn") {
    *level = Level::kWarn;
  } else if (text == "info") {
    *level = Level::kInfo;
  } else if (text == "debug") {
    *level = Level::kDebug;
  } else {
    return false;
  }
  return true;
}

bool ParseFormat(std::string_view text, Format* format) {
  if (text == "text") {
    *format = Format::kText;
  } else if (text == "json") {
    *format = Format::kJson;
  } else {
    return false;
  }
  return true;
}

Status Init(const Options& options) {
  spdlog::sink_ptr sink;
  if (options.file.empty()) {
    sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  } else {
    try {
      sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(options.file, /*truncate=*/false);
    } catch (const spdlog::spdlog_ex& e) {
      return Error::Internal("cannot open log file " + options.file + ": " + e.what());
    }
  }
  State& state = Current();
  state.logger = MakeLogger(std::move(sink), options.format, options.level);
  state.format = options.format;
  return Status::Ok();
}

bool Enabled(Level level) { return Current().logger->should_log(ToSpd(level)); }

void Write(Level level, std::string_view message, std::initializer_list<Field> fields) {
  State& state = Current();
  spdlog::level::level_enum l = ToSpd(level);
  if (!state.logger->should_log(l)) return;
  std::string line = Render(state.format, message, fields);
  state.logger->log(l, spdlog::string_view_t(line.data(), line.size()));
}

void Flush() { Current().logger->flush(); }

}  // namespace pogi::log
