// The operator's free-form inputs (observations, thresholds file, SLO spec, output texts) through
// the whole traversal, from the fuzz seed corpus and fixed-seed mutations of it: no crash, every
// layer judged or said why not, confidences and shares inside [0, 1]. The same flow is the libFuzzer
// target fuzz/diagnose_inputs_fuzz.cpp (scripts/run-fuzz).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {
namespace {

Report diagnose_text(const std::string& text) {
  DiagnoseInput in;
  (void)load_thresholds(in.thresholds, text, "t");
  std::istringstream s(text);
  std::string line;
  bool first = true;
  while (std::getline(s, line) && in.now.outputs.size() < 64) {
    if (first) (void)parse_slo(in.slo, line);
    first = false;
    (void)add_observation(in.observations, line, "t");
    in.now.outputs.push_back(line);
  }
  return diagnose(in);
}

void check(const Report& r, const std::string& what) {
  ASSERT_EQ(r.layers.size(), all_layers().size()) << what;
  for (const auto& l : r.layers) {
    if (l.state == LayerVerdict::State::not_judged) {
      EXPECT_FALSE(l.why.empty()) << what;
    }
  }
  for (const auto& f : r.findings) {
    EXPECT_TRUE(f.confidence >= 0 && f.confidence <= 1) << what << " " << f.id;
    if (f.explains) {
      EXPECT_TRUE(*f.explains >= 0 && *f.explains <= 1) << what << " " << f.id;
    }
  }
}

TEST(InputsRobustness, SeedCorpusAndMutations) {
  std::vector<std::string> seeds;
  for (const auto& e : std::filesystem::directory_iterator(std::string(LLMTRIAGE_SOURCE_DIR) + "/fuzz/corpus/diagnose_inputs_fuzz")) {
    std::ifstream f(e.path());
    seeds.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  ASSERT_GE(seeds.size(), 3u);
  // Values at the edges of what add_observation accepts.
  seeds.push_back("power_limit_w=0\npower_w=0\nmax_sm_clock_mhz=0\nsm_clock_mhz=0\nexpected_output_tokens_per_s=0\n");
  seeds.push_back("input_len_mean=1e300\noutput_len_mean=1e-300\noutput_tokens_per_s=0\nexpected_output_tokens_per_s=1e308\n"
                  "baseline_input_len_mean=1e-300\nbaseline_request_rate=0\nrequest_rate=1e308\n");
  std::mt19937 rng(42);
  const std::string alphabet = "=_.,#\n 0123456789e-+abcdefghijklmnopqrstuvwxyz<|>";
  for (const auto& seed : std::vector<std::string>(seeds)) {
    check(diagnose_text(seed), seed.substr(0, 40));
    for (int m = 0; m < 40; ++m) {
      std::string t = seed;
      const int edits = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < edits && !t.empty(); ++k) {
        const size_t at = rng() % t.size();
        switch (rng() % 3) {
          case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
          case 1: t.erase(at, 1 + rng() % 4); break;
          default: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        }
      }
      check(diagnose_text(t), t.substr(0, 40));
    }
  }
}

}  // namespace
}  // namespace llmtriage::diagnose
