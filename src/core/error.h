#pragma once
// Errors as values. An Error says what was expected, what was found and where, so that a user
// reading it at 3 a.m. can fix the input without reading our code.
#include <string>
#include <utility>

namespace llmtriage::core {

enum class ErrorKind {
  usage,        // bad flag or flag combination (exit 2)
  input,        // unreadable or malformed input file, bad value in a config (exit 2)
  not_found,    // a catalog lookup, a file, an endpoint path that does not exist (exit 2)
  network,      // connection refused, timeout, reset (reported; exit 2 if nothing could be read)
  internal,     // a bug in llmtriage: always reported with context
};

struct Error {
  ErrorKind kind = ErrorKind::input;
  std::string where;     // "file.json:12", "--max-model-len", "http://host:8000/metrics"
  std::string expected;  // "a number in (0, 1]"
  std::string found;     // "1.5"
  std::string detail;    // free text: hints, closest matches, the escape hatch

  // One line: "<where>: expected <expected>, found <found>. <detail>"
  std::string message() const;
};

Error make_error(ErrorKind kind, std::string where, std::string expected, std::string found,
                 std::string detail = {});

const char* to_string(ErrorKind kind);

}  // namespace llmtriage::core
