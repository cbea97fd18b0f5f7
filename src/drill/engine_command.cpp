#include "drill/engine_command.h"

#include <algorithm>

namespace llmtriage::drill {
namespace {

core::Error template_error(const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::usage, "--engine-cmd", expected, found);
}

}  // namespace

std::vector<std::string> placeholders(const std::string& tmpl) {
  std::vector<std::string> out;
  for (size_t p = tmpl.find('{'); p != std::string::npos; p = tmpl.find('{', p + 1)) {
    const size_t e = tmpl.find('}', p);
    if (e == std::string::npos) break;
    std::string name = tmpl.substr(p + 1, e - p - 1);
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

core::Result<std::vector<std::string>> expand_command(const std::string& tmpl,
                                                      const std::map<std::string, std::string>& vars) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const char ch = tmpl[i];
    if (quote) {
      if (ch == quote) quote = 0;
      else cur += ch;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = true;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
      continue;
    }
    cur += ch;
    in_word = true;
  }
  if (quote) return template_error("balanced quotes", std::string("an unclosed ") + quote + " in: " + tmpl);
  if (in_word) words.push_back(std::move(cur));
  if (words.empty()) return template_error("an engine command line (the server binary and its flags)", "an empty template");
  for (auto& w : words) {
    std::string out;
    for (size_t p = 0; p < w.size();) {
      const size_t b = w.find('{', p);
      if (b == std::string::npos) {
        out += w.substr(p);
        break;
      }
      const size_t e = w.find('}', b);
      if (e == std::string::npos) return template_error("{name} placeholders", "an unclosed '{' in '" + w + "'");
      out += w.substr(p, b - p);
      const std::string name = w.substr(b + 1, e - b - 1);
      auto it = vars.find(name);
      if (it == vars.end()) {
        std::string known;
        for (const auto& [k, v] : vars) known += (known.empty() ? "" : ", ") + ("{" + k + "}");
        return template_error("placeholders among " + known, "{" + name + "}");
      }
      out += it->second;
      p = e + 1;
    }
    w = std::move(out);
  }
  return words;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    s += a.find_first_of(" \t") == std::string::npos && !a.empty() ? a : "'" + a + "'";
  }
  return s;
}

}  // namespace llmtriage::drill
