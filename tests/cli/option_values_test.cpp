// The one value parser behind every option row: types from the row, bounds, durations into
// seconds, SLOs checked, defaults shown in the grammar's own spelling.
#include "cli/option_values.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace llmtriage::cli;

TEST(OptionValues, NumbersWithinTheRowsBounds) {
  int64_t n = 100;
  Option count{"--num-requests", "", "h", &n, "", false, at_least(1)};
  EXPECT_TRUE(assign_value(count, "--num-requests", "24").ok());
  EXPECT_EQ(n, 24);
  for (const char* bad : {"-3", "0", "1.5", "ten", "", "99999999999999999999"}) {
    auto st = assign_value(count, "--num-requests", bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_EQ(st.error().where, "--num-requests");
    EXPECT_EQ(st.error().expected, "an integer >= 1");
  }
  double util = 0.9;
  Option frac{"--gpu-memory-utilization", "", "h", &util, "", false, Bounds{0, true, 1}};
  EXPECT_FALSE(assign_value(frac, "--gpu-memory-utilization", "1.5").ok());
  EXPECT_EQ(assign_value(frac, "--gpu-memory-utilization", "nan").error().expected, "a number > 0 and <= 1");
  std::optional<double> rate;
  Option r{"--rate", "", "h", &rate, "", false, kRatePositive};
  EXPECT_TRUE(assign_value(r, "--rate", "inf").ok());
  EXPECT_TRUE(std::isinf(*rate));
  EXPECT_EQ(assign_value(r, "--rate", "0").error().expected, "a number > 0 (or inf)");
  double plain = 1;  // default bounds: a finite number >= 0, no inf
  Option p{"--x", "", "h", &plain};
  EXPECT_FALSE(assign_value(p, "--x", "-1").ok());
  EXPECT_FALSE(assign_value(p, "--x", "inf").ok());
  int layers = 0;
  Option ngl{"--n-gpu-layers", "", "h", &layers, "", false, at_least(-1)};
  EXPECT_TRUE(assign_value(ngl, "--n-gpu-layers", "-1").ok());
  EXPECT_EQ(layers, -1);
}

TEST(OptionValues, DurationsBecomeSecondsOrCheckedText) {
  double deadline = 3600;
  Option d{"--deadline DURATION", "", "h", &deadline, "", false, kPositive};
  EXPECT_EQ(value_type(d), "DURATION");
  EXPECT_EQ(shown_default(d), "1h");
  EXPECT_TRUE(assign_value(d, "--deadline", "1h30m").ok());
  EXPECT_DOUBLE_EQ(deadline, 5400);
  EXPECT_TRUE(assign_value(d, "--deadline", "3600").ok());  // bare = seconds
  EXPECT_DOUBLE_EQ(deadline, 3600);
  EXPECT_FALSE(assign_value(d, "--deadline", "0").ok());
  EXPECT_FALSE(assign_value(d, "--deadline", "1000d").ok());
  double window = 30;
  Option w{"--window DURATION", "", "h", &window, "", false, kLiveWindow};
  EXPECT_NE(assign_value(w, "--window", "2d").error().message().find("up to 1d"), std::string::npos);
  std::string prom_for = "5m";  // kept as text for Prometheus, normalized
  Option f{"--for DURATION", "", "h", &prom_for};
  EXPECT_TRUE(assign_value(f, "--for", "1h30m").ok());
  EXPECT_EQ(prom_for, "90m");
}

TEST(OptionValues, TypesSlosAndDefaults) {
  std::string slo, url, text;
  std::vector<std::string> files;
  Option s{"--slo SLO", "", "h", &slo};
  EXPECT_TRUE(assign_value(s, "--slo", "ttft_p99_s=2").ok());
  EXPECT_EQ(slo, "ttft_p99_s=2");  // checked, kept as typed
  EXPECT_FALSE(assign_value(s, "--slo", "ttft=2").ok());
  EXPECT_EQ(value_type(Option{"--endpoint URL", "", "h", &url}), "URL");
  EXPECT_EQ(value_type(Option{"--log FILE", "", "h", &files}), "FILE");
  EXPECT_EQ(value_type(Option{"--log", "", "h", &files}), "LIST");
  EXPECT_EQ(value_type(Option{"--name", "", "h", &text}), "TEXT");
  bool flag = false;
  EXPECT_EQ(value_type(Option{"--eager", "", "h", &flag}), "");
  EXPECT_THROW(value_type(Option{"--x WHATEVER", "", "h", &text}), std::logic_error);
  const auto spec = parse_flag_spec("--records-format,--format NAME");
  EXPECT_EQ(spec.names, (std::vector<std::string>{"--records-format", "--format"}));
  EXPECT_EQ(spec.type, "NAME");
}
