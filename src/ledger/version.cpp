#include "ledger/version.h"

#include <cctype>
#include <cstdlib>

namespace llmtriage::ledger {

bool EngineVersion::at_least(int a, int b, int c) const {
  if (!known) return true;
  if (major != a) return major > a;
  if (minor != b) return minor > b;
  return patch >= c;
}

std::string EngineVersion::str() const {
  if (!known) return "newest";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

EngineVersion parse_version(const std::string& text) {
  EngineVersion v;
  size_t i = 0;
  while (i < text.size() && !std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (text[i] != 'v' && text[i] != 'V' && text[i] != ' ') return v;
    ++i;
  }
  int parts[3] = {0, 0, 0};
  int n = 0;
  while (n < 3 && i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    int x = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) x = x * 10 + (text[i++] - '0');
    parts[n++] = x;
    if (i < text.size() && text[i] == '.') ++i;
    else break;
  }
  if (n < 2) return v;
  v.major = parts[0];
  v.minor = parts[1];
  v.patch = parts[2];
  v.known = true;
  return v;
}

}  // namespace llmtriage::ledger
