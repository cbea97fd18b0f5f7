#include "bench/request_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/files.h"
#include "core/rng.h"
#include "ingest/records.h"

namespace llmtriage::bench {
namespace {

using core::ErrorKind;
using core::make_error;

// FNV-1a 64 (http://www.isthe.com/chongo/tech/comp/fnv/): stable across platforms, enough to
// tell two request sets apart (not a security hash).
struct Fnv {
  uint64_t h = 0xcbf29ce484222325ULL;
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      h ^= c[i];
      h *= 0x100000001b3ULL;
    }
  }
  void i64(int64_t v) { bytes(&v, sizeof v); }  // little-endian hosts only (x86-64, arm64)
  void str(const std::string& s) {
    i64(static_cast<int64_t>(s.size()));
    bytes(s.data(), s.size());
  }
};

int64_t jitter(core::Rng& rng, int64_t len, double ratio) {
  if (ratio <= 0) return len;
  const auto lo = std::max<int64_t>(1, static_cast<int64_t>(std::floor(len * (1 - ratio))));
  const auto hi = std::max<int64_t>(lo, static_cast<int64_t>(std::ceil(len * (1 + ratio))));
  return rng.uniform_int(lo, hi);
}

std::string word(core::Rng& rng) {
  // Pseudo-words from a fixed syllable table: deterministic, ASCII, about one token each.
  static const char* syl[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "zu", "fa"};
  std::string w = syl[rng.uniform_int(0, 11)];
  w += syl[rng.uniform_int(0, 11)];
  return w;
}

void fill_ids(core::Rng& rng, std::vector<int32_t>& ids, int64_t n, int64_t vocab) {
  for (int64_t i = 0; i < n; ++i) ids.push_back(static_cast<int32_t>(rng.uniform_int(100, std::max<int64_t>(101, vocab - 1))));
}

void shuffle_take(std::vector<RequestSpec>& v, uint64_t seed, int64_t n) {
  if (n <= 0 || n >= static_cast<int64_t>(v.size())) return;
  core::Rng rng(seed);
  for (size_t i = v.size() - 1; i > 0; --i) std::swap(v[i], v[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i)))]);
  v.resize(static_cast<size_t>(n));
}

int64_t word_count(const std::string& s) {
  int64_t n = 0;
  bool in = false;
  for (char c : s) {
    const bool sp = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!sp && !in) ++n;
    in = !sp;
  }
  return n;
}

RequestSet finish(RequestSet s) {
  for (size_t i = 0; i < s.requests.size(); ++i)
    if (s.requests[i].id.empty()) s.requests[i].id = std::to_string(i);
  s.hash = hash_request_set(s);
  return s;
}

}  // namespace

int64_t estimate_tokens(const std::string& text) {
  return std::max<int64_t>(1, (word_count(text) * 4 + 2) / 3);
}

std::string hash_request_set(const RequestSet& set) {
  Fnv f;
  f.i64(static_cast<int64_t>(set.requests.size()));
  for (const auto& r : set.requests) {
    f.str(r.id);
    f.i64(static_cast<int64_t>(r.prompt_ids.size()));
    if (!r.prompt_ids.empty()) f.bytes(r.prompt_ids.data(), r.prompt_ids.size() * sizeof(int32_t));
    f.str(r.prompt_text);
    f.i64(r.input_tokens);
    f.i64(r.max_tokens);
    f.i64(r.pin_output ? 1 : 0);
    // Arrival times are part of a replay set: microsecond resolution, so printing round trips.
    f.i64(r.arrival_s ? static_cast<int64_t>(std::llround(*r.arrival_s * 1e6)) : -1);
  }
  return fmt::format("fnv1a64:{:016x}", f.h);
}

core::Result<RequestSet> synthetic_set(const SyntheticOptions& o) {
  if (o.num_requests <= 0) return make_error(ErrorKind::usage, "--num-requests", "a count > 0", std::to_string(o.num_requests));
  if (o.input_len <= 0) return make_error(ErrorKind::usage, "--input-len", "tokens > 0", std::to_string(o.input_len));
  if (o.output_len <= 0) return make_error(ErrorKind::usage, "--output-len", "tokens > 0", std::to_string(o.output_len));
  if (o.range_ratio < 0 || o.range_ratio >= 1)
    return make_error(ErrorKind::usage, "--range-ratio", "a fraction in [0, 1)", fmt::format("{}", o.range_ratio));
  if (o.prefix_groups > 0 && (o.prefix_len <= 0 || o.prefix_len >= o.input_len))
    return make_error(ErrorKind::usage, "--prefix-len", "tokens in (0, --input-len) with --prefix-groups",
                      std::to_string(o.prefix_len));
  RequestSet s;
  s.source = o.prefix_groups > 0 ? "prefix" : "random";
  s.seed = o.seed;
  core::Rng rng(o.seed);
  // Group prefixes first, from their own stream, so the prefixes do not depend on the count.
  std::vector<std::vector<int32_t>> pids(static_cast<size_t>(std::max<int64_t>(0, o.prefix_groups)));
  std::vector<std::string> ptext(pids.size());
  core::Rng prng(core::mix64(o.seed, 0x5052454649ULL));
  for (size_t g = 0; g < pids.size(); ++g) {
    if (o.text)
      for (int64_t i = 0; i < o.prefix_len; ++i) ptext[g] += (i ? " " : "") + word(prng);
    else
      fill_ids(prng, pids[g], o.prefix_len, o.vocab_size);
  }
  for (int64_t i = 0; i < o.num_requests; ++i) {
    RequestSpec r;
    r.input_tokens = jitter(rng, o.input_len, o.range_ratio);
    r.max_tokens = jitter(rng, o.output_len, o.range_ratio);
    r.pin_output = true;
    int64_t fresh = r.input_tokens;
    if (!pids.empty()) {
      r.prefix_group = static_cast<int>(i % static_cast<int64_t>(pids.size()));
      fresh = std::max<int64_t>(1, r.input_tokens - o.prefix_len);
      r.input_tokens = o.prefix_len + fresh;
    }
    if (o.text) {
      if (r.prefix_group >= 0) r.prompt_text = ptext[static_cast<size_t>(r.prefix_group)];
      for (int64_t k = 0; k < fresh; ++k) r.prompt_text += (r.prompt_text.empty() ? "" : " ") + word(rng);
    } else {
      if (r.prefix_group >= 0) r.prompt_ids = pids[static_cast<size_t>(r.prefix_group)];
      fill_ids(rng, r.prompt_ids, fresh, o.vocab_size);
    }
    s.requests.push_back(std::move(r));
  }
  return finish(std::move(s));
}

core::Result<RequestSet> sharegpt_set(const std::string& path, const FileSetOptions& o) {
  auto text = core::read_file(path);
  if (!text) return std::move(text).error();
  nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array())
    return make_error(ErrorKind::input, path, "a ShareGPT JSON array of {\"conversations\": [...]}",
                      doc.is_discarded() ? "invalid JSON" : "not an array");
  RequestSet s;
  s.source = "sharegpt:" + path;
  s.seed = o.seed;
  size_t idx = 0;
  for (const auto& item : doc) {
    ++idx;
    if (!item.is_object() || !item.contains("conversations") || !item["conversations"].is_array()) continue;
    const auto& conv = item["conversations"];
    if (conv.size() < 2 || !conv[0].is_object() || !conv[1].is_object()) continue;  // vLLM also needs a reply
    auto prompt = conv[0].value("value", std::string());
    auto reply = conv[1].value("value", std::string());
    if (prompt.empty()) continue;
    if (o.max_input_words > 0 && word_count(prompt) > o.max_input_words) continue;
    RequestSpec r;
    r.id = item.contains("id") && item["id"].is_string() ? item["id"].get<std::string>() : std::to_string(idx - 1);
    r.prompt_text = std::move(prompt);
    r.input_tokens = estimate_tokens(r.prompt_text);
    r.max_tokens = o.output_len > 0 ? o.output_len : estimate_tokens(reply);
    r.pin_output = o.pin_output;
    s.requests.push_back(std::move(r));
  }
  if (s.requests.empty())
    return make_error(ErrorKind::input, path, "conversations with a prompt and a reply", "none");
  shuffle_take(s.requests, o.seed, o.num_requests);
  return finish(std::move(s));
}

core::Result<RequestSet> jsonl_prompt_set(const std::string& path, const FileSetOptions& o) {
  auto text = core::read_file(path);
  if (!text) return std::move(text).error();
  RequestSet s;
  s.source = "jsonl:" + path;
  s.seed = o.seed;
  std::istringstream in(*text);
  std::string line;
  int64_t n = 0, bad = 0, first_bad = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    std::string prompt;
    if (j.is_object()) {
      if (j.contains("prompt") && j["prompt"].is_string()) prompt = j["prompt"].get<std::string>();
      else if (j.contains("text") && j["text"].is_string()) prompt = j["text"].get<std::string>();
    }
    if (prompt.empty()) {
      if (!bad++) first_bad = n;
      continue;
    }
    RequestSpec r;
    r.id = j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : std::to_string(n - 1);
    r.prompt_text = std::move(prompt);
    r.input_tokens = estimate_tokens(r.prompt_text);
    int64_t out = o.output_len;
    if (out <= 0) {
      for (const char* k : {"output_len", "max_tokens"})
        if (j.contains(k) && j[k].is_number_integer()) out = j[k].get<int64_t>();
    }
    r.max_tokens = out > 0 ? out : 128;
    r.pin_output = o.pin_output;
    s.requests.push_back(std::move(r));
  }
  if (s.requests.empty())
    return make_error(ErrorKind::input, path, "JSON lines with a \"prompt\" string",
                      bad ? fmt::format("{} unusable lines (first: line {})", bad, first_bad) : "no lines");
  shuffle_take(s.requests, o.seed, o.num_requests);
  return finish(std::move(s));
}

core::Result<RequestSet> replay_set(const std::string& path, int64_t vocab_size, uint64_t seed, int64_t num_requests) {
  auto rd = ingest::read_records_file(path);
  if (!rd) return std::move(rd).error();
  std::vector<core::RequestRecord> recs = std::move(rd->records);
  std::stable_sort(recs.begin(), recs.end(), [](const auto& a, const auto& b) { return a.arrival_s < b.arrival_s; });
  if (recs.empty()) return make_error(ErrorKind::input, path, "request records", "none");
  RequestSet s;
  s.source = "replay:" + path;
  s.seed = seed;
  core::Rng rng(seed);
  const double t0 = recs.front().arrival_s;
  int64_t missing = 0;
  for (const auto& rec : recs) {
    if (num_requests > 0 && static_cast<int64_t>(s.requests.size()) >= num_requests) break;
    if (!rec.input_tokens || (!rec.output_tokens && !rec.max_tokens)) {
      ++missing;
      continue;
    }
    RequestSpec r;
    r.id = rec.id;
    r.input_tokens = std::max<int64_t>(1, *rec.input_tokens);
    r.max_tokens = std::max<int64_t>(1, rec.output_tokens ? *rec.output_tokens : *rec.max_tokens);
    r.pin_output = true;
    r.arrival_s = rec.arrival_s - t0;
    fill_ids(rng, r.prompt_ids, r.input_tokens, vocab_size);
    s.requests.push_back(std::move(r));
  }
  if (s.requests.empty())
    return make_error(ErrorKind::input, path, "records with input_tokens and output_tokens",
                      fmt::format("{} records, none with both", missing));
  return finish(std::move(s));
}

std::string to_jsonl(const RequestSet& set) {
  std::string out = nlohmann::json{{"schema", "llmtriage.requestset.v1"}, {"source", set.source},
                                   {"seed", set.seed}, {"count", set.requests.size()}, {"hash", set.hash}}
                        .dump() + "\n";
  for (const auto& r : set.requests) {
    nlohmann::json j = {{"id", r.id}, {"input_tokens", r.input_tokens}, {"max_tokens", r.max_tokens},
                        {"pin_output", r.pin_output}};
    if (!r.prompt_ids.empty()) j["prompt_ids"] = r.prompt_ids;
    else j["prompt"] = r.prompt_text;
    if (r.arrival_s) j["arrival_s"] = std::llround(*r.arrival_s * 1e6) / 1e6;
    if (r.prefix_group >= 0) j["prefix_group"] = r.prefix_group;
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  return out;
}

core::Result<RequestSet> load_saved_set(const std::string& path) {
  auto text = core::read_file(path);
  if (!text) return std::move(text).error();
  std::istringstream in(*text);
  std::string line;
  RequestSet s;
  std::string want;
  int64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) return make_error(ErrorKind::input, fmt::format("{}:{}", path, n), "a JSON object", "invalid JSON");
    if (n == 1) {
      if (j.value("schema", "") != "llmtriage.requestset.v1")
        return make_error(ErrorKind::input, path + ":1", "a header with schema llmtriage.requestset.v1 (--save-requests output)",
                          line.substr(0, 80));
      s.source = j.value("source", "");
      s.seed = j.value("seed", uint64_t{0});
      want = j.value("hash", "");
      continue;
    }
    RequestSpec r;
    try {
      r.id = j.at("id").get<std::string>();
      r.input_tokens = j.at("input_tokens").get<int64_t>();
      r.max_tokens = j.at("max_tokens").get<int64_t>();
      r.pin_output = j.value("pin_output", false);
      if (j.contains("prompt_ids")) r.prompt_ids = j["prompt_ids"].get<std::vector<int32_t>>();
      else r.prompt_text = j.at("prompt").get<std::string>();
      if (j.contains("arrival_s")) r.arrival_s = j["arrival_s"].get<double>();
      r.prefix_group = j.value("prefix_group", -1);
    } catch (const std::exception& e) {
      return make_error(ErrorKind::input, fmt::format("{}:{}", path, n), "a request spec", e.what());
    }
    s.requests.push_back(std::move(r));
  }
  s.hash = hash_request_set(s);
  if (!want.empty() && want != s.hash)
    return make_error(ErrorKind::input, path, "content matching the header's hash " + want, s.hash,
                      "the file was edited after --save-requests");
  return s;
}

}  // namespace llmtriage::bench
