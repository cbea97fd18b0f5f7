#include "collect/llamacpp_server.h"

#include <nlohmann/json.hpp>

namespace llmtriage::collect {
namespace {

using nlohmann::json;

template <typename T>
std::optional<T> int_at(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!(v >= 0) || v > 9.0e15) return std::nullopt;  // negative or absurd: not a count
  return static_cast<T>(v);
}

std::string str_at(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string kind_of(const json& j) {
  if (j.is_array()) return "a JSON array";
  if (j.is_object()) return "a JSON object without total_slots";
  return "not JSON";
}

}  // namespace

int SlotsSample::busy() const {
  int n = 0;
  for (const auto& s : slots) n += s.processing ? 1 : 0;
  return n;
}

core::Result<ServerProps> parse_llamacpp_props(std::string_view body, const std::string& source) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("total_slots"))
    return core::make_error(core::ErrorKind::input, source, "llama.cpp /props (a JSON object with total_slots)",
                            j.is_discarded() ? std::string("not JSON") : kind_of(j));
  ServerProps p;
  p.source = source;
  p.total_slots = int_at<int>(j, "total_slots");
  if (auto d = j.find("default_generation_settings"); d != j.end() && d->is_object())
    p.ctx_per_slot = int_at<int64_t>(*d, "n_ctx");
  p.build = str_at(j, "build_info");
  p.model_path = str_at(j, "model_path");
  p.model_ftype = str_at(j, "model_ftype");
  return p;
}

void merge_llamacpp_models_meta(const json& body, ServerProps& p) {
  if (!body.is_object() || !body.contains("data") || !body["data"].is_array()) return;
  for (const auto& m : body["data"]) {
    if (!m.is_object() || !m.contains("meta") || !m["meta"].is_object()) continue;
    const json& meta = m["meta"];
    if (!p.ctx_per_slot) p.ctx_per_slot = int_at<int64_t>(meta, "n_ctx");
    if (!p.ctx_train) p.ctx_train = int_at<int64_t>(meta, "n_ctx_train");
    if (!p.n_params) p.n_params = int_at<int64_t>(meta, "n_params");
    if (!p.model_bytes) p.model_bytes = int_at<int64_t>(meta, "size");
    return;  // one model per llama-server process
  }
}

core::Result<SlotsSample> parse_llamacpp_slots(std::string_view body, double t_s, const std::string& source) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_array())
    return core::make_error(core::ErrorKind::input, source, "llama.cpp /slots (a JSON array of slots)",
                            j.is_discarded() ? std::string("not JSON") : std::string("a JSON ") + j.type_name());
  SlotsSample out;
  out.t_s = t_s;
  for (const auto& e : j) {
    if (!e.is_object()) continue;
    SlotState s;
    s.id = int_at<int>(e, "id").value_or(static_cast<int>(out.slots.size()));
    s.n_ctx = int_at<int64_t>(e, "n_ctx").value_or(0);
    s.processing = e.value("is_processing", false);
    s.n_prompt_tokens = int_at<int64_t>(e, "n_prompt_tokens");
    s.n_prompt_tokens_processed = int_at<int64_t>(e, "n_prompt_tokens_processed");
    s.n_prompt_tokens_cache = int_at<int64_t>(e, "n_prompt_tokens_cache");
    // next_token is an array of one object per sequence in the slot (n_cmpl > 1 gives several).
    if (auto nt = e.find("next_token"); nt != e.end() && nt->is_array() && !nt->empty() && (*nt)[0].is_object()) {
      s.n_decoded = int_at<int64_t>((*nt)[0], "n_decoded");
      s.n_remain = int_at<int64_t>((*nt)[0], "n_remain");
    }
    out.slots.push_back(s);
  }
  return out;
}

json to_json(const ServerProps& p) {
  json j = {{"source", p.source}, {"build", p.build}, {"model_path", p.model_path}, {"model_ftype", p.model_ftype}};
  if (p.total_slots) j["total_slots"] = *p.total_slots;
  if (p.ctx_per_slot) j["ctx_per_slot"] = *p.ctx_per_slot;
  if (p.ctx_train) j["ctx_train"] = *p.ctx_train;
  if (p.n_params) j["n_params"] = *p.n_params;
  if (p.model_bytes) j["model_bytes"] = *p.model_bytes;
  return j;
}

ServerProps server_props_from_json(const json& j) {
  ServerProps p;
  if (!j.is_object()) return p;
  p.source = str_at(j, "source");
  p.build = str_at(j, "build");
  p.model_path = str_at(j, "model_path");
  p.model_ftype = str_at(j, "model_ftype");
  p.total_slots = int_at<int>(j, "total_slots");
  p.ctx_per_slot = int_at<int64_t>(j, "ctx_per_slot");
  p.ctx_train = int_at<int64_t>(j, "ctx_train");
  p.n_params = int_at<int64_t>(j, "n_params");
  p.model_bytes = int_at<int64_t>(j, "model_bytes");
  return p;
}

json to_json(const SlotsSample& s) {
  json slots = json::array();
  for (const auto& x : s.slots) {
    json e = {{"id", x.id}, {"n_ctx", x.n_ctx}, {"processing", x.processing}};
    auto put = [&](const char* k, const std::optional<int64_t>& v) {
      if (v) e[k] = *v;
    };
    put("n_prompt_tokens", x.n_prompt_tokens);
    put("n_prompt_tokens_processed", x.n_prompt_tokens_processed);
    put("n_prompt_tokens_cache", x.n_prompt_tokens_cache);
    put("n_decoded", x.n_decoded);
    put("n_remain", x.n_remain);
    slots.push_back(std::move(e));
  }
  return {{"t_s", s.t_s}, {"slots", std::move(slots)}};
}

SlotsSample slots_sample_from_json(const json& j) {
  SlotsSample s;
  if (!j.is_object()) return s;
  if (j.contains("t_s") && j["t_s"].is_number()) s.t_s = j["t_s"].get<double>();
  for (const auto& e : j.value("slots", json::array())) {
    if (!e.is_object()) continue;
    SlotState x;
    x.id = int_at<int>(e, "id").value_or(0);
    x.n_ctx = int_at<int64_t>(e, "n_ctx").value_or(0);
    x.processing = e.value("processing", false);
    x.n_prompt_tokens = int_at<int64_t>(e, "n_prompt_tokens");
    x.n_prompt_tokens_processed = int_at<int64_t>(e, "n_prompt_tokens_processed");
    x.n_prompt_tokens_cache = int_at<int64_t>(e, "n_prompt_tokens_cache");
    x.n_decoded = int_at<int64_t>(e, "n_decoded");
    x.n_remain = int_at<int64_t>(e, "n_remain");
    s.slots.push_back(x);
  }
  return s;
}

}  // namespace llmtriage::collect
