// The diagnosis case corpus (tests/data/diagnose/cases/<case>/, README.md there): each folder
// holds what an operator would have at hand during one real incident — engine log excerpts and
// /metrics text quoted in public issue threads, request records, the engine command line,
// dashboard readings, sampled outputs, GPU readings — and case.json naming the top finding the
// diagnosis must reach. The inputs go through the same readers the CLI uses (ingest), so the
// rules are tested on what real engines print, not on the simulator's own output.
//
// Two tests per case:
//   CaseInputs.Read/<case>   every input file is read by its real reader, and the log lines
//                            the case is built on are recognized (case.json "expect_events");
//   Case.TopFinding/<case>   diagnose() ranks the expected finding first (id, layer, symptom);
//                            for a control case ("expect": {"id": null}) it finds nothing at
//                            warning or above.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diagnose_cases/cases_helpers.h"

#include "core/evidence.h"
#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "ingest/engine_args.h"
#include "ingest/engine_log.h"
#include "ingest/gpu_dcgm.h"
#include "ingest/gpu_smi.h"
#include "ingest/metrics_engine.h"
#include "ingest/records.h"

using namespace llmtriage;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using case_corpus::case_names;
using case_corpus::cases_root;
using case_corpus::read_text;

// Files of one kind in a case folder, sorted by name: "metrics.prom", "metrics.1.prom", ...
std::vector<fs::path> files_with_prefix(const fs::path& dir, const std::string& prefix, const std::string& ext) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file()) continue;
    std::string n = e.path().filename().string();
    if (n.starts_with(prefix) && n.ends_with(ext)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Settings stated later (the pasted command line) fill or override those stated earlier (the
// argument dump in the log); fields a source leaves unset keep the earlier value.
void merge_settings(core::EngineSettings& dst, const core::EngineSettings& src) {
  auto over = [](auto& d, const auto& s) {
    if (s) d = s;
  };
  over(dst.tensor_parallel_size, src.tensor_parallel_size);
  over(dst.pipeline_parallel_size, src.pipeline_parallel_size);
  over(dst.data_parallel_size, src.data_parallel_size);
  over(dst.gpu_memory_utilization, src.gpu_memory_utilization);
  over(dst.mem_fraction_static, src.mem_fraction_static);
  over(dst.max_model_len, src.max_model_len);
  over(dst.max_num_seqs, src.max_num_seqs);
  over(dst.max_num_batched_tokens, src.max_num_batched_tokens);
  over(dst.block_size, src.block_size);
  over(dst.kv_cache_dtype, src.kv_cache_dtype);
  over(dst.dtype, src.dtype);
  over(dst.quantization, src.quantization);
  over(dst.enforce_eager, src.enforce_eager);
  over(dst.enable_chunked_prefill, src.enable_chunked_prefill);
  over(dst.enable_prefix_caching, src.enable_prefix_caching);
  over(dst.model, src.model);
  over(dst.served_model_name, src.served_model_name);
  dst.unmodelled.insert(dst.unmodelled.end(), src.unmodelled.begin(), src.unmodelled.end());
}

// What loading one folder (a case, or its baseline/) produced, besides the Evidence: problems
// a reader reported, and per-input counts the CaseInputs test checks.
struct Loaded {
  core::Evidence ev;
  diagnose::Observations obs;  // this folder's observe.txt
  std::vector<std::string> problems;
  int inputs = 0;              // input files read
  int64_t log_lines_recognized = 0;  // a known engine line shape (with or without fields we extract), or a traceback
  int64_t log_lines_total = 0;
};

void load_log(const fs::path& p, Loaded& L) {
  ingest::LogParseOptions o;
  o.source_name = p.filename().string();
  auto r = ingest::parse_engine_log_file(p.string(), o);
  if (!r.ok()) {
    L.problems.push_back(p.string() + ": " + r.error().message());
    return;
  }
  ++L.inputs;
  L.log_lines_total += r->lines_total;
  L.log_lines_recognized += r->lines_parsed + r->lines_other + r->traceback_lines;
  if (r->read_error) L.problems.push_back(p.string() + ": " + r->read_error->message());
  auto& d = L.ev.deployment;
  if (d.engine == core::EngineKind::unknown) d.engine = r->engine;
  if (d.engine_version.empty()) d.engine_version = r->engine_version;
  for (const auto& e : r->events) {
    if (e.kind == core::EventKind::engine_args) {
      auto it = e.labels.find("args");
      if (it != e.labels.end()) {
        auto a = ingest::parse_logged_args(it->second, r->engine, e.source);
        if (a.ok())
          merge_settings(d.settings, a->settings);
        else
          L.problems.push_back(e.source + ": engine arguments: " + a.error().message());
      }
    }
    L.ev.events.push_back(e);
  }
  for (auto& s : r->timeline) L.ev.engine_samples.push_back(std::move(s));
  L.ev.inputs.push_back({p.string(), "log", true, ingest::describe(*r)});
}

void load_metrics(const std::vector<fs::path>& files, double interval_s, Loaded& L) {
  double t = 0;
  for (const auto& p : files) {
    ingest::AdaptOptions o;
    o.source = p.string();
    auto r = ingest::adapt_engine_metrics(read_text(p), t, o);
    if (!r.ok()) {
      L.problems.push_back(p.string() + ": " + r.error().message());
      continue;
    }
    ++L.inputs;
    if (r->samples.empty()) L.problems.push_back(p.string() + ": no engine metrics recognized");
    if (L.ev.deployment.engine == core::EngineKind::unknown) L.ev.deployment.engine = r->engine;
    for (auto& s : r->samples) L.ev.engine_samples.push_back(std::move(s));
    L.ev.inputs.push_back({p.string(), "metrics", true,
                           std::to_string(r->series_used) + " of " + std::to_string(r->series) + " series used"});
    t += interval_s;
  }
}

void load_gpu(const fs::path& dir, double interval_s, Loaded& L) {
  double t = 0;
  for (const auto& p : files_with_prefix(dir, "nvidia_smi", ".csv")) {
    auto r = ingest::parse_nvidia_smi_csv(read_text(p), t, p.string());
    if (!r.ok()) {
      L.problems.push_back(p.string() + ": " + r.error().message());
      continue;
    }
    ++L.inputs;
    for (auto& g : r->gpus) L.ev.gpu_samples.push_back(std::move(g));
    L.ev.inputs.push_back({p.string(), "gpu", true, std::to_string(r->gpus.size()) + " GPU rows"});
    t += interval_s;
  }
  t = 0;
  for (const auto& p : files_with_prefix(dir, "dcgm", ".prom")) {
    auto r = ingest::gpu_samples_from_exposition(read_text(p), t);
    ++L.inputs;
    if (r.gpus.empty()) L.problems.push_back(p.string() + ": no GPU series recognized");
    for (auto& g : r.gpus) L.ev.gpu_samples.push_back(std::move(g));
    L.ev.inputs.push_back({p.string(), "gpu", !r.gpus.empty(), std::to_string(r.series_used) + " series used"});
    t += interval_s;
  }
  std::stable_sort(L.ev.gpu_samples.begin(), L.ev.gpu_samples.end(),
                   [](const core::GpuSample& a, const core::GpuSample& b) { return a.t_s < b.t_s; });
}

void load_records(const fs::path& dir, Loaded& L) {
  for (const auto& p : files_with_prefix(dir, "records", "")) {
    ingest::RecordReadOptions o;
    o.source_name = p.filename().string();
    auto r = ingest::read_records_file(p.string(), o);
    if (!r.ok()) {
      L.problems.push_back(p.string() + ": " + r.error().message());
      continue;
    }
    ++L.inputs;
    if (r->records_bad > 0) L.problems.push_back(p.string() + ": " + std::to_string(r->records_bad) + " bad records");
    if (r->records.empty()) L.problems.push_back(p.string() + ": no records");
    for (auto& rec : r->records) L.ev.requests.push_back(std::move(rec));
    L.ev.inputs.push_back({p.string(), "records", true, std::to_string(L.ev.requests.size()) + " records (" +
                                                           ingest::to_string(r->format) + ")"});
  }
}

// outputs.txt: one sampled response per line; a literal "\n" inside a line stands for a newline.
void load_outputs(const fs::path& p, Loaded& L) {
  std::ifstream f(p);
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::string text;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 'n') {
        text += '\n';
        ++i;
      } else {
        text += line[i];
      }
    }
    L.ev.outputs.push_back(std::move(text));
  }
  ++L.inputs;
  L.ev.inputs.push_back({p.string(), "outputs", true, std::to_string(L.ev.outputs.size()) + " outputs"});
}

// observe.txt: NAME=VALUE per line (baseline_NAME for the healthy period), '#' comments.
void load_observations(const fs::path& p, Loaded& L) {
  std::ifstream f(p);
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) line.pop_back();
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    auto st = diagnose::add_observation(L.obs, line.substr(b), p.filename().string() + ":" + std::to_string(n));
    if (!st.ok()) L.problems.push_back(st.error().message());
  }
  ++L.inputs;
}

// One folder's inputs. Every reader is the one the CLI uses for that kind of file.
Loaded load_folder(const fs::path& dir, const json& meta) {
  Loaded L;
  auto& d = L.ev.deployment;
  d.model = meta.value("model", "");
  d.gpu = meta.value("gpu", "");
  d.num_gpus = meta.value("num_gpus", 0);
  d.engine = core::engine_kind_from_string(meta.value("engine", ""));
  d.engine_version = meta.value("engine_version", "");
  double interval_s = meta.value("scrape_interval_s", 15.0);

  for (const auto& p : files_with_prefix(dir, "engine", ".log")) load_log(p, L);
  load_metrics(files_with_prefix(dir, "metrics", ".prom"), interval_s, L);
  load_gpu(dir, interval_s, L);
  load_records(dir, L);
  if (fs::exists(dir / "engine_args.txt")) {
    auto a = ingest::parse_engine_args(read_text(dir / "engine_args.txt"), (dir / "engine_args.txt").string());
    if (!a.ok()) {
      L.problems.push_back(a.error().message());
    } else {
      ++L.inputs;
      merge_settings(d.settings, a->settings);
      if (d.engine == core::EngineKind::unknown) d.engine = a->engine;
      L.ev.inputs.push_back({(dir / "engine_args.txt").string(), "engine_args", true, ""});
    }
  }
  if (d.model.empty() && d.settings.model) d.model = *d.settings.model;
  if (fs::exists(dir / "outputs.txt")) load_outputs(dir / "outputs.txt", L);
  if (fs::exists(dir / "observe.txt")) load_observations(dir / "observe.txt", L);
  std::stable_sort(L.ev.engine_samples.begin(), L.ev.engine_samples.end(),
                   [](const core::EngineSample& a, const core::EngineSample& b) { return a.t_s < b.t_s; });
  return L;
}

struct CaseData {
  std::string name;
  fs::path dir;
  json meta;
  Loaded now;
  std::optional<Loaded> baseline;
  std::vector<std::string> meta_problems;
};

CaseData load_case(const std::string& name) {
  CaseData c;
  c.name = name;
  c.dir = cases_root() / name;
  try {
    c.meta = json::parse(read_text(c.dir / "case.json"));
  } catch (const std::exception& e) {
    c.meta_problems.push_back("case.json: " + std::string(e.what()));
    c.meta = json::object();
    return c;
  }
  c.now = load_folder(c.dir, c.meta);
  if (fs::is_directory(c.dir / "baseline")) c.baseline = load_folder(c.dir / "baseline", c.meta);
  return c;
}

std::string describe_findings(const diagnose::Report& r) {
  std::ostringstream os;
  os << "diagnosis (" << r.findings.size() << " findings";
  if (!r.symptoms.empty()) {
    os << "; symptoms" << (r.symptoms_detected ? " detected" : " given") << ":";
    for (auto s : r.symptoms) os << " " << diagnose::to_string(s);
  }
  os << "):\n";
  for (const auto& f : r.findings)
    os << "  " << f.id << "  [" << diagnose::to_string(f.layer) << " / " << diagnose::to_string(f.symptom) << " / "
       << diagnose::to_string(f.severity) << " / confidence " << f.confidence << "]  " << f.title << "\n";
  for (const auto& l : r.layers)
    os << "  layer " << diagnose::to_string(l.layer) << ": " << diagnose::to_string(l.state)
       << (l.why.empty() ? "" : " (" + l.why + ")") << "\n";
  for (const auto& m : r.missing) os << "  missing: " << m << "\n";
  return os.str();
}

std::string test_name(const std::string& folder) {
  std::string s = folder;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

class CaseInputs : public ::testing::TestWithParam<std::string> {};
class Case : public ::testing::TestWithParam<std::string> {};

}  // namespace

// case.json is complete, every input is read without a reader complaint, and the log lines the
// case rests on are recognized as the events it names (so a rule failing later is a rule
// problem, not an ingest gap).
TEST_P(CaseInputs, Read) {
  CaseData c = load_case(GetParam());
  for (const auto& p : c.meta_problems) ADD_FAILURE() << p;
  ASSERT_TRUE(c.meta_problems.empty());
  const json& m = c.meta;
  ASSERT_TRUE(m.contains("source")) << "case.json needs \"source\": the issue URL(s) the inputs come from";
  std::string sources = m["source"].is_array() ? m["source"].dump() : m["source"].get<std::string>();
  EXPECT_NE(sources.find("https://"), std::string::npos) << "source must cite a URL: " << sources;
  EXPECT_FALSE(m.value("notes", "").empty()) << "case.json needs \"notes\": what is real, what was reconstructed";
  ASSERT_TRUE(m.contains("expect"));
  const json& x = m["expect"];
  ASSERT_TRUE(x.contains("id")) << "expect.id: a finding id, or null for a healthy control case";
  if (!x["id"].is_null()) {
    EXPECT_FALSE(x.value("id", "").empty());
    EXPECT_TRUE(diagnose::layer_from_string(x.value("layer", ""))) << "expect.layer: " << x.value("layer", "");
    EXPECT_TRUE(diagnose::symptom_from_string(x.value("symptom", ""))) << "expect.symptom: " << x.value("symptom", "");
  }
  if (m.contains("symptom") && !m["symptom"].is_null()) {
    EXPECT_TRUE(diagnose::symptom_from_string(m["symptom"].get<std::string>())) << "symptom: " << m["symptom"];
  }

  for (const auto& p : c.now.problems) ADD_FAILURE() << p;
  if (c.baseline)
    for (const auto& p : c.baseline->problems) ADD_FAILURE() << "baseline: " << p;
  EXPECT_GT(c.now.inputs, 0) << "no input file in " << c.dir;
  if (c.now.log_lines_total > 0) {
    EXPECT_GT(c.now.log_lines_recognized, 0) << "no line of engine.log was recognized";
  }
  for (const auto& k : m.value("expect_events", std::vector<std::string>{})) {
    bool seen = std::any_of(c.now.ev.events.begin(), c.now.ev.events.end(),
                            [&](const core::Event& e) { return k == core::to_string(e.kind); });
    EXPECT_TRUE(seen) << "engine.log yielded no '" << k << "' event";
  }
  if (m.contains("expect_samples")) {
    EXPECT_EQ(c.now.ev.engine_samples.size(), m["expect_samples"].get<size_t>());
  }
}

// The diagnosis of the case's evidence ranks the expected finding first.
TEST_P(Case, TopFinding) {
  CaseData c = load_case(GetParam());
  ASSERT_TRUE(c.meta_problems.empty()) << c.meta_problems.front();
  ASSERT_TRUE(c.meta.contains("expect") && c.meta["expect"].contains("id")) << "case.json: expect.id missing";
  const json& x = c.meta["expect"];
  diagnose::DiagnoseInput in;
  in.now = std::move(c.now.ev);
  if (c.baseline) in.baseline = std::move(c.baseline->ev);
  in.observations = c.now.obs;
  // baseline/observe.txt holds healthy-period readings without the baseline_ prefix.
  if (c.baseline)
    for (const auto& [k, v] : c.baseline->obs.now) in.observations.baseline.emplace(k, v);
  if (c.meta.contains("symptom") && !c.meta["symptom"].is_null())
    if (auto s = diagnose::symptom_from_string(c.meta["symptom"].get<std::string>())) in.symptoms.push_back(*s);
  in.what_if = false;  // the ranking is under test, not the simulator's predictions

  diagnose::Report r = diagnose::diagnose(in);
  std::string said = describe_findings(r);
  if (x["id"].is_null()) {
    // A healthy control: nothing at warning or above, exit 0 (info findings may remain).
    for (const auto& f : r.findings)
      EXPECT_EQ(f.severity, diagnose::Severity::info) << "healthy case flagged " << f.id << "; " << said;
    EXPECT_EQ(r.exit_code(), 0) << said;
    return;
  }
  ASSERT_FALSE(r.findings.empty()) << "expected " << x["id"] << "; " << said;
  const auto& top = r.findings.front();
  EXPECT_EQ(top.id, x.value("id", "")) << said;
  EXPECT_STREQ(diagnose::to_string(top.layer), x.value("layer", "").c_str()) << said;
  EXPECT_STREQ(diagnose::to_string(top.symptom), x.value("symptom", "").c_str()) << said;
  if (x.contains("severity")) {
    EXPECT_STREQ(diagnose::to_string(top.severity), x["severity"].get<std::string>().c_str()) << said;
  }
  // Optional: the first remedy of the top finding changes this variable ("gpu-memory-utilization").
  if (x.contains("first_remedy")) {
    ASSERT_FALSE(top.remedies.empty()) << "expected a first remedy on " << top.id << "; " << said;
    std::string got;
    for (const auto& rm : top.remedies) got += "\n    " + rm.change + " " + rm.from + " -> " + rm.to;
    EXPECT_EQ(top.remedies.front().change, x["first_remedy"].get<std::string>()) << "remedies of " << top.id << ":" << got;
  }
  const bool warning_or_above = std::any_of(r.findings.begin(), r.findings.end(),
                                           [](const diagnose::Finding& f) { return f.severity != diagnose::Severity::info; });
  EXPECT_EQ(r.exit_code(), warning_or_above ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CaseInputs, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return test_name(info.param); });
INSTANTIATE_TEST_SUITE_P(Corpus, Case, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return test_name(info.param); });

// An empty or misplaced corpus must not pass silently.
TEST(CaseCorpus, HasCasesForEveryLayerAndEngine) {
  std::set<std::string> layers, engines;
  auto names = case_names();
  ASSERT_GE(names.size(), 15u) << "corpus at " << cases_root();
  for (const auto& n : names) {
    json m = json::parse(read_text(cases_root() / n / "case.json"), nullptr, false);
    if (m.is_discarded()) continue;
    if (!m["expect"]["id"].is_null()) layers.insert(m["expect"].value("layer", ""));
    engines.insert(m.value("engine", ""));
  }
  for (auto l : diagnose::all_layers()) EXPECT_TRUE(layers.count(diagnose::to_string(l))) << "no case for layer " << diagnose::to_string(l);
  for (const char* e : {"vllm", "vllm-v0", "sglang", "tgi", "llamacpp", "ollama"})
    EXPECT_TRUE(engines.count(e)) << "no case for engine " << e;
}
