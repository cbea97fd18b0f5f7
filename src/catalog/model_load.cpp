// Finding a model: a path to a config.json, a folder holding one, or a bundled HF id.
// Bundled files (data/models/*.json) are config.json facts plus an "_llmtriage" object:
// {"id", "aliases", "sources", "extra_params", "extra_params_note", "notes"}.
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>

#include "catalog/gguf.h"
#include "catalog/model.h"
#include "catalog/names.h"
#include "core/files.h"

namespace llmtriage::catalog {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Bundled {
  std::string id;
  std::vector<std::string> names;  // normalized id and aliases
  std::string path;
};

const std::vector<Bundled>& bundled() {
  static std::once_flag once;
  static std::vector<Bundled> out;
  std::call_once(once, [] {
    std::error_code ec;
    fs::path dir = fs::path(core::data_dir()) / "models";
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json") continue;
      auto text = core::read_file(e.path().string());
      if (!text.ok()) continue;
      json j = json::parse(*text, nullptr, false);
      if (j.is_discarded() || !j.contains("_llmtriage")) continue;
      const json& meta = j["_llmtriage"];
      Bundled b;
      b.id = meta.value("id", std::string());
      if (b.id.empty()) continue;
      b.path = e.path().string();
      b.names.push_back(normalize_model_id(b.id));
      if (auto a = meta.find("aliases"); a != meta.end() && a->is_array())
        for (const auto& x : *a)
          if (x.is_string()) b.names.push_back(normalize_model_id(x.get<std::string>()));
      out.push_back(std::move(b));
    }
    std::sort(out.begin(), out.end(), [](const Bundled& a, const Bundled& b) { return a.id < b.id; });
  });
  return out;
}

core::Result<ModelArch> load_file(const std::string& path, const std::string& id) {
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  auto m = parse_model_config(*text, path);
  if (!m.ok()) return m;
  m->id = id;
  json j = json::parse(*text, nullptr, false);
  if (!j.is_discarded() && j.contains("_llmtriage")) {
    const json& meta = j["_llmtriage"];
    m->id = meta.value("id", id);
    m->extra_params = meta.value("extra_params", int64_t{0});
    m->extra_params_note = meta.value("extra_params_note", std::string());
  }
  return m;
}

// A GGUF file: the header only (catalog/gguf.h), never the weights.
core::Result<ModelArch> load_gguf(const std::string& path, const std::string& id) {
  auto h = read_gguf_file(path);
  if (!h.ok()) return h.error();
  return model_from_gguf(*h, id, path);
}

std::string tail(const std::string& s) {
  auto p = s.rfind('/');
  return p == std::string::npos ? s : s.substr(p + 1);
}

}  // namespace

std::vector<std::string> bundled_model_ids() {
  std::vector<std::string> ids;
  for (const auto& b : bundled()) ids.push_back(b.id);
  return ids;
}

core::Result<ModelArch> load_model(const std::string& id_or_path) {
  if (id_or_path.empty())
    return core::make_error(core::ErrorKind::usage, "--model", "a Hugging Face id or a path to config.json", "nothing");
  std::error_code ec;
  fs::path p(id_or_path);
  if (fs::is_directory(p, ec)) {
    if (fs::exists(p / "config.json", ec)) return load_file((p / "config.json").string(), id_or_path);
    std::vector<std::string> ggufs;
    for (const auto& e : fs::directory_iterator(p, ec))
      if (e.is_regular_file(ec) && looks_like_gguf(e.path().string())) ggufs.push_back(e.path().string());
    if (ggufs.size() == 1) return load_gguf(ggufs.front(), id_or_path);
    return core::make_error(core::ErrorKind::not_found, id_or_path, "a folder holding config.json (or one .gguf file)",
                            ggufs.empty() ? "a folder without one" : std::to_string(ggufs.size()) + " .gguf files");
  }
  if (fs::is_regular_file(p, ec)) {
    if (looks_like_gguf(p.string())) return load_gguf(p.string(), id_or_path);
    return load_file(p.string(), id_or_path);
  }
  if (id_or_path.size() > 5 && looks_like_gguf(id_or_path))  // a .gguf path that is not there
    return core::make_error(core::ErrorKind::not_found, "--model", "an existing GGUF file", id_or_path, "No such file.");

  const std::string q = normalize_model_id(id_or_path);
  for (const auto& b : bundled())
    for (const auto& n : b.names)
      if (n == q) return load_file(b.path, b.id);
  // Without the org prefix: "Llama-3.1-8B-Instruct".
  if (q.find('/') == std::string::npos) {
    for (const auto& b : bundled())
      for (const auto& n : b.names)
        if (tail(n) == q) return load_file(b.path, b.id);
  }
  std::vector<std::string> names;
  for (const auto& b : bundled()) names.push_back(normalize_model_id(b.id));
  std::string hint;
  for (const auto& c : closest(q, names)) {
    for (const auto& b : bundled())
      if (normalize_model_id(b.id) == c) hint += (hint.empty() ? "" : ", ") + b.id;
  }
  bool looks_like_path = id_or_path.find(".json") != std::string::npos || id_or_path.rfind("/", 0) == 0 ||
                         id_or_path.rfind(".", 0) == 0;
  return core::make_error(
      core::ErrorKind::not_found, "--model",
      looks_like_path ? "an existing config.json or folder" : "a model in the bundled catalog (data/models/) or a path to its config.json",
      id_or_path,
      (looks_like_path ? std::string("No such file. ") : std::string()) + "Closest bundled models: " + hint +
          ". For any other model, download its config.json and pass the path.");
}

}  // namespace llmtriage::catalog
