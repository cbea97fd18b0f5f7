#include "sim/outputs.h"

#include <filesystem>

#include "core/files.h"

namespace llmtriage::sim {

namespace {
template <typename T>
void put(nlohmann::json& j, const char* k, const std::optional<T>& v) {
  if (v) j[k] = *v;
}
}  // namespace

nlohmann::json record_to_json(const core::RequestRecord& r) {
  nlohmann::json j;
  j["id"] = r.id;
  j["arrival_s"] = r.arrival_s;
  put(j, "send_s", r.send_s);
  put(j, "input_tokens", r.input_tokens);
  put(j, "output_tokens", r.output_tokens);
  put(j, "ttft_s", r.ttft_s);
  put(j, "e2e_s", r.e2e_s);
  if (!r.chunk_times_s.empty()) j["chunk_times_s"] = r.chunk_times_s;
  if (!r.chunk_tokens.empty()) j["chunk_tokens"] = r.chunk_tokens;
  if (!r.itl_s.empty()) j["itl_s"] = r.itl_s;
  j["status"] = r.status == core::RequestStatus::ok ? "ok" : "error";
  if (!r.error_category.empty()) j["error_category"] = r.error_category;
  if (!r.model.empty()) j["model"] = r.model;
  put(j, "max_tokens", r.max_tokens);
  put(j, "temperature", r.temperature);
  put(j, "top_p", r.top_p);
  put(j, "n", r.n);
  put(j, "ignore_eos", r.ignore_eos);
  put(j, "queue_s", r.queue_s);
  return j;
}

nlohmann::json sample_to_json(const core::EngineSample& s) {
  nlohmann::json j;
  j["t_s"] = s.t_s;
  j["engine"] = core::to_string(s.engine);
  j["model_name"] = s.model_name;
  j["engine_index"] = s.engine_index;
  put(j, "running", s.running);
  put(j, "waiting", s.waiting);
  put(j, "kv_usage", s.kv_usage);
  put(j, "preemptions_total", s.preemptions_total);
  put(j, "prompt_tokens_total", s.prompt_tokens_total);
  put(j, "generation_tokens_total", s.generation_tokens_total);
  put(j, "requests_finished_total", s.requests_finished_total);
  put(j, "prefix_cache_queries_total", s.prefix_cache_queries_total);
  put(j, "prefix_cache_hits_total", s.prefix_cache_hits_total);
  put(j, "kv_cache_capacity_tokens", s.kv_cache_capacity_tokens);
  return j;
}

nlohmann::json event_to_json(const core::Event& e) {
  nlohmann::json j;
  put(j, "t_s", e.t_s);
  j["kind"] = core::to_string(e.kind);
  j["source"] = e.source;
  j["text"] = e.text;
  if (!e.fields.empty()) j["fields"] = e.fields;
  if (!e.labels.empty()) j["labels"] = e.labels;
  return j;
}

core::Result<RecordsRead> read_records_jsonl(const std::string& path) {
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  RecordsRead out;
  size_t line_no = 0, pos = 0;
  const std::string& t = *text;
  while (pos < t.size()) {
    size_t end = t.find('\n', pos);
    if (end == std::string::npos) end = t.size();
    const std::string_view line(t.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto bad = [&](const std::string& why) {
      ++out.malformed;
      if (out.first_errors.size() < 5) out.first_errors.push_back(path + ":" + std::to_string(line_no) + ": " + why);
    };
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { bad("not a JSON object"); continue; }
    auto num = [&](const char* k) -> const nlohmann::json* {
      auto it = j.find(k);
      return it != j.end() && it->is_number() ? &*it : nullptr;
    };
    const auto* a = num("arrival_s");
    const auto* in = num("input_tokens");
    const auto* o = num("output_tokens");
    if (!a || !in || !o) { bad("expected numbers arrival_s, input_tokens, output_tokens"); continue; }
    core::RequestRecord r;
    r.id = j.value("id", "line-" + std::to_string(line_no));
    r.arrival_s = a->get<double>();
    r.input_tokens = in->get<int64_t>();
    r.output_tokens = o->get<int64_t>();
    if (const auto* m = num("max_tokens")) r.max_tokens = m->get<int64_t>();
    out.records.push_back(std::move(r));
  }
  if (out.records.empty())
    return core::make_error(core::ErrorKind::input, path, "request records with arrival_s, input_tokens, output_tokens",
                            std::to_string(out.malformed) + " malformed lines and no usable record");
  return out;
}

core::Status write_outputs(const std::string& dir, const SimResult& r, const nlohmann::json& summary) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return core::make_error(core::ErrorKind::input, "--out " + dir, "a folder that can be created", ec.message());
  std::string buf;
  for (const auto& x : r.records) buf += record_to_json(x).dump() + "\n";
  if (auto s = core::write_file_atomic(dir + "/records.jsonl", buf); !s.ok()) return s;
  buf.clear();
  for (const auto& x : r.samples) buf += sample_to_json(x).dump() + "\n";
  if (auto s = core::write_file_atomic(dir + "/engine_samples.jsonl", buf); !s.ok()) return s;
  buf.clear();
  for (const auto& x : r.log_lines) buf += x + "\n";
  if (auto s = core::write_file_atomic(dir + "/engine.log", buf); !s.ok()) return s;
  buf.clear();
  for (const auto& x : r.events) buf += event_to_json(x).dump() + "\n";
  if (auto s = core::write_file_atomic(dir + "/events.jsonl", buf); !s.ok()) return s;
  return core::write_file_atomic(dir + "/summary.json", summary.dump(2) + "\n");
}

}  // namespace llmtriage::sim
