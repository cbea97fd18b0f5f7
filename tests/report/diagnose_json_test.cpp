// The diagnosis JSON: every documented field, with the documented names and types; round trip;
// refusal of another format or a newer version; docs/diagnose-json.md names every key emitted.
#include "report/diagnose_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "report/sample_report.h"

using namespace llmtriage;
using nlohmann::json;

namespace {

std::set<std::string> keys(const json& j) {
  std::set<std::string> k;
  for (auto it = j.begin(); it != j.end(); ++it) k.insert(it.key());
  return k;
}

void collect_keys(const json& j, std::set<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      out.insert(it.key());
      collect_keys(*it, out);
    }
  } else if (j.is_array()) {
    for (const auto& x : j) collect_keys(x, out);
  }
}

}  // namespace

TEST(DiagnoseJson, TopLevelShape) {
  json j = report::to_json(report_test::saturated_report());
  EXPECT_EQ(keys(j), (std::set<std::string>{"format", "version", "exit_code", "symptoms", "symptoms_detected",
                                            "findings", "layers", "cleared", "not_judged", "inputs", "missing",
                                            "definitions", "snapshot_path", "plan"}));
  EXPECT_EQ(j["format"], "llmtriage-diagnosis");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["exit_code"], 1);  // a warning finding
  EXPECT_EQ(j["symptoms"], json::array({"ttft_spike"}));
  EXPECT_EQ(j["symptoms_detected"], true);
  EXPECT_EQ(j["definitions"], "docs/metrics.md");
  EXPECT_EQ(j["snapshot_path"], "/var/tmp/llmtriage-snapshot-20261203T061500Z.json");
}

TEST(DiagnoseJson, FindingFieldsAsDocumented) {
  json f = report::to_json(report_test::saturated_report())["findings"][0];
  EXPECT_EQ(keys(f), (std::set<std::string>{"id", "layer", "symptom", "severity", "confidence", "explains", "title",
                                            "explanation", "evidence", "remedies", "next_measurement", "status", "evidence_against"}));
  EXPECT_EQ(f["id"], "kv_pool_saturated");
  EXPECT_EQ(f["layer"], "scheduling_capacity");
  EXPECT_EQ(f["symptom"], "ttft_spike");
  EXPECT_EQ(f["severity"], "warning");
  EXPECT_DOUBLE_EQ(f["confidence"].get<double>(), 0.85);
  EXPECT_DOUBLE_EQ(f["explains"].get<double>(), 0.7);
  const json& e0 = f["evidence"][0];
  EXPECT_EQ(keys(e0), (std::set<std::string>{"indicator", "value", "unit", "threshold", "op", "source", "text"}));
  EXPECT_EQ(e0["indicator"], "waiting_p50");
  EXPECT_EQ(e0["value"], 42);
  EXPECT_EQ(e0["unit"], "requests");
  EXPECT_EQ(e0["threshold"], 4);
  EXPECT_EQ(e0["op"], ">");
  // A quoted log line has no value and no threshold: null, not 0.
  const json& e3 = f["evidence"][3];
  EXPECT_TRUE(e3["value"].is_null());
  EXPECT_TRUE(e3["threshold"].is_null());
  EXPECT_EQ(e3["text"], "Sequence group 12 is preempted | RECOMPUTE");
  const json& r0 = f["remedies"][0];
  EXPECT_EQ(keys(r0), (std::set<std::string>{"change", "from", "to", "predicted_effect", "basis", "uncertainty", "kind",
                                             "outcome", "predicted"}));
  EXPECT_EQ(r0["kind"], "change");
  EXPECT_EQ(r0["outcome"], "improves");
  EXPECT_EQ(r0["predicted"]["metric"], "P99 TTFT");
  EXPECT_DOUBLE_EQ(r0["predicted"]["before"].get<double>(), 12.4);
  EXPECT_DOUBLE_EQ(r0["predicted"]["after"].get<double>(), 1.9);
  EXPECT_EQ(f["remedies"][2]["outcome"], "not_predicted");
  EXPECT_TRUE(f["remedies"][2]["predicted"].is_null());
  EXPECT_EQ(r0["change"], "max-num-seqs");
  EXPECT_EQ(r0["from"], "256");
  EXPECT_EQ(r0["to"], "128");
  EXPECT_EQ(r0["basis"], "sim");
  EXPECT_DOUBLE_EQ(r0["uncertainty"].get<double>(), 0.3);
  EXPECT_TRUE(f["remedies"][1]["uncertainty"].is_null());
  // The second finding has no estimate of its share.
  EXPECT_TRUE(report::to_json(report_test::saturated_report())["findings"][1]["explains"].is_null());
}

TEST(DiagnoseJson, ClearedNotJudgedAndInputs) {
  json j = report::to_json(report_test::saturated_report());
  ASSERT_EQ(j["layers"].size(), 5u);
  EXPECT_EQ(j["layers"][1]["state"], "at_fault");
  ASSERT_EQ(j["cleared"].size(), 1u);
  EXPECT_EQ(j["cleared"][0]["layer"], "load");
  EXPECT_EQ(j["cleared"][0]["evidence"][0]["indicator"], "input_len_mean");
  ASSERT_EQ(j["not_judged"].size(), 2u);
  EXPECT_EQ(j["not_judged"][0]["layer"], "operator_hardware");
  EXPECT_NE(j["not_judged"][0]["why"].get<std::string>().find("no GPU telemetry"), std::string::npos);
  ASSERT_EQ(j["inputs"].size(), 2u);
  EXPECT_EQ(j["inputs"][1]["ok"], false);
  EXPECT_EQ(j["inputs"][1]["kind"], "log");
  EXPECT_EQ(j["missing"][0], "no GPU telemetry: operator/hardware layer not judged");
}

TEST(DiagnoseJson, EmptyReportIsHealthyWithNullSnapshot) {
  json j = report::to_json(diagnose::Report{});
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_TRUE(j["findings"].is_array() && j["findings"].empty());
  EXPECT_TRUE(j["snapshot_path"].is_null());
  EXPECT_TRUE(j["cleared"].is_array());
}

TEST(DiagnoseJson, RoundTrip) {
  json a = report::to_json(report_test::saturated_report());
  auto back = report::report_from_json(a, "a.json");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(report::to_json(*back), a);
}

TEST(DiagnoseJson, PrecautionsAndNilRemediesRoundTrip) {
  auto r = report_test::saturated_report();
  diagnose::Remedy keep{"capture before restart", "", "keep /tmp/s.json", "the evidence survives", "qualitative", {}};
  keep.kind = diagnose::Remedy::Kind::precaution;
  diagnose::Remedy nil{"max-num-batched-tokens", "8192", "16384", "P99 TTFT 688 ms -> 688 ms", "sim", 0.3};
  nil.predicted = diagnose::PredictedValue{"P99 TTFT", "s", 0.688, 0.688, false, 0.3};
  r.findings[0].remedies.insert(r.findings[0].remedies.begin(), keep);
  r.findings[0].remedies.push_back(nil);
  json a = report::to_json(r);
  EXPECT_EQ(a["findings"][0]["remedies"][0]["kind"], "precaution");
  EXPECT_EQ(a["findings"][0]["remedies"][4]["outcome"], "no_effect");
  auto back = report::report_from_json(a, "a.json");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(report::to_json(*back), a);
  EXPECT_EQ(back->findings[0].remedies[0].kind, diagnose::Remedy::Kind::precaution);
}

TEST(DiagnoseJson, RefusesAnotherFormatOrANewerVersion) {
  json j = report::to_json(report_test::saturated_report());
  j["version"] = 2;
  auto r = report::report_from_json(j, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message(), "x.json version: expected 1, found 2");
  j["version"] = 1;
  j["format"] = "llmtriage-snapshot";
  r = report::report_from_json(j, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("found \"llmtriage-snapshot\""), std::string::npos);
  j["format"] = "llmtriage-diagnosis";
  j["findings"][0]["layer"] = "network";
  r = report::report_from_json(j, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("findings[0].layer"), std::string::npos);
}

TEST(DiagnoseJson, DocumentationNamesEveryKey) {
  std::ifstream in(std::string(LLMTRIAGE_SOURCE_DIR) + "/docs/diagnose-json.md");
  ASSERT_TRUE(in.good()) << "docs/diagnose-json.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  std::set<std::string> all;
  collect_keys(report::to_json(report_test::saturated_report()), all);
  for (const auto& k : all) EXPECT_NE(doc.find("`" + k + "`"), std::string::npos) << "undocumented key " << k;
}

TEST(DiagnoseJson, WrongTypesReadAsAbsentNeverThrow) {
  json j = {{"format", "llmtriage-diagnosis"}, {"version", 1}, {"findings", 7}, {"symptoms", "ttft_spike"},
            {"symptoms_detected", "yes"}, {"inputs", {{{"source", "a"}, {"ok", "no"}}}}, {"missing", {1, "m"}},
            {"layers", {{{"layer", "load"}, {"state", "cleared"}, {"evidence", "x"}}}}};
  auto r = report::report_from_json(j, "odd.json");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_TRUE(r->findings.empty());
  EXPECT_TRUE(r->symptoms.empty());
  EXPECT_FALSE(r->symptoms_detected);
  ASSERT_EQ(r->inputs.size(), 1u);
  EXPECT_TRUE(r->inputs[0].ok);
  EXPECT_EQ(r->missing, std::vector<std::string>{"m"});
  ASSERT_EQ(r->layers.size(), 1u);
  EXPECT_TRUE(r->layers[0].evidence.empty());
}
