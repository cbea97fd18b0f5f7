#include "inputs/text_files.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/files.h"

namespace llmtriage::inputs {
namespace {

core::Result<std::vector<std::string>> lines_of(const std::string& path) {
  auto text = core::read_file(path);
  if (!text) return std::move(text).error();
  std::vector<std::string> out;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

// The response text of one JSON object, when it has one.
std::optional<std::string> text_of(const nlohmann::json& j) {
  for (const char* k : {"text", "output", "content", "response", "generated_text"})
    if (j.contains(k) && j[k].is_string()) return j[k].get<std::string>();
  // An OpenAI response body: choices[0].text or choices[0].message.content.
  if (j.contains("choices") && j["choices"].is_array() && !j["choices"].empty()) {
    const auto& c = j["choices"][0];
    if (c.contains("text") && c["text"].is_string()) return c["text"].get<std::string>();
    if (c.contains("message") && c["message"].is_object() && c["message"].contains("content") &&
        c["message"]["content"].is_string())
      return c["message"]["content"].get<std::string>();
  }
  return std::nullopt;
}

}  // namespace

core::Result<std::vector<std::string>> read_outputs_file(const std::string& path) {
  auto lines = lines_of(path);
  if (!lines) return std::move(lines).error();
  std::vector<std::string> out;
  for (const auto& line : *lines) {
    if (trim(line).empty()) continue;
    if (line.front() == '{') {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_discarded() && j.is_object())
        if (auto text = text_of(j)) {
          out.push_back(std::move(*text));
          continue;
        }
    }
    out.push_back(line);
  }
  return out;
}

std::vector<Reading> read_readings_files(const std::vector<std::string>& paths, std::vector<core::InputNote>& notes) {
  std::vector<Reading> out;
  for (const auto& path : paths) {
    auto lines = lines_of(path);
    if (!lines) {
      std::string why = lines.error().message();
      if (why.rfind(path + ": ", 0) == 0) why = why.substr(path.size() + 2);  // the note names the file
      notes.push_back({path, "observe", false, why});
      continue;
    }
    size_t n = 0;
    for (size_t i = 0; i < lines->size(); ++i) {
      std::string l = (*lines)[i];
      if (auto h = l.find('#'); h != std::string::npos) l = l.substr(0, h);
      l = trim(l);
      if (l.empty()) continue;
      out.push_back({path + ":" + std::to_string(i + 1), l});
      ++n;
    }
    notes.push_back({path, "observe", n > 0,
                     n > 0 ? fmt::format("{} {}", n, n == 1 ? "reading" : "readings") : "no NAME=VALUE line in it"});
  }
  return out;
}

}  // namespace llmtriage::inputs
