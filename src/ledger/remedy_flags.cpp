// Reader of data/engines/remedy_flags.jsonl (the meaning of each field: the file's header and
// docs/ledger.md, "Remedies in each engine's words").
#include "ledger/remedy_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/files.h"

namespace llmtriage::ledger {
namespace {

using nlohmann::json;

// "--Max_Num-Seqs" -> "max-num-seqs" (also "-np" -> "np").
std::string flag_key(std::string_view s) {
  std::string out;
  size_t k = 0;
  while (k < s.size() && s[k] == '-') ++k;
  for (; k < s.size(); ++k) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[k])));
    out += c == '_' ? '-' : c;
  }
  return out;
}

const char* table_engine(core::EngineKind e) {
  switch (e) {
    case core::EngineKind::vllm:
    case core::EngineKind::vllm_v0: return "vllm";
    case core::EngineKind::sglang: return "sglang";
    case core::EngineKind::tgi: return "tgi";
    case core::EngineKind::trtllm: return "trtllm";
    case core::EngineKind::llamacpp: return "llamacpp";
    case core::EngineKind::ollama: return "ollama";
    case core::EngineKind::unknown: return "";
  }
  return "";
}

core::Error row_error(const std::string& where, int line, const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::input, fmt::format("{}:{}", where, line), expected, found);
}

}  // namespace

const std::vector<std::string>& remedy_flag_engines() {
  static const std::vector<std::string> e = {"vllm", "sglang", "tgi", "trtllm", "llamacpp", "ollama"};
  return e;
}

core::Result<std::vector<RemedyFlagRow>> parse_remedy_flags(std::string_view text, const std::string& where) {
  std::vector<RemedyFlagRow> rows;
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') {
      if (end == text.size()) break;
      continue;
    }
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return row_error(where, line_no, "a JSON object per line", "malformed JSON");
    RemedyFlagRow r;
    if (!j.contains("variable") || !j["variable"].is_string() || j["variable"].get<std::string>().empty())
      return row_error(where, line_no, "a \"variable\" name", "none");
    r.variable = j["variable"].get<std::string>();
    r.meaning = j.value("meaning", std::string());
    if (r.meaning.empty()) return row_error(where, line_no, "a \"meaning\" for " + r.variable, "none");
    if (auto a = j.find("aliases"); a != j.end() && a->is_array())
      for (const auto& x : *a)
        if (x.is_string()) r.aliases.push_back(flag_key(x.get<std::string>()));
    if (!j.contains("engines") || !j["engines"].is_object())
      return row_error(where, line_no, "an \"engines\" object for " + r.variable, "none");
    for (auto it = j["engines"].begin(); it != j["engines"].end(); ++it) {
      const json& e = it.value();
      EngineKnob k;
      if (!e.is_object() || !e.contains("flag") || !e["flag"].is_string() || e["flag"].get<std::string>().empty())
        return row_error(where, line_no, fmt::format("{}.{}: a \"flag\" (or \"none\")", r.variable, it.key()), e.dump());
      k.flag = e["flag"].get<std::string>();
      k.note = e.value("note", std::string());
      k.unit = e.value("unit", std::string());
      k.source = e.value("source", std::string());
      if (k.source.empty())
        return row_error(where, line_no, fmt::format("{}.{}: a \"source\"", r.variable, it.key()), "none");
      if (!k.exists() && k.note.empty())
        return row_error(where, line_no, fmt::format("{}.{}: a \"note\" saying what to do instead of a missing knob",
                                                     r.variable, it.key()),
                         "none");
      if (auto v = e.find("values"); v != e.end() && v->is_object())
        for (auto vi = v->begin(); vi != v->end(); ++vi)
          if (vi->is_string()) k.values[vi.key()] = vi->get<std::string>();
      r.engines[it.key()] = std::move(k);
    }
    for (const auto& name : remedy_flag_engines())
      if (!r.engines.count(name)) return row_error(where, line_no, fmt::format("{}: an entry for {}", r.variable, name), "none");
    for (const auto& [name, k] : r.engines)
      if (k.exists()) r.aliases.push_back(flag_key(k.flag));
    rows.push_back(std::move(r));
    if (end == text.size()) break;
  }
  if (rows.empty()) return core::make_error(core::ErrorKind::input, where, "at least one row", "none");
  return rows;
}

const core::Result<std::vector<RemedyFlagRow>>& remedy_flags() {
  static std::once_flag once;
  static core::Result<std::vector<RemedyFlagRow>> table = core::make_error(core::ErrorKind::internal, "", "", "");
  std::call_once(once, [] {
    const std::string path = core::data_dir() + "/engines/remedy_flags.jsonl";
    auto text = core::read_file(path);
    if (!text.ok()) table = text.error();
    else table = parse_remedy_flags(*text, path);
  });
  return table;
}

const RemedyFlagRow* find_remedy_flag(std::string_view variable_or_flag) {
  const auto& t = remedy_flags();
  if (!t.ok()) return nullptr;
  const std::string key = flag_key(variable_or_flag);
  for (const auto& r : *t)
    if (flag_key(r.variable) == key) return &r;
  for (const auto& r : *t)
    for (const auto& a : r.aliases)
      if (a == key) return &r;
  // A combined flag ("--cache-type-k/--cache-type-v", "-b/-ub") matches any of its parts.
  for (const auto& r : *t)
    for (const auto& a : r.aliases)
      if (a.find('/') != std::string::npos) {
        size_t start = 0;
        while (start <= a.size()) {
          size_t slash = a.find('/', start);
          if (flag_key(a.substr(start, slash == std::string::npos ? std::string::npos : slash - start)) == key) return &r;
          if (slash == std::string::npos) break;
          start = slash + 1;
        }
      }
  return nullptr;
}

LocalRemedy localize_remedy(std::string_view variable_or_flag, core::EngineKind engine, const std::string& to,
                            int64_t slots) {
  LocalRemedy out;
  out.to = to;
  const RemedyFlagRow* r = find_remedy_flag(variable_or_flag);
  const std::string e = table_engine(engine);
  if (!r || e.empty()) return out;
  auto it = r->engines.find(e);
  if (it == r->engines.end()) return out;
  const EngineKnob& k = it->second;
  out.known = true;
  out.exists = k.exists();
  out.flag = k.flag;
  out.note = k.note;
  out.meaning = r->meaning;
  if (auto v = k.values.find(to); v != k.values.end()) out.to = v->second;
  if (k.unit == "cells_total" && !to.empty()) {
    // llama.cpp -c counts the cells of every slot together.
    int64_t n = 0;
    bool digits = std::all_of(to.begin(), to.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (digits && to.size() < 15) n = std::stoll(to);
    if (n > 0 && slots > 0) out.to = std::to_string(n * slots);
    else if (n > 0) out.to = fmt::format("{} x slots (-np)", n);
  }
  return out;
}

std::string engine_flag(std::string_view variable, core::EngineKind engine, const std::string& fallback) {
  LocalRemedy l = localize_remedy(variable, engine);
  return l.known ? l.flag : fallback;
}

}  // namespace llmtriage::ledger
