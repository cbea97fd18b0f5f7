#include "bench/export.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "core/files.h"
#include "core/units.h"

namespace llmtriage::bench {
namespace {

nlohmann::json stats_ms(const core::Summary& s) {
  if (s.count == 0) return {{"count", 0}};
  return {{"count", s.count}, {"mean", s.mean * 1e3}, {"median", s.p50 * 1e3}, {"p50", s.p50 * 1e3},
          {"p90", s.p90 * 1e3}, {"p95", s.p95 * 1e3}, {"p99", s.p99 * 1e3}, {"p99.9", s.p999 * 1e3},
          {"min", s.min * 1e3}, {"max", s.max * 1e3}};
}

std::string line_ms(const char* name, const core::Summary& s, const char* note = "") {
  if (s.count == 0) return fmt::format("  {:<18} none{}\n", name, note);
  return fmt::format("  {:<18} mean {:>8.2f}  p50 {:>8.2f}  p90 {:>8.2f}  p95 {:>8.2f}  p99 {:>8.2f}  p99.9 {:>8.2f} ms  (n={}){}\n",
                     name, s.mean * 1e3, s.p50 * 1e3, s.p90 * 1e3, s.p95 * 1e3, s.p99 * 1e3, s.p999 * 1e3, s.count, note);
}

}  // namespace

nlohmann::json json_summary(const RunSummary& s, const RunMeta& m) {
  nlohmann::json j;
  j["schema"] = "llmtriage.bench.v1";
  j["client_bound"] = s.client_bound;
  j["client_bound_reasons"] = s.client_bound_reasons;
  j["completed"] = s.completed;
  j["failed"] = s.failed;
  j["not_sent"] = s.not_sent;
  j["cut"] = s.cut;
  j["partial"] = s.cut > 0 || s.not_sent > 0 || s.deadline_hit || m.interrupted || s.server_lost_at_s.has_value();
  if (s.server_lost_at_s) j["server_lost"] = {{"at_s", *s.server_lost_at_s}, {"failed_after", s.failed_after_loss}};
  j["warmup"] = s.warmup;
  j["total"] = s.total;
  j["errors_by_category"] = s.errors_by_category;
  j["request_set_hash"] = m.request_set_hash;
  if (!m.schedule_hash.empty()) j["schedule_hash"] = m.schedule_hash;
  j["seed"] = m.seed;
  j["target_rate"] = s.target_rate;
  j["schedule_rate"] = s.schedule_rate;
  j["realized_rate"] = s.realized_rate;
  j["ttft_ms"] = stats_ms(s.ttft_s);
  j["tpot_ms"] = stats_ms(s.tpot_s);
  j["itl_ms"] = stats_ms(s.itl_token_s);
  j["itl_level"] = "token";
  j["itl_chunk_ms"] = stats_ms(s.itl_chunk_s);
  j["itl_token_unavailable"] = s.itl_token_unavailable;
  j["e2e_ms"] = stats_ms(s.e2e_s);
  j["ttft_outside_server_ms"] = stats_ms(s.ttft_outside_server_s);
  j["client_queue_ms"] = stats_ms(s.queue_s);
  j["dispatch_lag_ms"] = stats_ms(s.dispatch_lag_s);
  j["loop_lag_ms"] = stats_ms(m.loop_lag_s);
  j["duration_s"] = s.duration_s;
  j["request_throughput"] = s.request_throughput;
  j["output_throughput"] = s.output_throughput;
  j["total_token_throughput"] = s.total_throughput;
  j["input_tokens"] = s.input_tokens;
  j["output_tokens"] = s.output_tokens;
  j["goodput"] = {{"slo", s.slo.to_string()}, {"good", s.goodput.good}, {"attainment_pct", s.goodput.attainment_pct},
                  {"request_rate", s.goodput.request_rate}, {"token_rate", s.goodput.token_rate}};
  j["token_count_disagreements"] = {{"count", s.token_disagreements}, {"first_ids", s.token_disagreement_ids}};
  j["output_len_mismatch"] = s.output_len_mismatch;
  j["server_saturated"] = s.server_saturated;
  j["saturation_reasons"] = s.saturation_reasons;
  j["deadline_hit"] = s.deadline_hit;
  j["interrupted"] = m.interrupted;
  j["run"] = {{"endpoint", m.endpoint}, {"model", m.model}, {"api", m.api}, {"dataset", m.dataset},
              {"mode", m.mode}, {"burstiness", m.burstiness}, {"concurrency", m.concurrency},
              {"num_requests", m.num_requests}, {"warmup", m.warmup}, {"start_unix_s", m.start_unix_s},
              {"wall_s", m.wall_s}, {"connections_opened", m.connections_opened}};
  if (!m.run_tag.empty()) j["run"]["run_tag"] = m.run_tag;
  if (m.ramp_to) j["run"]["ramp_to"] = *m.ramp_to;
  if (m.max_concurrency) j["run"]["max_concurrency"] = *m.max_concurrency;
  j["config"] = m.config;
  if (!m.consequences.empty()) j["consequences"] = m.consequences;
  return j;
}

std::string text_report(const RunSummary& s, const RunMeta& m) {
  std::string o;
  if (s.client_bound) {
    o += "CLIENT-BOUND: this run measured the load generator, not the server — ";
    for (size_t i = 0; i < s.client_bound_reasons.size(); ++i) o += (i ? "; " : "") + s.client_bound_reasons[i];
    o += "\n";
  } else {
    o += "load generator self-check: ok (dispatch and loop lag p99 within max(1 ms, 5% of TTFT p50), rate delivered)\n";
  }
  o += fmt::format("{} {} ({}) · {} · request set {} · seed {}\n", m.endpoint, m.model, m.api, m.dataset,
                   m.request_set_hash, m.seed);
  o += fmt::format("  requests           {} completed, {} failed, {} not sent, {} warm-up (excluded)\n", s.completed,
                   s.failed, s.not_sent, s.warmup);
  if (s.cut > 0 || s.not_sent > 0)
    o += fmt::format("  partial run        {} cut in flight and {} never sent when the run ended: neither successes nor "
                     "failures, left out of every rate and share\n", s.cut, s.not_sent);
  for (const auto& [k, v] : s.errors_by_category) o += fmt::format("  error              {} × {}\n", k, v);
  if (s.target_rate > 0 || s.schedule_rate > 0)
    o += fmt::format("  rate               target {} req/s, schedule {}, realized {}\n", core::format_number(s.target_rate),
                     core::format_number(s.schedule_rate), core::format_number(s.realized_rate));
  else
    o += fmt::format("  mode               {} (concurrency {}), realized {} req/s\n", m.mode, m.concurrency,
                     core::format_number(s.realized_rate));
  o += fmt::format("  throughput         {} req/s, {} output tok/s, {} total tok/s over {}\n",
                   core::format_number(s.request_throughput), core::format_number(s.output_throughput),
                   core::format_number(s.total_throughput), core::format_duration_s(s.duration_s));
  if (s.slo.any())
    o += fmt::format("  goodput            {} req/s, {} tok/s; {} of {} requests met {} ({:.1f}%)\n",
                     core::format_number(s.goodput.request_rate), core::format_number(s.goodput.token_rate), s.goodput.good,
                     s.completed + s.failed,
                     s.slo.to_string(), s.goodput.attainment_pct);
  o += line_ms("ttft", s.ttft_s);
  o += line_ms("tpot", s.tpot_s);
  o += line_ms("itl (token level)", s.itl_token_s,
               s.itl_token_unavailable ? fmt::format("  [{} requests without per-chunk counts left out]", s.itl_token_unavailable).c_str() : "");
  o += line_ms("itl (chunk level)", s.itl_chunk_s);
  o += line_ms("e2e", s.e2e_s);
  if (s.ttft_outside_server_s.count > 0)
    o += line_ms("ttft - server", s.ttft_outside_server_s, "  (client TTFT minus the server's prompt_ms: slot queue, HTTP, network)");
  o += line_ms("client queue", s.queue_s, "  (not inside ttft/e2e)");
  o += line_ms("dispatch lag", s.dispatch_lag_s);
  o += line_ms("loop lag", m.loop_lag_s);
  if (s.token_disagreements > 0)
    o += fmt::format("  token counts       {} requests where the server's usage differs from the streamed chunks\n",
                     s.token_disagreements);
  if (s.output_len_mismatch > 0)
    o += fmt::format("  output length      {} requests did not return the pinned length (ignore_eos not honoured?)\n",
                     s.output_len_mismatch);
  for (const auto& r : s.saturation_reasons) o += "  server saturated   " + r + "\n";
  if (s.server_lost_at_s)
    o += fmt::format("  server lost        the server stopped answering {} into the run: all {} requests sent after the "
                     "last completion failed to connect or were reset; results are partial\n",
                     core::format_duration_s(*s.server_lost_at_s), s.failed_after_loss);
  if (s.deadline_hit) o += "  deadline           the global deadline ended the run; results are partial\n";
  if (m.interrupted) o += "  interrupted        the run was stopped by a signal; results are partial\n";
  return o;
}

std::map<std::string, std::string> config_from_metrics(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("vllm:cache_config_info{", 0) != 0) continue;
    size_t p = line.find('{') + 1;
    const size_t end = line.rfind('}');
    while (p < end) {
      const size_t eq = line.find('=', p);
      if (eq == std::string::npos || eq + 1 >= end || line[eq + 1] != '"') break;
      std::string key = line.substr(p, eq - p);
      size_t q = eq + 2;
      std::string val;
      while (q < end && line[q] != '"') {
        if (line[q] == '\\' && q + 1 < end) ++q;
        val += line[q++];
      }
      out["cache." + key] = val;
      p = q + 1;
      if (p < end && line[p] == ',') ++p;
    }
    break;
  }
  return out;
}

bool is_engine_consequence(std::string_view key) {
  if (key.substr(0, 6) == "cache.") key.remove_prefix(6);
  return key == "num_gpu_blocks" || key == "num_cpu_blocks";
}

void split_consequences(std::map<std::string, std::string>& config, std::map<std::string, std::string>& consequences) {
  for (auto it = config.begin(); it != config.end();) {
    if (!is_engine_consequence(it->first)) {
      ++it;
      continue;
    }
    consequences.emplace(it->first, it->second);
    it = config.erase(it);
  }
}

void record_engine_info(RunMeta& m, const std::string& exposition) {
  auto info = config_from_metrics(exposition);
  split_consequences(info, m.consequences);
  for (auto& [k, v] : info) m.config.emplace(k, v);
}

core::Status write_results(const std::string& dir, const RunSummary& s, const RunMeta& m,
                           const std::vector<BenchRecord>& records, const std::vector<Scrape>& scrapes) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return core::make_error(core::ErrorKind::input, "--out " + dir, "a folder that can be created", ec.message());
  std::string recs;
  for (const auto& r : records) recs += to_jsonl_line(r) + "\n";
  if (auto st = core::write_file_atomic(dir + "/records.jsonl", recs); !st) return st;
  std::string ms;
  for (const auto& sc : scrapes) {
    nlohmann::json j = {{"phase", sc.phase}, {"t_s", sc.t_s}, {"unix_s", sc.unix_s}};
    if (sc.error.empty()) j["text"] = sc.text;
    else j["error"] = sc.error;
    ms += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  if (auto st = core::write_file_atomic(dir + "/metrics.jsonl", ms); !st) return st;
  if (auto st = core::write_file_atomic(dir + "/report.txt", text_report(s, m)); !st) return st;
  // The summary last: its presence says the other files are complete.
  return core::write_file_atomic(dir + "/summary.json", json_summary(s, m).dump(2) + "\n");
}

core::Result<nlohmann::json> read_summary(const std::string& dir_or_file) {
  std::string path = dir_or_file;
  if (std::filesystem::is_directory(path)) path += "/summary.json";
  auto text = core::read_file(path);
  if (!text) return std::move(text).error();
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "llmtriage.bench.v1")
    return core::make_error(core::ErrorKind::input, path, "a llmtriage bench summary.json (schema llmtriage.bench.v1)",
                            j.is_discarded() ? "invalid JSON" : "another document");
  return j;
}

}  // namespace llmtriage::bench
