#include "core/error.h"

namespace llmtriage::core {

std::string Error::message() const {
  std::string out;
  if (!where.empty()) out += where + ": ";
  if (!expected.empty()) {
    out += "expected " + expected;
    if (!found.empty()) out += ", found " + found;
  } else if (!found.empty()) {
    out += found;
  }
  if (!detail.empty()) {
    if (!expected.empty() || !found.empty()) out += ". ";
    out += detail;
  }
  return out;
}

Error make_error(ErrorKind kind, std::string where, std::string expected, std::string found,
                 std::string detail) {
  return Error{kind, std::move(where), std::move(expected), std::move(found), std::move(detail)};
}

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::usage: return "usage";
    case ErrorKind::input: return "input";
    case ErrorKind::not_found: return "not_found";
    case ErrorKind::network: return "network";
    case ErrorKind::internal: return "internal";
  }
  return "internal";
}

}  // namespace llmtriage::core
