#include "bench/openai.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ingest/records_json.h"

namespace llmtriage::bench {

namespace json = ingest::json;

const char* to_string(Api a) { return a == Api::chat ? "chat" : "completions"; }
const char* api_path(Api a) { return a == Api::chat ? "/v1/chat/completions" : "/v1/completions"; }

std::string build_body(const RequestSpec& spec, const BodyOptions& o) {
  nlohmann::json j;
  j["model"] = o.model;
  std::string text = spec.prompt_text;
  if (o.api == Api::completions) {
    if (!spec.prompt_ids.empty()) j["prompt"] = spec.prompt_ids;
    else j["prompt"] = text;
  } else {
    if (!spec.prompt_ids.empty()) {
      text.clear();
      for (auto id : spec.prompt_ids) text += fmt::format("{}t{}", text.empty() ? "" : " ", id);
    }
    j["messages"] = nlohmann::json::array({{{"role", "user"}, {"content", text}}});
  }
  j["max_tokens"] = spec.max_tokens;
  if (spec.pin_output) {
    j["min_tokens"] = spec.max_tokens;
    j["ignore_eos"] = true;
  }
  j["temperature"] = o.temperature;
  j["stream"] = true;
  j["stream_options"] = {{"include_usage", true}};
  if (o.continuous_usage) j["stream_options"]["continuous_usage_stats"] = true;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

bool nonempty_string(const json::Value& v) { return v.type == json::Type::string && !v.raw.empty(); }

void scan_choice(std::string_view obj, ChunkInfo& c) {
  json::ObjectScanner sc(obj);
  std::string_view k;
  json::Value v;
  while (sc.next(k, v)) {
    if (k == "text" && nonempty_string(v)) c.has_content = true;
    else if (k == "delta" && v.type == json::Type::object) {
      json::ObjectScanner d(v.raw);
      std::string_view dk;
      json::Value dv;
      while (d.next(dk, dv))
        if ((dk == "content" || dk == "reasoning_content") && nonempty_string(dv)) c.has_content = true;
    }
  }
}

void scan_usage(std::string_view obj, ChunkInfo& c) {
  json::ObjectScanner sc(obj);
  std::string_view k;
  json::Value v;
  while (sc.next(k, v)) {
    if (v.type != json::Type::number) continue;
    auto d = json::to_number(v);
    if (!d) continue;
    if (k == "completion_tokens") c.completion_tokens = static_cast<int64_t>(*d);
    else if (k == "prompt_tokens") c.prompt_tokens = static_cast<int64_t>(*d);
  }
}

void scan_timings(std::string_view obj, ChunkInfo& c) {
  json::ObjectScanner sc(obj);
  std::string_view k;
  json::Value v;
  while (sc.next(k, v)) {
    if (v.type != json::Type::number) continue;
    auto d = json::to_number(v);
    if (!d || !(*d >= 0)) continue;
    if (k == "prompt_ms") c.prompt_ms = *d;
    else if (k == "predicted_ms") c.predicted_ms = *d;
    else if (k == "prompt_n") c.prompt_n = static_cast<int64_t>(*d);
    else if (k == "cache_n") c.cache_n = static_cast<int64_t>(*d);
    else if (k == "predicted_n") c.predicted_n = static_cast<int64_t>(*d);
  }
}

}  // namespace

ChunkInfo parse_chunk(std::string_view data) {
  ChunkInfo c;
  size_t b = data.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos || data[b] != '{') return c;
  json::ObjectScanner sc(data.substr(b));
  std::string_view k;
  json::Value v;
  while (sc.next(k, v)) {
    if (k == "choices" && v.type == json::Type::array) {
      // The first choice (n = 1 is what the load generator sends).
      size_t p = v.raw.find_first_not_of(" \t\r\n", 1);
      if (p != std::string_view::npos && v.raw[p] == '{') {
        c.has_choices = true;
        scan_choice(v.raw.substr(p), c);
      }
    } else if (k == "usage" && v.type == json::Type::object) {
      scan_usage(v.raw, c);
    } else if (k == "timings" && v.type == json::Type::object) {
      scan_timings(v.raw, c);
    } else if (k == "error") {
      c.error = true;
      if (v.type == json::Type::object) {
        json::ObjectScanner e(v.raw);
        std::string_view ek;
        json::Value ev;
        while (e.next(ek, ev))
          if (ek == "message" && ev.type == json::Type::string) c.error_message = json::unescape(ev).substr(0, 200);
      } else if (v.type == json::Type::string) {
        c.error_message = json::unescape(v).substr(0, 200);
      }
    }
  }
  c.valid_json = sc.error().empty() && sc.rest().find_first_not_of(" \t\r\n") == std::string_view::npos;
  if (!c.valid_json) c.has_content = c.has_choices = false;
  return c;
}

}  // namespace llmtriage::bench
