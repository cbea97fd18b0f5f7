#include "fake_openai.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace llmtriage::bench::testing {
namespace {

std::string chunk(int64_t done, int64_t prompt, bool usage, int per_chunk) {
  nlohmann::json j = {{"id", "cmpl-1"}, {"object", "text_completion"},
                      {"choices", {{{"index", 0}, {"text", std::string(static_cast<size_t>(per_chunk), 'x')}, {"finish_reason", nullptr}}}}};
  if (usage) j["usage"] = {{"prompt_tokens", prompt}, {"completion_tokens", done}, {"total_tokens", prompt + done}};
  return j.dump();
}

// Streams the rest of the tokens from timers on the connection's loop.
// per_chunk 0: llama.cpp's shape (b10470): one token per chunk without usage, then a last chunk
// with an empty text, finish_reason, usage and the server's timings in one object.
void stream_step(std::shared_ptr<net::ResponseWriter> w, int64_t done, int64_t total, int64_t prompt, bool usage,
                 int per_chunk, int gap_ms) {
  if (w->closed()) return;
  if (done >= total && per_chunk == 0) {
    w->send_event(nlohmann::json({{"choices", {{{"index", 0}, {"text", ""}, {"finish_reason", "length"}}}},
                                  {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", total}}},
                                  {"timings", {{"cache_n", 2}, {"prompt_n", prompt - 2}, {"prompt_ms", 1.5},
                                               {"predicted_n", total}, {"predicted_ms", 9.25}}}})
                      .dump());
    w->send_event("[DONE]");
    w->finish();
    return;
  }
  if (done >= total) {
    w->send_event(nlohmann::json({{"choices", nlohmann::json::array()},
                                  {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", total}}}}).dump());
    w->send_event("[DONE]");
    w->finish();
    return;
  }
  const int64_t k = std::min<int64_t>(std::max(per_chunk, 1), total - done);
  w->send_event(chunk(done + k, prompt, usage, static_cast<int>(k)));
  w->post_after(net::Millis(gap_ms), [w, done, k, total, prompt, usage, per_chunk, gap_ms] {
    stream_step(w, done + k, total, prompt, usage, per_chunk, gap_ms);
  });
}

}  // namespace

FakeOpenAi::FakeOpenAi(int token_gap_ms) : gap_ms_(token_gap_ms) {
  server_.route("GET", "/metrics", [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    ++scrapes_;
    w->respond(200, "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{model_name=\"ok\"} 0\n"
                    "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"ok\"} 1\n",
               "text/plain; version=0.0.4");
  });
  server_.route("POST", "/v1/completions", [this](net::ServerRequest& req, std::shared_ptr<net::ResponseWriter> w) {
    auto j = nlohmann::json::parse(req.body, nullptr, false);
    SeenRequest s;
    if (j.is_object()) {
      s.model = j.value("model", "");
      if (j.contains("prompt") && j["prompt"].is_array()) s.prompt_ids = j["prompt"].size();
      s.max_tokens = j.value("max_tokens", int64_t{0});
      s.min_tokens = j.value("min_tokens", int64_t{0});
      s.ignore_eos = j.value("ignore_eos", false);
    }
    if (auto* a = req.header("Authorization")) s.authorization = *a;
    if (auto* id = req.header("X-Request-Id")) s.request_id = *id;
    {
      std::lock_guard lk(mu_);
      seen_.push_back(s);
    }
    const auto prompt = static_cast<int64_t>(s.prompt_ids);
    if (s.model == "429" || s.model == "503") {
      w->respond(std::stoi(s.model), R"({"error":{"message":"overloaded","type":"ServiceUnavailable"}})");
    } else if (s.model == "reset") {
      w->begin_sse();
      w->send_event(chunk(1, prompt, true, 1));
      w->send_event(chunk(2, prompt, true, 1));
      // Dropping the writer mid-stream cuts the connection (net/server.h).
    } else if (s.model == "malformed") {
      w->begin_sse();
      w->send_event(chunk(1, prompt, true, 1));
      w->send_event("{\"choices\": [ this is not json");
      w->send_event("[DONE]");
      w->finish();
    } else if (s.model == "stall") {
      w->begin_sse();
      w->send_event(chunk(1, prompt, true, 1));
      std::lock_guard lk(mu_);
      held_.push_back(w);
    } else {
      w->begin_sse();
      const bool usage = s.model != "ok-nousage" && s.model != "ok-llamacpp";
      const int per = s.model == "ok-multi" ? 3 : s.model == "ok-llamacpp" ? 0 : 1;
      stream_step(w, 0, std::max<int64_t>(1, s.max_tokens), prompt, usage, per, gap_ms_);
    }
  });
  auto st = server_.start();
  if (!st) throw std::runtime_error(st.error().message());
}

FakeOpenAi::~FakeOpenAi() {
  {
    std::lock_guard lk(mu_);
    for (auto& w : held_) w->finish();
    held_.clear();
  }
  server_.stop();
}

std::vector<SeenRequest> FakeOpenAi::seen() const {
  std::lock_guard lk(mu_);
  return seen_;
}

}  // namespace llmtriage::bench::testing
