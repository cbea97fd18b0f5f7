// `llmtriage ledger`: where every GiB of the GPU goes at engine startup and whether it starts.
// Inputs, lowest precedence first: --config FILE, the arguments a --from-log log states,
// --engine-args "vllm serve ...", then explicit flags.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "cli/command.h"
#include "cli/report_inputs.h"
#include "cli/version.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "ingest/engine_args.h"
#include "ingest/engine_log.h"
#include "ledger/ledger.h"
#include "ledger/ledger_render.h"
#include "ledger/llamacpp_args.h"

namespace llmtriage::cli {
namespace {

struct LedgerOpts {
  std::optional<std::string> model, gpu, engine, engine_version, engine_args, config, from_log;
  std::optional<double> gpu_mem_gib;
  std::optional<int> num_gpus, min_concurrency;
  std::optional<int64_t> typical_len;
  // Engine flags (vLLM names; SGLang's --mem-fraction-static too).
  std::optional<int> tp, pp, dp, block_size;
  std::optional<double> util, mem_fraction;
  std::optional<int64_t> max_model_len, max_num_seqs, max_num_batched_tokens;
  std::optional<std::string> kv_cache_dtype, dtype, quantization;
  std::optional<bool> enforce_eager;
  // llama.cpp / Ollama settings in their own units (ledger::LlamaCppSettings).
  std::optional<int64_t> ctx_size, ubatch_size;
  std::optional<int> parallel, n_gpu_layers;
  std::optional<bool> kv_unified, flash_attn;
  std::optional<std::string> cache_type_k, cache_type_v;
  std::string html;  // --html FILE: the ledger as a waterfall on one self-contained page
  std::string svg;   // --svg DIR: the waterfall as a standalone SVG
};

template <typename T>
void over(std::optional<T>& dst, const std::optional<T>& src) {
  if (src) dst = src;
}

void merge(core::EngineSettings& into, const core::EngineSettings& later) {
  core::overlay_settings(into, later, core::UnmodelledMerge::append);
}

// What the inputs say before the ledger runs.
struct Gathered {
  core::EngineSettings settings;
  std::optional<std::string> model, gpu, engine, engine_version;
  std::optional<double> gpu_mem_gib;
  std::optional<int> num_gpus, min_concurrency;
  std::optional<int64_t> typical_len;
  std::optional<std::string> engine_args;
  std::vector<std::string> notes;
};

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  s = s.substr(i);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
  return s;
}

// A small config file: JSON object, or "key: value" / "key = value" lines ('#' comments). Keys
// are the flag names without dashes ("tensor-parallel-size" or "tensor_parallel_size").
core::Status read_config(const std::string& path, Gathered& g) {
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  std::vector<std::pair<std::string, std::string>> kv;
  std::vector<int> line_of;
  const auto first = text->find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (*text)[first] == '{') {
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return core::make_error(core::ErrorKind::input, path, "a JSON object or key: value lines", "malformed JSON");
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string v = it->is_string() ? it->get<std::string>() : it->dump();
      kv.emplace_back(it.key(), v);
      line_of.push_back(0);
    }
  } else {
    std::istringstream in(*text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (auto h = line.find('#'); h != std::string::npos) line = line.substr(0, h);
      if (trim(line).empty()) continue;
      auto sep = line.find_first_of(":=");
      if (sep == std::string::npos)
        return core::make_error(core::ErrorKind::input, path + ":" + std::to_string(n), "key: value", trim(line));
      kv.emplace_back(trim(line.substr(0, sep)), trim(line.substr(sep + 1)));
      line_of.push_back(n);
    }
  }
  for (size_t i = 0; i < kv.size(); ++i) {
    std::string key = kv[i].first;
    for (auto& c : key) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string& v = kv[i].second;
    const std::string where = line_of[i] ? path + ":" + std::to_string(line_of[i]) : path;
    // The same refusals as the flags (cli/option_values.h): no negatives, no nan/inf, no zero where
    // zero means nothing ("num_gpus: 0" was read as one GPU).
    auto num = [&](auto& dst, double min = 0) -> core::Status {
      try {
        size_t used = 0;
        double d = std::stod(v, &used);
        if (used != v.size() || !std::isfinite(d) || d < min) throw std::invalid_argument(v);
        using T = typename std::remove_reference_t<decltype(dst)>::value_type;
        dst = static_cast<T>(d);
      } catch (const std::exception&) {
        return core::make_error(core::ErrorKind::input, where + " " + key, fmt::format("a number >= {:g}", min), v);
      }
      return core::ok_status();
    };
    core::Status st = core::ok_status();
    if (key == "model") g.model = v;
    else if (key == "gpu") g.gpu = v;
    else if (key == "engine") g.engine = v;
    else if (key == "engine-version") g.engine_version = v;
    else if (key == "engine-args") g.engine_args = v;
    else if (key == "gpu-mem-gib") st = num(g.gpu_mem_gib);
    else if (key == "num-gpus") st = num(g.num_gpus, 1);
    else if (key == "typical-len") st = num(g.typical_len, 1);
    else if (key == "min-concurrency") st = num(g.min_concurrency);
    else {
      auto applied = ingest::apply_engine_flag(g.settings, key, v, where);
      if (!applied.ok()) return applied.error();
      if (!*applied)
        return core::make_error(core::ErrorKind::input, where, "a ledger setting (a flag of 'llmtriage ledger' without dashes)",
                                "'" + kv[i].first + "'");
    }
    if (!st.ok()) return st;
  }
  return core::ok_status();
}

struct LogFacts {
  std::map<std::string, double> fields;
  std::vector<core::Event> failures;  // oom, max_len_exceeds_kv
  core::EngineKind engine = core::EngineKind::unknown;
  std::string version;
  std::string describe;
};

core::Result<LogFacts> read_log(const std::string& path, Gathered& g) {
  auto parsed = ingest::parse_engine_log_file(path);
  if (!parsed.ok()) return parsed.error();
  LogFacts f;
  f.fields = ingest::merged_startup_fields(*parsed);
  f.engine = parsed->engine;
  f.version = parsed->engine_version;
  f.describe = ingest::describe(*parsed);
  for (const auto& e : parsed->events) {
    if (e.kind == core::EventKind::oom || e.kind == core::EventKind::max_len_exceeds_kv) f.failures.push_back(e);
    if (e.kind == core::EventKind::engine_args) {
      auto it = e.labels.find("args");
      if (it == e.labels.end()) continue;
      auto args = ingest::parse_logged_args(it->second, parsed->engine, path + " (engine arguments)");
      if (args.ok()) merge(g.settings, args->settings);
    }
  }
  return f;
}

int run_ledger(Context& ctx, const LedgerOpts& o) {
  Gathered g;
  if (o.config) {
    auto st = read_config(*o.config, g);
    if (!st.ok()) return fail(ctx, st.error());
  }
  std::optional<LogFacts> log;
  if (o.from_log) {
    auto f = read_log(*o.from_log, g);
    if (!f.ok()) return fail(ctx, f.error());
    log = std::move(*f);
    if (log->engine != core::EngineKind::unknown && !g.engine) g.engine = core::to_string(log->engine);
    if (!log->version.empty() && !g.engine_version) g.engine_version = log->version;
    if (auto t = log->fields.find("total_gpu_memory_gib"); t != log->fields.end() && !g.gpu_mem_gib)
      g.gpu_mem_gib = t->second;
  }
  std::optional<std::string> args_text = o.engine_args ? o.engine_args : g.engine_args;
  ledger::LlamaCppSettings llama_args;  // a llama-server / ollama serve line (ledger/llamacpp_args.h)
  if (args_text) {
    auto words = ingest::split_command_line(*args_text);
    if (words.ok() && ledger::is_llamacpp_command(*words)) {
      auto la = ledger::parse_llamacpp_args(*words, "--engine-args");
      if (!la.ok()) return fail(ctx, la.error());
      llama_args = la->settings;
      if (la->model) g.settings.model = *la->model;
      if (!o.engine) g.engine = core::to_string(la->engine);
      std::string u;
      for (const auto& x : la->unmodelled) u += (u.empty() ? "" : " ") + x;
      if (!u.empty()) g.notes.push_back("engine flags not modelled by the ledger: " + u);
      args_text.reset();
    }
  }
  if (args_text) {
    auto a = ingest::parse_engine_args(*args_text);
    if (!a.ok()) return fail(ctx, a.error());
    merge(g.settings, a->settings);
    if (a->engine != core::EngineKind::unknown && !o.engine) g.engine = core::to_string(a->engine);
    g.notes.insert(g.notes.end(), a->notes.begin(), a->notes.end());
  }
  // Explicit flags win.
  core::EngineSettings flags;
  flags.tensor_parallel_size = o.tp;
  flags.pipeline_parallel_size = o.pp;
  flags.data_parallel_size = o.dp;
  flags.gpu_memory_utilization = o.util;
  flags.mem_fraction_static = o.mem_fraction;
  flags.max_model_len = o.max_model_len;
  flags.max_num_seqs = o.max_num_seqs;
  flags.max_num_batched_tokens = o.max_num_batched_tokens;
  flags.block_size = o.block_size;
  flags.kv_cache_dtype = o.kv_cache_dtype;
  flags.dtype = o.dtype;
  flags.quantization = o.quantization;
  flags.enforce_eager = o.enforce_eager;
  merge(g.settings, flags);
  over(g.model, o.model);
  over(g.gpu, o.gpu);
  over(g.engine, o.engine);
  over(g.engine_version, o.engine_version);
  over(g.gpu_mem_gib, o.gpu_mem_gib);
  over(g.num_gpus, o.num_gpus);
  over(g.typical_len, o.typical_len);
  over(g.min_concurrency, o.min_concurrency);

  std::string model_id = g.model.value_or(g.settings.model.value_or(""));
  if (model_id.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--model", "a Hugging Face id or a path to config.json",
                                      "none", "Or pass --engine-args \"vllm serve MODEL ...\"."));
  auto model = catalog::load_model(model_id);
  if (!model.ok()) return fail(ctx, model.error());

  ledger::LedgerInput in;
  in.model = *model;
  const core::EngineKind kind = core::engine_kind_from_string(g.engine.value_or("vllm"));
  const bool llama_family = kind == core::EngineKind::llamacpp || kind == core::EngineKind::ollama;
  if (g.gpu) {
    auto gpu = catalog::find_gpu(*g.gpu);
    if (!gpu.ok()) return fail(ctx, gpu.error());
    in.gpu = *gpu;
  } else if (g.gpu_mem_gib) {
    in.gpu = catalog::custom_gpu(*g.gpu_mem_gib);
  } else if (llama_family) {
    in.gpu = catalog::custom_gpu(0, "none");  // llama.cpp / Ollama on the host alone
  } else {
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--gpu", "a GPU name (e.g. H100-SXM) or --gpu-mem-gib GIB",
                                      "none"));
  }
  in.gpu_mem_gib = g.gpu_mem_gib;
  in.num_gpus = g.num_gpus.value_or(0);
  std::string engine = g.engine.value_or("vllm");
  in.engine = core::engine_kind_from_string(engine);
  if (in.engine == core::EngineKind::unknown)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--engine", "vllm, vllm-v0, sglang, tgi, llamacpp or ollama", engine));
  in.engine_version = g.engine_version.value_or("");
  in.settings = g.settings;
  in.typical_len = g.typical_len;
  if (g.min_concurrency) in.min_concurrency = *g.min_concurrency;
  in.llama = llama_args;  // explicit flags win
  over(in.llama.ctx_size, o.ctx_size);
  over(in.llama.parallel, o.parallel);
  over(in.llama.kv_unified, o.kv_unified);
  over(in.llama.cache_type_k, o.cache_type_k);
  over(in.llama.cache_type_v, o.cache_type_v);
  over(in.llama.n_gpu_layers, o.n_gpu_layers);
  over(in.llama.flash_attn, o.flash_attn);
  over(in.llama.ubatch_size, o.ubatch_size);
  if (log && llama_family) {  // the compute buffers llama.cpp logged (ingest/log_others.cpp)
    if (auto f = log->fields.find("compute_buffer_gib"); f != log->fields.end()) in.llama.logged_compute_gpu_gib = f->second;
    if (auto f = log->fields.find("compute_buffer_cpu_gib"); f != log->fields.end()) in.llama.logged_compute_host_gib = f->second;
  }
  auto report = ledger::compute_ledger(in);
  if (!report.ok()) return fail(ctx, report.error());
  for (const auto& n : g.notes) report->notes.push_back(n);
  if (!g.settings.unmodelled.empty()) {
    std::string u;
    for (const auto& x : g.settings.unmodelled) u += (u.empty() ? "" : " ") + x;
    report->notes.push_back("engine flags not modelled by the ledger: " + u);
  }

  // Engine vs ledger, from the log.
  nlohmann::json cmp = nlohmann::json::array();
  bool engine_failed = false;
  if (log) {
    for (const auto& p : ledger::log_pairs(*report)) {
      auto it = log->fields.find(p.log_key);
      if (it == log->fields.end()) continue;
      double diff = it->second != 0 ? 100.0 * (p.ledger_value - it->second) / std::fabs(it->second) : NAN;
      cmp.push_back({{"key", p.log_key}, {"label", p.label}, {"engine", it->second}, {"ledger", p.ledger_value},
                     {"diff_pct", std::isnan(diff) ? nlohmann::json(nullptr) : nlohmann::json(std::round(diff * 10) / 10)}});
    }
    engine_failed = !log->failures.empty();
  }

  // The page first: when it cannot be written the ledger is still shown, and with --json as one
  // document carrying the error.
  std::optional<core::Error> html_error;
  if (!o.html.empty() || !o.svg.empty()) {
    report::HtmlReport h;
    h.title = "llmtriage ledger: " + report->model_id + " on " + report->gpu_name;
    h.generated_by = "llmtriage " + version_string();
    if (o.config) h.sources.push_back(*o.config);
    if (o.from_log) h.sources.push_back(*o.from_log);
    if (o.engine_args) h.sources.push_back("--engine-args");
    std::map<std::string, double> logged;
    for (const auto& c : cmp) logged[c["key"].get<std::string>()] = c["engine"].get<double>();
    h.ledger = ledger_picture(*report, logged, o.from_log.value_or(""));
    if (!(report->total_gib > 0)) h.notes.push_back("no GPU memory in this ledger (host only): no waterfall");
    html_error = write_pictures(ctx.err, "ledger", o.html, o.svg, h);
  }
  if (ctx.json) {
    nlohmann::json j = ledger::to_json(*report);
    if (log) {
      nlohmann::json fails = nlohmann::json::array();
      for (const auto& e : log->failures)
        fails.push_back({{"kind", core::to_string(e.kind)}, {"source", e.source}, {"text", e.text}, {"fields", e.fields}});
      j["from_log"] = {{"file", *o.from_log}, {"read", log->describe}, {"comparison", cmp}, {"engine_failures", fails},
                       {"engine_started", !engine_failed}};
    }
    if (html_error) return fail_with_result(ctx, j, *html_error);
    ctx.out << j.dump(2) << "\n";
  } else {
    ctx.out << ledger::render_text(*report);
    if (log) {
      ctx.out << "\nEngine log " << *o.from_log << " (" << log->describe << "):\n";
      if (cmp.empty()) ctx.out << "  no startup memory lines found\n";
      else ctx.out << fmt::format("  {:<24} {:>14} {:>14} {:>9}\n", "", "engine", "ledger", "diff");
      for (const auto& c : cmp) {
        std::string d = c["diff_pct"].is_null() ? "-" : fmt::format("{:+.1f}%", c["diff_pct"].get<double>());
        const std::string label = c["label"].get<std::string>();
        const bool count = label.find("GiB") == std::string::npos && label.find("(x)") == std::string::npos;
        const double e = c["engine"].get<double>(), l = c["ledger"].get<double>();
        ctx.out << (count ? fmt::format("  {:<24} {:>14.0f} {:>14.0f} {:>9}\n", label, e, l, d)
                          : fmt::format("  {:<24} {:>14.2f} {:>14.2f} {:>9}\n", label, e, l, d));
      }
      for (const auto& e : log->failures)
        ctx.out << "  engine " << core::to_string(e.kind) << " at " << e.source << ": " << e.text << "\n";
      ctx.out << fmt::format("  startup: engine {}, ledger {}\n", engine_failed ? "failed" : "started (no failure logged)",
                             report->engine_starts ? "starts" : "refuses");
    }
  }
  if (html_error) return fail(ctx, *html_error);
  bool finding = report->verdict != ledger::Verdict::fits || engine_failed;
  return finding ? core::kExitFindings : core::kExitHealthy;
}

}  // namespace

Command make_ledger_command() {
  auto o = std::make_shared<LedgerOpts>();
  Command c;
  c.path = "ledger";
  c.summary = "GPU memory ledger: weights, activations, CUDA graphs, KV cache; does it start, how many sequences fit";
  c.example =
      "llmtriage ledger --model meta-llama/Llama-3.1-8B-Instruct --gpu H100-SXM --max-model-len 131072 "
      "--typical-len 3000\n  llmtriage ledger --gpu H100 --engine-args \"vllm serve Qwen/Qwen3-32B --max-model-len 32k\"\n"
      "  llmtriage ledger --model google/gemma-2-9b-it --gpu H100 --from-log vllm.log";
  c.options = {
      {"--model NAME", "LLMTRIAGE_MODEL", "model: HF id of a bundled config, a config.json, a folder holding one, or a GGUF file (header only)", &o->model},
      {"--gpu NAME", "LLMTRIAGE_GPU", "GPU catalog name or alias (H100, A100-80GB, L40S, 'NVIDIA H100 80GB HBM3', ...)", &o->gpu},
      {"--gpu-mem-gib", "LLMTRIAGE_GPU_MEM_GIB", "GPU capacity in GiB as torch reports it (overrides the catalog; for GPUs not in it)", &o->gpu_mem_gib, "", false, kPositive},
      {"--num-gpus", "", "GPUs for the deployment; TP defaults to this / (PP x DP)", &o->num_gpus, "", false, at_least(1)},
      {"--engine NAME", "", "memory accounting: vllm (V1), vllm-v0, sglang, tgi, llamacpp, ollama", &o->engine, "vllm"},
      {"--engine-version NAME", "", "engine version where the accounting changed (e.g. 0.19.0; default: newest)", &o->engine_version},
      {"--engine-args TEXT", "", "a whole engine command line: \"vllm serve MODEL --tensor-parallel-size 2 ...\" (flags override it)", &o->engine_args},
      {"--tensor-parallel-size,--tp", "", "tensor-parallel size", &o->tp, "1", false, at_least(1)},
      {"--pipeline-parallel-size,--pp", "", "pipeline-parallel size", &o->pp, "1", false, at_least(1)},
      {"--data-parallel-size", "", "data-parallel replicas", &o->dp, "1", false, at_least(1)},
      {"--gpu-memory-utilization", "", "fraction of GPU memory vLLM may use, (0, 1]", &o->util, "0.9", false, Bounds{0, true, 1}},
      {"--mem-fraction-static", "", "SGLang: fraction for weights + KV pool, (0, 1] (default by TP size)", &o->mem_fraction, "", false, Bounds{0, true, 1}},
      {"--max-model-len", "", "max prompt + output tokens per sequence (default: the model's context)", &o->max_model_len, "", false, at_least(1)},
      {"--max-num-seqs", "", "max sequences per step (default: the engine's; sizes the sampler profile)", &o->max_num_seqs, "", false, at_least(1)},
      {"--max-num-batched-tokens", "", "token budget per step (default: the engine's; sizes the activation profile)", &o->max_num_batched_tokens, "", false, at_least(1)},
      {"--block-size", "", "tokens per KV block (default 16; SGLang page size 1)", &o->block_size, "", false, at_least(1)},
      {"--kv-cache-dtype NAME", "", "KV cache dtype: auto, fp8, fp8_e4m3, fp8_e5m2", &o->kv_cache_dtype, "auto"},
      {"--dtype NAME", "", "compute dtype: auto, bfloat16, float16, float32", &o->dtype, "auto"},
      {"--quantization NAME", "", "weight quantization if the checkpoint's config does not say (fp8, awq, gptq, ...)", &o->quantization},
      {"--enforce-eager", "", "no CUDA graphs", &o->enforce_eager},
      {"--typical-len", "", "typical prompt + output tokens, for the concurrency at realistic lengths", &o->typical_len, "", false, at_least(1)},
      {"--min-concurrency", "", "low_concurrency below this many typical sequences", &o->min_concurrency, "4"},
      {"--config FILE", "LLMTRIAGE_LEDGER_CONFIG", "settings file: JSON or 'key: value' lines with these flag names", &o->config},
      {"--from-log FILE", "", "vLLM/SGLang/llama.cpp startup log: the engine's own numbers beside the ledger's, with the difference", &o->from_log},
      {"--html FILE", "", "also write the ledger as one self-contained HTML page: a waterfall of the GPU's GiB, the log's numbers as markers (docs/report.md)", &o->html},
      {"--svg DIR", "", "also write the waterfall as a standalone SVG file in DIR (for a ticket)", &o->svg},
  };
  // llama.cpp / Ollama (--engine llamacpp|ollama; --model FILE.gguf): the engine's own settings.
  c.options.insert(c.options.end(), {
      {"--ctx-size", "", "llama.cpp -c: KV cells of all slots together (0 = the model's context); Ollama: num_ctx per request", &o->ctx_size},
      {"--parallel", "", "llama.cpp -np / OLLAMA_NUM_PARALLEL: slots (llama.cpp default auto: 4, unified)", &o->parallel},
      {"--kv-unified", "", "llama.cpp: one KV pool every slot may use whole (default: on only with -np auto)", &o->kv_unified},
      {"--cache-type-k NAME", "", "llama.cpp -ctk / OLLAMA_KV_CACHE_TYPE: f16, f32, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1", &o->cache_type_k, "f16"},
      {"--cache-type-v NAME", "", "llama.cpp -ctv: as --cache-type-k (quantized V needs flash attention)", &o->cache_type_v, "f16"},
      {"--n-gpu-layers", "", "llama.cpp -ngl / Ollama num_gpu: layers on the GPU (-1 = all; needs --gpu or --gpu-mem-gib)", &o->n_gpu_layers, "-1", false, at_least(-1)},
      {"--flash-attn", "", "llama.cpp -fa on / OLLAMA_FLASH_ATTENTION=1 (default: auto, taken as on; Ollama needs it for a quantized KV cache)", &o->flash_attn},
      {"--ubatch-size", "", "llama.cpp -ub: physical batch, sizes the compute buffer", &o->ubatch_size, "512"},
  });
  c.run = [o](Context& ctx) { return run_ledger(ctx, *o); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
