// Snapshot -> core::Evidence, so that every analyzer reads a snapshot like any other source.
#include <algorithm>

#include "collect/snapshot.h"

namespace llmtriage::collect {

core::Evidence snapshot_to_evidence(const Snapshot& s, const std::string& path) {
  core::Evidence ev;
  ev.deployment.engine = s.engine;
  ev.deployment.engine_version = s.engine_version;
  if (s.engine_settings) {
    ev.deployment.settings = *s.engine_settings;
    if (s.engine_settings->model) ev.deployment.model = *s.engine_settings->model;
  }
  // llama.cpp's own settings (GET /props) over anything assumed: the slot count caps the running
  // batch as max-num-seqs does on vLLM, and the per-slot context is the longest request served.
  if (s.server) {
    auto& st = ev.deployment.settings;
    if (s.server->total_slots && !st.max_num_seqs) st.max_num_seqs = *s.server->total_slots;
    if (s.server->ctx_per_slot && !st.max_model_len) st.max_model_len = *s.server->ctx_per_slot;
    if (ev.deployment.model.empty() && !s.server->model_path.empty()) ev.deployment.model = s.server->model_path;
    if (ev.deployment.engine_version.empty()) ev.deployment.engine_version = s.server->build;
  }
  if (ev.deployment.model.empty() && !s.models.empty()) ev.deployment.model = s.models.front().root.empty() ? s.models.front().id : s.models.front().root;
  // The server's own context length (vLLM/SGLang /v1/models max_model_len) over the model's
  // default: the ledger's verdicts (max_model_len_exceeds_kv) must judge what the server runs.
  if (!ev.deployment.settings.max_model_len) {
    const ModelInfo* served = nullptr;
    for (const auto& m : s.models)
      if (m.max_model_len && (!served || m.id == ev.deployment.model || m.root == ev.deployment.model)) served = &m;
    if (served) ev.deployment.settings.max_model_len = *served->max_model_len;
  }
  if (!s.gpu_samples.empty()) {
    ev.deployment.gpu = s.gpu_samples.front().name;
    int n = 0;
    for (const auto& g : s.gpus) n = std::max(n, g.index + 1);
    ev.deployment.num_gpus = n;
  }
  size_t ok = 0, bad = 0;
  for (const auto& sc : s.scrapes) {
    if (!sc.ok) {
      ++bad;
      continue;
    }
    ++ok;
    for (const auto& e : sc.engine_samples) {
      ev.engine_samples.push_back(e);
      if (ev.deployment.model.empty() && !e.model_name.empty()) ev.deployment.model = e.model_name;
    }
  }
  ev.gpu_samples = s.gpu_samples;
  std::string src = path.empty() ? (s.endpoint.empty() ? std::string("snapshot") : s.endpoint) : path;
  core::InputNote note;
  note.source = src;
  note.kind = "snapshot";
  note.ok = ok > 0;
  note.note = std::to_string(ok) + " scrape(s) of " + core::to_string(s.engine) +
              (bad ? ", " + std::to_string(bad) + " failed" : std::string()) +
              (s.complete ? "" : "; capture incomplete (interrupted or endpoint lost)");
  ev.inputs.push_back(note);
  if (!s.gpu_source.empty())
    ev.inputs.push_back({src, "gpu", !s.gpu_samples.empty(),
                         s.gpu_source + (s.gpu_note.empty() ? "" : ": " + s.gpu_note)});
  if (s.server) {
    std::string n = s.server->total_slots ? std::to_string(*s.server->total_slots) + " slots" : std::string("slots unknown");
    if (s.server->ctx_per_slot) n += " of " + std::to_string(*s.server->ctx_per_slot) + " tokens";
    if (!s.slots.empty()) n += "; " + std::to_string(s.slots.size()) + " /slots sample(s)";
    ev.inputs.push_back({s.server->source, "props", true, n});
  }
  for (const auto& f : s.failures) ev.inputs.push_back({f.source, f.what, false, f.error});
  return ev;
}

}  // namespace llmtriage::collect
