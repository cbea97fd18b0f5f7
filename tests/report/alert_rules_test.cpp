// The rule emitter: thresholds come from the table (and follow overrides), every expression is
// scoped by the selector and grouped by the replica label, metric names follow the engine, and
// YAML quoting survives hostile selectors. promtool itself checks the files in tests/rules/.
#include "report/alert_rules.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>

namespace llmtriage::report {
namespace {

const Rule* find_alert(const std::vector<RuleGroup>& gs, const std::string& name) {
  for (const auto& g : gs)
    for (const auto& r : g.rules)
      if (r.alert == name) return &r;
  return nullptr;
}

std::vector<const Rule*> all_rules(const std::vector<RuleGroup>& gs) {
  std::vector<const Rule*> v;
  for (const auto& g : gs)
    for (const auto& r : g.rules) v.push_back(&r);
  return v;
}

std::string annotation(const Rule& r, const std::string& key) {
  for (const auto& [k, v] : r.annotations)
    if (k == key) return v;
  return {};
}

std::string label(const Rule& r, const std::string& key) {
  for (const auto& [k, v] : r.labels)
    if (k == key) return v;
  return {};
}

double slo_value(const diagnose::Slo& s, const std::string& name) {
  if (name == "slo.ttft_p99_s") return s.ttft_p99_s;
  if (name == "slo.tpot_p99_s") return s.tpot_p99_s;
  if (name == "slo.error_rate") return s.error_rate;
  ADD_FAILURE() << "unknown SLO " << name;
  return -1;
}

TEST(AlertRules, TheChecklistIsThere) {
  RulesOptions o;
  o.selector = "{job=\"vllm\"}";
  const auto gs = build_alert_rules(o);
  ASSERT_EQ(gs.size(), 2u);
  for (const char* name : {"LLMTriageEngineDown", "LLMTriageEngineTargetsAbsent", "LLMTriageQueueDeep",
                           "LLMTriageKvCacheNearFull", "LLMTriagePreemptionStorm", "LLMTriageTtftP99OverSlo",
                           "LLMTriageTpotP99OverSlo", "LLMTriagePrefixCacheHitCollapse", "LLMTriageRequestRateIncrease",
                           "LLMTriageErrorRatioHigh", "LLMTriageGpuPowerAtLimit", "LLMTriageGpuClockLow",
                           "LLMTriageGpuTemperatureHigh", "LLMTriagePreemptionsPerRequestHigh",
                           "LLMTriageReplicaLoadImbalance", "LLMTriageReplicaPrefixAffinityLost",
                           "LLMTriageInputLengthShift", "LLMTriageOutputLengthShift"})
    EXPECT_NE(find_alert(gs, name), nullptr) << name;
  std::set<std::string> records;
  for (const auto& r : gs[0].rules) {
    EXPECT_FALSE(r.record.empty());
    records.insert(r.record);
  }
  for (const char* name : {"llmtriage:ttft_seconds:p99_5m", "llmtriage:tpot_seconds:p99_5m",
                           "llmtriage:prefix_cache_hit_ratio:rate5m", "llmtriage:preemptions:rate5m"})
    EXPECT_EQ(records.count(name), 1u) << name;
  // Without a selector there is nothing to be absent.
  EXPECT_EQ(find_alert(build_alert_rules(RulesOptions{}), "LLMTriageEngineTargetsAbsent"), nullptr);
}

TEST(AlertRules, EveryThresholdIsTheTableValueAndNamedInTheDescription) {
  RulesOptions o;
  const auto table = diagnose::default_thresholds();
  size_t checked = 0;
  const auto gs = build_alert_rules(o);
  for (const Rule* r : all_rules(gs)) {
    if (r->alert.empty()) continue;
    EXPECT_FALSE(label(*r, "severity").empty()) << r->alert;
    EXPECT_EQ(label(*r, "layer"), annotation(*r, "layer")) << r->alert;
    for (const char* key : {"summary", "description", "runbook"}) EXPECT_FALSE(annotation(*r, key).empty()) << r->alert << " " << key;
    EXPECT_EQ(annotation(*r, "runbook").rfind("llmtriage ", 0), 0u) << r->alert;
    for (const auto& [name, value] : r->thresholds) {
      const double want = name.rfind("slo.", 0) == 0 ? slo_value(o.slo, name) : table.get(name);
      EXPECT_EQ(value, want) << r->alert << " " << name;
      // The expression carries the number as a literal, and the description the name.
      const std::string lit = std::regex_replace(fmt::format("{}", want), std::regex("\\."), "\\.");
      EXPECT_TRUE(std::regex_search(r->expr, std::regex("(^|[\\s(])" + lit + "( |\\n|$|\\))"))) << r->alert << " " << name << "\n" << r->expr;
      EXPECT_NE(annotation(*r, "description").find(name), std::string::npos) << r->alert << " " << name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
  EXPECT_TRUE(std::regex_search(find_alert(gs, "LLMTriageQueueDeep")->expr, std::regex("[<>]")));
}

TEST(AlertRules, ThresholdOverridesAndSloChangeTheEmittedNumbers) {
  RulesOptions o;
  ASSERT_TRUE(diagnose::load_thresholds(o.thresholds, "sched.waiting_deep = 42\nhw.temp_high_c = 79.5\n", "th.txt").ok());
  ASSERT_TRUE(diagnose::parse_slo(o.slo, "ttft_p99_s=0.75").ok());
  o.thresholds_file = "th.txt";
  const auto gs = build_alert_rules(o);
  const Rule* q = find_alert(gs, "LLMTriageQueueDeep");
  ASSERT_NE(q, nullptr);
  EXPECT_NE(q->expr.find("> 42"), std::string::npos) << q->expr;
  EXPECT_EQ(q->expr.find("> 10"), std::string::npos) << q->expr;
  EXPECT_NE(annotation(*q, "description").find("sched.waiting_deep (42)"), std::string::npos);
  EXPECT_NE(annotation(*q, "runbook").find("--thresholds th.txt"), std::string::npos);
  EXPECT_NE(find_alert(gs, "LLMTriageGpuTemperatureHigh")->expr.find("> 79.5"), std::string::npos);
  const Rule* t = find_alert(gs, "LLMTriageTtftP99OverSlo");
  EXPECT_NE(t->expr.find("> 0.75"), std::string::npos) << t->expr;
  EXPECT_NE(annotation(*t, "runbook").find("--slo ttft_p99_s=0.75,tpot_p99_s=0.1"), std::string::npos);
}

TEST(AlertRules, SelectorAndReplicaLabelScopeEveryExpression) {
  RulesOptions o;
  o.selector = " { job=\"vllm-prod\", namespace=\"ml\" } ";
  o.gpu_selector = "{job=\"dcgm\"}";
  o.replica_label = "pod";
  o.rate_window = "2m";
  const auto gs = build_alert_rules(o);
  // Every series selector in every expression: metric{<matchers>...}.
  const std::regex metric(R"((^|[\s(])(vllm:[a-z_]+|up|DCGM_FI_DEV_[A-Z_]+|http_requests_total)(\{[^}]*\})?)");
  for (const Rule* r : all_rules(gs)) {
    size_t n = 0;
    for (auto it = std::sregex_iterator(r->expr.begin(), r->expr.end(), metric); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[2], sel = (*it)[3];
      const std::string want = name.rfind("DCGM", 0) == 0 ? "{job=\"dcgm\"" : "{job=\"vllm-prod\", namespace=\"ml\"";
      EXPECT_EQ(sel.rfind(want, 0), 0u) << r->alert << r->record << ": " << name << sel;
      ++n;
    }
    EXPECT_GT(n, 0u) << r->alert << r->record << "\n" << r->expr;
    if (r->scope == RuleScope::replica) {
      EXPECT_NE(r->expr.find("by (job, pod"), std::string::npos) << r->alert << r->record;
    }
    if (r->scope == RuleScope::job) {
      EXPECT_NE(r->expr.find("by (job)"), std::string::npos) << r->alert;
    }
    if (r->expr.find("rate(") != std::string::npos || r->expr.find("_over_time(") != std::string::npos) {
      EXPECT_NE(r->expr.find("[2m]"), std::string::npos) << r->alert << r->record;
    }
    if (!r->record.empty()) {
      EXPECT_NE(r->record.find("2m"), std::string::npos) << r->record;
    }
    if (r->scope == RuleScope::replica && !r->alert.empty()) {
      EXPECT_NE(annotation(*r, "summary").find("{{ $labels.pod }}"), std::string::npos) << r->alert;
    }
  }
  EXPECT_EQ(find_alert(gs, "LLMTriageQueueDeep")->for_duration, "5m");
  // The runbook commands carry the replica label the rules were made with.
  EXPECT_NE(annotation(*find_alert(gs, "LLMTriageReplicaLoadImbalance"), "runbook").find("--replica-label pod"), std::string::npos);
  EXPECT_NE(annotation(*find_alert(gs, "LLMTriageQueueDeep"), "runbook").find("ENGINE_URL_OF_{{ $labels.pod }}"), std::string::npos);
}

TEST(AlertRules, MetricNamesFollowTheEngine) {
  auto text = [](RulesEngine e) {
    RulesOptions o;
    o.engine = e;
    return render_alert_rules(o);
  };
  const std::string v1 = text(RulesEngine::vllm), v0 = text(RulesEngine::vllm_v0), sg = text(RulesEngine::sglang);
  for (const char* n : {"vllm:kv_cache_usage_perc", "vllm:prefix_cache_hits_total", "vllm:request_time_per_output_token_seconds_bucket",
                        "vllm:inter_token_latency_seconds_bucket", "finished_reason=~\"abort|error\""})
    EXPECT_NE(v1.find(n), std::string::npos) << n;
  for (const char* n : {"gpu_cache_usage_perc", "gpu_prefix_cache", "vllm:time_per_output_token_seconds"})
    EXPECT_EQ(v1.find(n), std::string::npos) << n;
  for (const char* n : {"vllm:gpu_cache_usage_perc", "vllm:gpu_prefix_cache_hits_total", "vllm:gpu_prefix_cache_hit_rate",
                        "vllm:time_per_output_token_seconds_bucket", "http_requests_total"})
    EXPECT_NE(v0.find(n), std::string::npos) << n;
  for (const char* n : {"vllm:kv_cache_usage_perc", "inter_token_latency"}) EXPECT_EQ(v0.find(n), std::string::npos) << n;
  for (const char* n : {"sglang:num_queue_reqs", "sglang:token_usage", "sglang:num_retracted_requests_total",
                        "sglang:cached_tokens_total", "sglang:inter_token_latency_seconds_bucket",
                        "sglang:num_aborted_requests_total"})
    EXPECT_NE(sg.find(n), std::string::npos) << n;
  // Mean lengths: vLLM's per-request histograms (V0 and V1), SGLang's counters.
  for (const auto* t : {&v1, &v0}) EXPECT_NE(t->find("vllm:request_prompt_tokens_sum"), std::string::npos);
  EXPECT_NE(sg.find("sglang:generation_tokens_total"), std::string::npos);
  EXPECT_EQ(sg.find("vllm:"), std::string::npos);
  EXPECT_EQ(sg.find("sglang:cache_hit_rate"), std::string::npos);  // zeroed by decode logs
  EXPECT_NE(sg.find("llmtriage-sglang-alerts"), std::string::npos);
}

TEST(AlertRules, YamlQuoting) {
  struct Case {
    std::string in, want;
  } cases[] = {
      {"plain", "\"plain\""},
      {"a\"b", "\"a\\\"b\""},
      {"back\\slash", "\"back\\\\slash\""},
      {"two\nlines\tand\r", "\"two\\nlines\\tand\\r\""},
      {std::string("nul\0x", 5), "\"nul\\x00x\""},
      {"\x7f", "\"\\x7f\""},
      {"{{ $labels.instance }}: 5", "\"{{ $labels.instance }}: 5\""},
      {"température €", "\"température €\""},
      {"bad \xff\xfe utf8", "\"bad \\uFFFD\\uFFFD utf8\""},
      {"\xed\xa0\x80", "\"\\uFFFD\\uFFFD\\uFFFD\""},  // a UTF-16 surrogate is not UTF-8
      // YAML readers refuse C1 controls and the BOM raw, and read NEL and U+2028/9 as line breaks.
      {"nel\xc2\x85 c1\xc2\x9f ls\xe2\x80\xa8 bom\xef\xbb\xbf", "\"nel\\u0085 c1\\u009F ls\\u2028 bom\\uFEFF\""},
  };
  for (const auto& c : cases) EXPECT_EQ(yaml_quote(c.in), c.want) << c.in;
}

TEST(AlertRules, SelectorWithQuotesIsEscapedInYamlAndJson) {
  RulesOptions o;
  o.selector = R"({job="a\"b",path=~"C:\\x"})";
  ASSERT_TRUE(validate(o).ok());
  const auto gs = build_alert_rules(o);
  const std::string yaml = render_alert_rules_yaml(gs);
  // Annotations are double-quoted scalars: the selector's quote and backslash are escaped.
  const Rule* absent = find_alert(gs, "LLMTriageEngineTargetsAbsent");
  ASSERT_NE(absent, nullptr);
  EXPECT_NE(yaml.find("\"summary\": \"No scrape target matches {job=\\\"a\\\\\\\"b\\\",path=~\\\"C:\\\\\\\\x\\\"}\""),
            std::string::npos)
      << yaml.substr(yaml.find("LLMTriageEngineTargetsAbsent"), 600);
  // A one-line expression is quoted too; a multi-line one is a `|` block holding it verbatim.
  EXPECT_NE(yaml.find("expr: \"absent(up{job=\\\"a\\\\\\\"b\\\",path=~\\\"C:\\\\\\\\x\\\"})\""), std::string::npos);
  EXPECT_NE(yaml.find("expr: |\n          sum by (job, instance) (avg_over_time(vllm:num_requests_waiting{job=\"a\\\"b\",path=~\"C:\\\\x\"}[5m]))\n          > 10\n"),
            std::string::npos);
  // JSON: the same rules, read back equal.
  const auto j = nlohmann::json::parse(render_alert_rules_json(gs));
  ASSERT_EQ(j["groups"].size(), gs.size());
  size_t i = 0;
  for (const auto& r : gs[1].rules) {
    const auto& jr = j["groups"][1]["rules"][i++];
    EXPECT_EQ(jr["alert"], r.alert);
    EXPECT_EQ(jr["expr"], r.expr);
    EXPECT_EQ(jr["for"], r.for_duration);
    EXPECT_EQ(jr["annotations"]["summary"], annotation(r, "summary"));
  }
}

TEST(AlertRules, ValidateNamesTheFlag) {
  struct Case {
    void (*set)(RulesOptions&);
    const char* want;
  } cases[] = {
      {[](RulesOptions& o) { o.for_duration = "5 minutes"; }, "--for: expected a Prometheus duration"},
      {[](RulesOptions& o) { o.for_duration = ""; }, "--for"},
      {[](RulesOptions& o) { o.rate_window = "0s"; }, "--rate-window"},
      {[](RulesOptions& o) { o.rate_window = "5x"; }, "--rate-window"},
      {[](RulesOptions& o) { o.replica_label = "in-stance"; }, "--replica-label: expected a label name"},
      {[](RulesOptions& o) { o.selector = "{job=\"{{ x }}\"}"; }, "--selector"},
      {[](RulesOptions& o) { o.selector = "job"; }, "--selector"},
      {[](RulesOptions& o) { o.selector = "{job=\"a\"}{x=\"b\"}"; }, "--selector"},
      {[](RulesOptions& o) { o.selector = "{job=\"a}"; }, "without its closing quote"},
      {[](RulesOptions& o) { o.selector = "{job=\"a\nb\"}"; }, "--selector"},
      {[](RulesOptions& o) { o.gpu_selector = "gpu"; }, "--gpu-selector"},
      {[](RulesOptions& o) { o.selector = "{job=\"a\xff\"}"; }, "--selector: expected a label selector like '{job=\"vllm\",namespace=\"prod\"}' (target labels), found bytes that are not UTF-8"},
  };
  for (const auto& c : cases) {
    RulesOptions o;
    c.set(o);
    auto st = validate(o);
    ASSERT_FALSE(st.ok()) << c.want;
    EXPECT_NE(st.error().message().find(c.want), std::string::npos) << st.error().message();
  }
  for (const char* sel : {"{path=~\"a{2}\"}", "{a=\"x\\\"}\"}"}) {
    RulesOptions o;
    o.selector = sel;
    EXPECT_TRUE(validate(o).ok()) << sel;
  }
  for (const char* ok : {"0s", "30s", "1h30m", "500ms", "2d"}) {
    RulesOptions o;
    o.for_duration = ok;
    EXPECT_TRUE(validate(o).ok()) << ok;
  }
  EXPECT_EQ(rules_engine_from_string("vllm-v0"), RulesEngine::vllm_v0);
  EXPECT_FALSE(rules_engine_from_string("tgi"));
}

}  // namespace
}  // namespace llmtriage::report

// ---- round trip: a reader for the YAML subset the emitter writes ----
namespace llmtriage::report {
namespace {

// Reads a YAML double-quoted scalar starting at s[i] == '"'; nullopt when malformed.
std::optional<std::string> unquote(const std::string& s, size_t& i) {
  if (i >= s.size() || s[i] != '"') return std::nullopt;
  std::string out;
  auto utf8 = [&](uint32_t cp) {
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) out += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    else out += {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
  };
  for (++i; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      ++i;
      return out;
    }
    if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;  // raw control: not valid YAML
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= s.size()) return std::nullopt;
    switch (s[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'x':
      case 'u': {
        const size_t n = s[i] == 'x' ? 2 : 4;
        if (i + n >= s.size()) return std::nullopt;
        utf8(static_cast<uint32_t>(std::stoul(s.substr(i + 1, n), nullptr, 16)));
        i += n;
        break;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<std::string> quoted_line(const std::string& line, size_t at) {
  size_t i = at;
  auto v = unquote(line, i);
  return v && i == line.size() ? v : std::nullopt;
}

// Reads the emitter's output back into groups; nullopt at the first line it does not expect.
std::optional<std::vector<RuleGroup>> read_back(const std::string& yaml) {
  std::vector<std::string> lines;
  std::istringstream in(yaml);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<RuleGroup> gs;
  std::vector<std::pair<std::string, std::string>>* map = nullptr;
  auto starts = [](const std::string& l, const char* p) { return l.rfind(p, 0) == 0; };
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    if (starts(l, "#") || l == "groups:" || l == "    rules:") continue;
    if (starts(l, "  - name: ")) {
      auto v = quoted_line(l, 10);
      if (!v) return std::nullopt;
      gs.push_back({*v, {}});
    } else if (!gs.empty() && (starts(l, "      - record: ") || starts(l, "      - alert: "))) {
      const bool rec = starts(l, "      - record: ");
      auto v = quoted_line(l, rec ? 16 : 15);
      if (!v) return std::nullopt;
      gs.back().rules.emplace_back();
      (rec ? gs.back().rules.back().record : gs.back().rules.back().alert) = *v;
      map = nullptr;
    } else if (!gs.empty() && !gs.back().rules.empty() && l == "        expr: |") {
      std::string block;
      while (k + 1 < lines.size() && (lines[k + 1].empty() || starts(lines[k + 1], "          "))) {
        ++k;
        block += (lines[k].empty() ? "" : lines[k].substr(10)) + "\n";
      }
      // `|` keeps one final line break: PromQL ignores it; the emitter's text has none.
      if (block.empty() || block.back() != '\n') return std::nullopt;
      block.pop_back();
      gs.back().rules.back().expr = block;
    } else if (!gs.empty() && !gs.back().rules.empty() && starts(l, "        expr: ")) {
      auto v = quoted_line(l, 14);
      if (!v) return std::nullopt;
      gs.back().rules.back().expr = *v;
    } else if (!gs.empty() && !gs.back().rules.empty() && starts(l, "        for: ")) {
      auto v = quoted_line(l, 13);
      if (!v) return std::nullopt;
      gs.back().rules.back().for_duration = *v;
    } else if (!gs.empty() && !gs.back().rules.empty() && (l == "        labels:" || l == "        annotations:")) {
      map = l == "        labels:" ? &gs.back().rules.back().labels : &gs.back().rules.back().annotations;
    } else if (map && starts(l, "          \"")) {
      size_t i = 10;
      auto key = unquote(l, i);
      if (!key || l.compare(i, 2, ": ") != 0) return std::nullopt;
      auto v = quoted_line(l, i + 2);
      if (!v) return std::nullopt;
      map->emplace_back(*key, *v);
    } else {
      return std::nullopt;
    }
  }
  return gs;
}

void expect_round_trip(const RulesOptions& o, const std::string& what) {
  const auto gs = build_alert_rules(o);
  const std::string yaml = render_alert_rules_yaml(gs);
  auto back = read_back(yaml);
  ASSERT_TRUE(back) << what << "\n" << yaml.substr(0, 3000);
  ASSERT_EQ(back->size(), gs.size()) << what;
  for (size_t g = 0; g < gs.size(); ++g) {
    EXPECT_EQ((*back)[g].name, gs[g].name);
    ASSERT_EQ((*back)[g].rules.size(), gs[g].rules.size()) << what;
    for (size_t k = 0; k < gs[g].rules.size(); ++k) {
      const Rule &a = gs[g].rules[k], &b = (*back)[g].rules[k];
      EXPECT_EQ(b.record, a.record) << what;
      EXPECT_EQ(b.alert, a.alert) << what;
      EXPECT_EQ(b.expr, a.expr) << what;
      EXPECT_EQ(b.for_duration, a.for_duration) << what;
      EXPECT_EQ(b.labels, a.labels) << what;
      EXPECT_EQ(b.annotations, a.annotations) << what;
    }
  }
}

TEST(AlertRulesYaml, EverySelectorThatValidatesReadsBackUnchanged) {
  // Hostile selectors by hand, then random ones (fixed seed) from an alphabet of YAML and PromQL
  // specials and multi-byte characters.
  std::vector<std::string> selectors = {
      "", "{job=\"vllm\"}", R"({job="a\"b",path=~"C:\\x"})", "{a=\"#not a comment\"}", "{a=\": - [] {} & * ! | > ' % @ `\"}",
      "{a=\"température €\"}", "{a=\"nel\xc2\x85 ls\xe2\x80\xa8 bom\xef\xbb\xbf\"}", "{ a = \"x\" , b !~ \"y\" }"};
  const std::vector<std::string> alphabet = {"a", "z", "_", "=", "~", "!", "\"", "\\", "'", ":", "#", "-", " ", "|", ">",
                                             "%", "@", "`", ",", "{", "}", "é", "€", "\xc2\x85", "\xe2\x80\xa8", "\xef\xbb\xbf",
                                             "\xf0\x9f\x98\x80"};
  std::mt19937 rng(20261203);
  for (int n = 0; n < 400; ++n) {
    std::string s = "{l=\"";
    const int len = static_cast<int>(rng() % 12);
    for (int k = 0; k < len; ++k) s += alphabet[rng() % alphabet.size()];
    selectors.push_back(s + "\"}");
  }
  size_t valid = 0;
  for (const auto& sel : selectors) {
    RulesOptions o;
    o.selector = sel;
    o.replica_label = sel.size() % 2 ? "instance" : "pod";
    o.engine = static_cast<RulesEngine>(sel.size() % 3);
    if (!validate(o).ok()) continue;
    ++valid;
    expect_round_trip(o, sel);
  }
  EXPECT_GE(valid, 200u);
}

}  // namespace
}  // namespace llmtriage::report
