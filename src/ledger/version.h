#pragma once
// Engine versions, enough to pick the accounting that applies ("0.19.0", "v0.15.2rc1.dev93+g11a4c9d",
// "0.14.1 (reporter: 0.11.2 worked)"). An empty or unparseable version means "the newest modelled".
#include <string>

namespace llmtriage::ledger {

struct EngineVersion {
  int major = 0, minor = 0, patch = 0;
  bool known = false;  // false: newest accounting assumed
  // True when this version is at least a.b.c (an unknown version counts as newest).
  bool at_least(int a, int b, int c = 0) const;
  std::string str() const;
};

EngineVersion parse_version(const std::string& text);

}  // namespace llmtriage::ledger
