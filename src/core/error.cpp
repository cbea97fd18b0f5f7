#include "core/error.h"

#include "core/text_escape.h"

namespace llmtriage::core {

std::string Error::message() const {
  std::string out;
  if (!where.empty()) out += where + ": ";
  // `found` is usually an excerpt of the input: escaped, so a binary or hostile file cannot put
  // control bytes on the terminal through an error message.
  if (!expected.empty()) {
    out += "expected " + expected;
    if (!found.empty()) out += ", found " + printable(found);
  } else if (!found.empty()) {
    out += printable(found);
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
