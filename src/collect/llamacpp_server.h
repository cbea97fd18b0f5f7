#pragma once
// llama.cpp server endpoints beside /metrics: /props (slot count, per-slot context, build),
// /slots (per-slot state: busy, prompt tokens processed and cached, tokens decoded) and the
// "meta" object of /v1/models. Read because llama.cpp's /metrics has no KV-cache gauge and no
// capacity: the queue can only be judged against the slot count (docs/llamacpp.md).
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "collect/snapshot.h"
#include "core/result.h"

namespace llmtriage::collect {

// GET /props. A body without total_slots is not a llama.cpp /props (an error naming what was found).
core::Result<ServerProps> parse_llamacpp_props(std::string_view body, const std::string& source);
// Adds what /v1/models' "meta" says (n_ctx is per slot there; n_ctx_train, n_params, size).
void merge_llamacpp_models_meta(const nlohmann::json& models_body, ServerProps& props);
// GET /slots (an array of slot objects).
core::Result<SlotsSample> parse_llamacpp_slots(std::string_view body, double t_s, const std::string& source);

nlohmann::json to_json(const ServerProps& p);
ServerProps server_props_from_json(const nlohmann::json& j);
nlohmann::json to_json(const SlotsSample& s);
SlotsSample slots_sample_from_json(const nlohmann::json& j);

}  // namespace llmtriage::collect
