#include "serve/openai.h"

#include "core/rng.h"

#include <cmath>
#include <stdexcept>

#include "serve/tokenizer.h"

namespace llmtriage::serve {

namespace {

uint64_t hash_text(std::string_view s, uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}


// A prompt given as a token-id array: its length and a content hash.
bool token_array(const nlohmann::json& j, Prompt& p) {
  if (!j.is_array() || j.empty()) return false;
  uint64_t h = 1469598103934665603ULL;
  auto keys = std::make_shared<std::vector<uint64_t>>();
  keys->reserve(j.size());
  for (const auto& t : j) {
    if (!t.is_number_integer()) return false;
    const uint64_t k = core::splitmix64_mix(static_cast<uint64_t>(t.get<int64_t>()) + 0x51ed27ULL);
    keys->push_back(k);
    h = core::splitmix64_mix(h ^ static_cast<uint64_t>(t.get<int64_t>()));
  }
  p.tokens = static_cast<int32_t>(j.size());
  p.content_key = h | 1;
  p.token_keys = std::move(keys);
  return true;
}

Prompt text_prompt(std::string_view s) {
  Prompt p{std::max<int32_t>(1, count_tokens(s)), hash_text(s) | 1, nullptr};
  auto keys = std::make_shared<std::vector<uint64_t>>();
  keys->reserve(static_cast<size_t>(p.tokens));
  for (size_t i = 0; i < s.size(); i += 4) keys->push_back(hash_text(s.substr(i, 4)));
  p.token_keys = std::move(keys);
  return p;
}

}  // namespace

std::string error_body(const ApiError& e) {
  nlohmann::json j = {{"error", {{"message", e.message}, {"type", e.type}, {"param", nullptr}, {"code", e.status}}}};
  if (!e.param.empty()) j["error"]["param"] = e.param;
  return j.dump();
}

ApiError bad_request(std::string message, std::string param) {
  return ApiError{400, "BadRequestError", std::move(message), std::move(param)};
}

core::Result<GenRequest> parse_gen_request(std::string_view body, bool chat, ApiError& err) {
  auto fail = [&](std::string msg, std::string param = {}) -> core::Result<GenRequest> {
    err = bad_request(msg, param);
    return core::Error{core::ErrorKind::input, "request body", "a valid request", "", msg};
  };
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) return fail("Invalid JSON in the request body: expected a JSON object");
  if (!j.is_object()) return fail("The request body must be a JSON object");
  GenRequest r;
  r.chat = chat;
  try {
    if (j.contains("model") && !j["model"].is_null()) {
      if (!j["model"].is_string()) return fail("'model' must be a string", "model");
      r.model = j["model"].get<std::string>();
    }
    if (chat) {
      if (!j.contains("messages") || !j["messages"].is_array() || j["messages"].empty())
        return fail("'messages' must be a non-empty array", "messages");
      std::string all;
      int32_t tokens = 3;  // assistant header of the chat template
      // Token keys in template order: each message's header, then its text; the assistant header last.
      auto keys = std::make_shared<std::vector<uint64_t>>();
      auto text_keys = [&](const std::string& t) {
        for (size_t i = 0; i < t.size(); i += 4) keys->push_back(hash_text(std::string_view(t).substr(i, 4)));
      };
      for (const auto& m : j["messages"]) {
        if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
          return fail("each message needs a string 'role'", "messages");
        tokens += 4;  // role header + end-of-turn of the template
        for (uint64_t k = 0; k < 4; ++k) keys->push_back(core::splitmix64_mix(hash_text(m["role"].get_ref<const std::string&>()) + k));
        all += m["role"].get<std::string>();
        all += '\x1e';
        const auto& c = m.contains("content") ? m["content"] : nlohmann::json();
        if (c.is_string()) {
          tokens += count_tokens(c.get_ref<const std::string&>());
          all += c.get<std::string>();
          text_keys(c.get_ref<const std::string&>());
        } else if (c.is_array()) {
          for (const auto& part : c)
            if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string()) {
              tokens += count_tokens(part["text"].get_ref<const std::string&>());
              all += part["text"].get<std::string>();
              text_keys(part["text"].get_ref<const std::string&>());
            }
        } else if (!c.is_null()) {
          return fail("message 'content' must be a string or an array of content parts", "messages");
        }
        all += '\x1f';
      }
      for (uint64_t k = 0; k < 3; ++k) keys->push_back(core::splitmix64_mix(0xa551574a47ULL + k));
      r.prompts.push_back({tokens, hash_text(all) | 1, std::move(keys)});
    } else {
      if (!j.contains("prompt")) return fail("'prompt' is required", "prompt");
      const auto& p = j["prompt"];
      Prompt one;
      if (p.is_string()) r.prompts.push_back(text_prompt(p.get_ref<const std::string&>()));
      else if (token_array(p, one)) r.prompts.push_back(one);
      else if (p.is_array() && !p.empty()) {
        for (const auto& e : p) {
          if (e.is_string()) r.prompts.push_back(text_prompt(e.get_ref<const std::string&>()));
          else if (token_array(e, one)) r.prompts.push_back(one);
          else return fail("'prompt' must be a string, an array of strings, or token-id arrays", "prompt");
        }
      } else {
        return fail("'prompt' must be a string, an array of strings, or token-id arrays", "prompt");
      }
    }
    auto opt_int = [&](const char* k) -> std::optional<int64_t> {
      if (!j.contains(k) || j[k].is_null()) return std::nullopt;
      if (!j[k].is_number_integer()) throw std::invalid_argument(std::string("'") + k + "' must be an integer");
      return j[k].get<int64_t>();
    };
    auto opt_num = [&](const char* k) -> std::optional<double> {
      if (!j.contains(k) || j[k].is_null()) return std::nullopt;
      if (!j[k].is_number()) throw std::invalid_argument(std::string("'") + k + "' must be a number");
      return j[k].get<double>();
    };
    auto opt_bool = [&](const nlohmann::json& o, const char* k) -> bool {
      if (!o.contains(k) || o[k].is_null()) return false;
      if (!o[k].is_boolean()) throw std::invalid_argument(std::string("'") + k + "' must be a boolean");
      return o[k].get<bool>();
    };
    r.max_tokens = opt_int("max_tokens");
    if (chat && !r.max_tokens) r.max_tokens = opt_int("max_completion_tokens");
    if (r.max_tokens && *r.max_tokens < 1) return fail("max_tokens must be at least 1, got " + std::to_string(*r.max_tokens) + ".", "max_tokens");
    r.min_tokens = opt_int("min_tokens").value_or(0);
    if (r.min_tokens < 0) return fail("min_tokens must be greater than or equal to 0, got " + std::to_string(r.min_tokens) + ".", "min_tokens");
    if (r.max_tokens && r.min_tokens > *r.max_tokens)
      return fail("min_tokens must be less than or equal to max_tokens=" + std::to_string(*r.max_tokens) + ", got " +
                  std::to_string(r.min_tokens) + ".", "min_tokens");
    r.ignore_eos = opt_bool(j, "ignore_eos");
    r.n = static_cast<int>(opt_int("n").value_or(1));
    if (r.n < 1 || r.n > 128) return fail("n must be between 1 and 128, got " + std::to_string(r.n) + ".", "n");
    r.temperature = opt_num("temperature").value_or(1.0);
    if (r.temperature < 0 || r.temperature > 2) return fail("temperature must be in [0, 2], got " + std::to_string(r.temperature) + ".", "temperature");
    r.top_p = opt_num("top_p").value_or(1.0);
    if (r.top_p <= 0 || r.top_p > 1) return fail("top_p must be in (0, 1], got " + std::to_string(r.top_p) + ".", "top_p");
    r.seed = opt_int("seed");
    if (j.contains("stop") && !j["stop"].is_null()) {
      const auto& s = j["stop"];
      if (s.is_string()) r.stop.push_back(s.get<std::string>());
      else if (s.is_array()) {
        for (const auto& e : s) {
          if (!e.is_string()) return fail("'stop' must be a string or an array of strings", "stop");
          if (!e.get_ref<const std::string&>().empty()) r.stop.push_back(e.get<std::string>());
        }
      } else {
        return fail("'stop' must be a string or an array of strings", "stop");
      }
    }
    r.stream = opt_bool(j, "stream");
    if (j.contains("stream_options") && !j["stream_options"].is_null()) {
      const auto& so = j["stream_options"];
      if (!so.is_object()) return fail("'stream_options' must be an object", "stream_options");
      if (!r.stream) return fail("Stream options can only be defined when `stream=True`.", "stream_options");
      r.include_usage = opt_bool(so, "include_usage");
      r.continuous_usage = opt_bool(so, "continuous_usage_stats");
    }
    if (!chat) r.echo = opt_bool(j, "echo");
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return r;
}

ChoicePlan plan_choice(const GenRequest& r, const Prompt& p, int index, int64_t max_tokens, uint64_t request_salt) {
  ChoicePlan c;
  // Greedy (temperature 0): the same output for the same prompt. Seeded: the same output for
  // the same (seed, prompt, choice). Otherwise a fresh draw per request.
  uint64_t s = p.content_key;
  if (r.temperature > 0) s = core::splitmix64_mix(s ^ (r.seed ? core::splitmix64_mix(static_cast<uint64_t>(*r.seed) + 0x51) : request_salt));
  if (r.temperature > 0) s = core::splitmix64_mix(s + static_cast<uint64_t>(index));
  c.text_seed = s;
  int64_t len = max_tokens;
  c.finish_reason = "length";
  if (!r.ignore_eos) {
    const double u = static_cast<double>(core::splitmix64_mix(s ^ 0xe05) >> 11) * 0x1.0p-53;  // [0,1)
    const auto natural = std::max<int64_t>(std::max<int64_t>(1, r.min_tokens), static_cast<int64_t>(std::ceil(-256.0 * std::log1p(-u))));
    if (natural < max_tokens) {
      len = natural;
      c.finish_reason = "stop";  // EOS
    }
  }
  c.output_tokens = static_cast<int32_t>(std::max<int64_t>(1, len));
  if (!r.stop.empty()) {
    // The first stop string completed by token k (k >= min_tokens) ends the output there; the
    // text is cut before the stop string (vLLM's default, include_stop_str_in_output=false).
    std::string text;
    const int32_t limit = c.output_tokens;
    for (int32_t k = 0; k < limit; ++k) {
      const size_t before = text.size();
      text += vocabulary_word(generated_token(s, k));
      if (k + 1 < r.min_tokens) continue;
      size_t best = std::string::npos;
      std::string which;
      for (const auto& st : r.stop) {
        const size_t from = before >= st.size() ? before - st.size() + 1 : 0;
        const size_t at = text.find(st, from);
        if (at != std::string::npos && at < best) best = at, which = st;
      }
      if (best != std::string::npos) {
        c.output_tokens = k + 1;
        c.finish_reason = "stop";
        c.stop_reason = which;
        c.last_piece = best > before ? text.substr(before, best - before) : std::string();
        // A stop string starting in an earlier token: that text was already streamed; vLLM
        // holds back text that may start a stop string, we only cut the final token.
        break;
      }
    }
  }
  return c;
}

std::string token_text(const ChoicePlan& c, int32_t k) {
  if (k == c.output_tokens - 1 && !c.stop_reason.empty()) return c.last_piece;
  return vocabulary_word(generated_token(c.text_seed, k));
}

nlohmann::json usage_json(int64_t prompt, int64_t completion) {
  return {{"prompt_tokens", prompt}, {"total_tokens", prompt + completion}, {"completion_tokens", completion},
          {"prompt_tokens_details", nullptr}};
}

}  // namespace llmtriage::serve
