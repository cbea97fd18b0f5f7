#pragma once
// The line prefix of every engine's log format, parsed without regex: timestamp (with or without
// year, date, time zone), level, process tag, and where the message starts. The prefix's shape
// also hints at the engine (vLLM "INFO 01-09 09:53:39 [file.py:12]", SGLang "[2025-01-01
// 10:00:00 TP0]", TGI "2025-01-01T10:00:00.123Z  INFO target:", Ollama "time=... level=...",
// llama.cpp JSON or bare "srv  ..." lines).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/engine_settings.h"

namespace llmtriage::ingest {

struct LogTime {
  int year = 0;         // 0 = not stated (vLLM prints MM-DD only)
  int month = 0;        // 0 = no date at all
  int day = 0;
  int hour = 0, minute = 0;
  double second = 0;
  std::optional<int> tz_offset_s;  // stated zone; none = unknown (read as UTC)
  std::optional<double> unix_s;    // when the source gives epoch seconds directly
  std::optional<double> elapsed_s; // when the source gives time since start (llama.cpp)
  bool valid = false;
};

enum class LogLevel { none, trace, debug, info, warning, error, critical };

struct LogPrefix {
  LogTime time;
  LogLevel level = LogLevel::none;
  std::string_view process;   // "EngineCore_DP0", "APIServer", "TP0", "DP1 TP0", "" when none
  std::string_view message;   // the rest of the line
  core::EngineKind hint = core::EngineKind::unknown;
  bool recognized = false;    // some known prefix shape matched
};

// `line` must be free of ANSI codes (see logtext::strip_ansi). Views point into `line`.
LogPrefix parse_prefix(std::string_view line);

// Seconds since 1970-01-01 of a civil date (proleptic Gregorian), UTC.
int64_t days_from_civil(int y, int m, int d);

}  // namespace llmtriage::ingest
