// PromParser: the exposition grammar (0.0.4 + OpenMetrics basics), the exact error for each
// malformed form (in the spirit of Prometheus' promparse_test.go), lenient vs strict mode.
#include "ingest/prom_parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace llmtriage::ingest;

namespace {

struct Seen {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  double value = 0;
  std::optional<double> ts;
  PromType type = PromType::untyped;
  std::string family;
};

std::vector<Seen> series_of(std::string_view text, PromOptions opt = {}) {
  PromParser p(text, opt);
  std::vector<Seen> out;
  for (PromEntry e; (e = p.next()) != PromEntry::end;) {
    if (e != PromEntry::series) continue;
    Seen s{std::string(p.name()), {}, p.value(), p.timestamp_s(), p.type(), std::string(p.family())};
    for (const auto& l : p.labels()) s.labels.emplace_back(l.name, l.value);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

TEST(PromParser, ParsesSeriesLabelsValuesAndTimestamps) {
  const char* text =
      "# HELP http_requests_total The total number of HTTP requests.\n"
      "# TYPE http_requests_total counter\n"
      "http_requests_total{method=\"post\",code=\"200\"} 1027 1395066363000\n"
      "http_requests_total{method=\"post\",code=\"400\"}    3   1395066363000\n"
      "\n"
      "msdos_file_access_time_seconds{path=\"C:\\\\DIR\\\\FILE.TXT\",error=\"Cannot find file:\\n\\\"FILE.TXT\\\"\"} 1.458255915e9\n"
      "metric_without_timestamp_and_labels 12.47\n"
      "something_weird{problem=\"division by zero\"} +Inf -3982045\n";
  auto s = series_of(text);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].name, "http_requests_total");
  EXPECT_EQ(s[0].labels, (std::vector<std::pair<std::string, std::string>>{{"method", "post"}, {"code", "200"}}));
  EXPECT_EQ(s[0].value, 1027);
  ASSERT_TRUE(s[0].ts);
  EXPECT_DOUBLE_EQ(*s[0].ts, 1395066363.0);  // 0.0.4 timestamps are milliseconds
  EXPECT_EQ(s[0].type, PromType::counter);
  EXPECT_EQ(s[1].value, 3);
  EXPECT_EQ(s[2].labels[0].second, "C:\\DIR\\FILE.TXT");
  EXPECT_EQ(s[2].labels[1].second, "Cannot find file:\n\"FILE.TXT\"");
  EXPECT_EQ(s[3].labels.size(), 0u);
  EXPECT_DOUBLE_EQ(s[3].value, 12.47);
  EXPECT_EQ(s[3].type, PromType::untyped);
  EXPECT_TRUE(std::isinf(s[4].value));
  EXPECT_DOUBLE_EQ(*s[4].ts, -3982.045);
}

TEST(PromParser, SpecialValuesAndNumberForms) {
  auto s = series_of("a +Inf\nb -Inf\nc NaN\nd nan\ne 1e3\nf -0.5\ng 7.557572e+06\nh Inf\n");
  ASSERT_EQ(s.size(), 8u);
  EXPECT_TRUE(std::isinf(s[0].value) && s[0].value > 0);
  EXPECT_TRUE(std::isinf(s[1].value) && s[1].value < 0);
  EXPECT_TRUE(std::isnan(s[2].value));
  EXPECT_TRUE(std::isnan(s[3].value));
  EXPECT_EQ(s[4].value, 1000);
  EXPECT_EQ(s[5].value, -0.5);
  EXPECT_EQ(s[6].value, 7557572);
  EXPECT_TRUE(std::isinf(s[7].value));
}

TEST(PromParser, HistogramAndSummaryFamiliesResolveTheirSuffixes) {
  const char* text =
      "# TYPE vllm:iteration_tokens_total histogram\n"
      "vllm:iteration_tokens_total_bucket{le=\"1.0\",model_name=\"m\"} 994.0\n"
      "vllm:iteration_tokens_total_bucket{le=\"+Inf\",model_name=\"m\"} 998.0\n"
      "vllm:iteration_tokens_total_sum{model_name=\"m\"} 1103.0\n"
      "vllm:iteration_tokens_total_count{model_name=\"m\"} 998.0\n"
      "vllm:iteration_tokens_total_created{model_name=\"m\"} 1.7e9\n"
      "# TYPE rpc_duration_seconds summary\n"
      "rpc_duration_seconds{quantile=\"0.5\"} 4773\n"
      "rpc_duration_seconds_sum 1.7560473e+07\n"
      "rpc_duration_seconds_count 2693\n"
      "rpc_duration_seconds_bucket 1\n";  // not a summary suffix
  auto s = series_of(text);
  ASSERT_EQ(s.size(), 9u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s[i].type, PromType::histogram) << s[i].name;
    EXPECT_EQ(s[i].family, "vllm:iteration_tokens_total") << s[i].name;
  }
  for (int i = 5; i < 8; ++i) EXPECT_EQ(s[i].type, PromType::summary) << s[i].name;
  EXPECT_EQ(s[8].type, PromType::untyped);
  EXPECT_EQ(s[8].family, "rpc_duration_seconds_bucket");
}

TEST(PromParser, OpenMetricsUnitExemplarEofAndSecondTimestamps) {
  const char* text =
      "# TYPE foo_seconds counter\n"
      "# UNIT foo_seconds seconds\n"
      "# HELP foo_seconds Help with \\\\ and \\n escapes.\n"
      "foo_seconds_total{a=\"b\"} 17.0 1520879607.789 # {trace_id=\"oHg5SJYRHA0\"} 9.8 1520879607.789\n"
      "foo_seconds_created{a=\"b\"} 1520430000.123\n"
      "# EOF\n";
  PromOptions opt;
  opt.openmetrics = true;
  PromParser p(text, opt);
  std::vector<PromEntry> kinds;
  for (PromEntry e; (e = p.next()) != PromEntry::end;) {
    kinds.push_back(e);
    if (e == PromEntry::unit) {
      EXPECT_EQ(p.unit(), "seconds");
    }
    if (e == PromEntry::help) {
      EXPECT_EQ(p.help_text(), "Help with \\ and \n escapes.");
    }
    if (e == PromEntry::series && p.name() == "foo_seconds_total") {
      EXPECT_TRUE(p.has_exemplar());
      EXPECT_DOUBLE_EQ(*p.timestamp_s(), 1520879607.789);
      EXPECT_EQ(p.type(), PromType::counter);
      EXPECT_EQ(p.family(), "foo_seconds");
    }
  }
  EXPECT_EQ(kinds, (std::vector<PromEntry>{PromEntry::type, PromEntry::unit, PromEntry::help,
                                           PromEntry::series, PromEntry::series, PromEntry::eof}));
  EXPECT_EQ(p.malformed_count(), 0u);
}

TEST(PromParser, ToleratesSpacesInLabelSetsTrailingCommaAndCrlf) {
  // DCGM exporter README prints a space after the comma; Windows line ends happen in saved files.
  auto s = series_of("DCGM_FI_DEV_SM_CLOCK{gpu=\"0\", UUID=\"GPU-1\"} 139\r\n"
                     "x{ a = \"1\" , } 2\r\n"
                     "y {} 3\n");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].labels[1], (std::pair<std::string, std::string>{"UUID", "GPU-1"}));
  EXPECT_EQ(s[0].value, 139);
  EXPECT_EQ(s[1].labels[0], (std::pair<std::string, std::string>{"a", "1"}));
  EXPECT_EQ(s[2].value, 3);
}

// Every malformed form and the exact error it produces. The line is skipped and counted.
struct BadCase {
  const char* input;
  const char* error;
};

TEST(PromParser, MalformedLinesTable) {
  const BadCase cases[] = {
      {"{a=\"b\"} 1", "line 1: expected a metric name, found '{'"},
      {"0abc 1", "line 1: expected a metric name, found '0'"},
      {"foo", "line 1: expected a value after \"foo\", found end of line"},
      {"foo{a=\"b\"}", "line 1: expected a value after \"foo\", found end of line"},
      {"foo{a=\"b\"}1", "line 1: expected a space before the value of \"foo\", found '1'"},
      {"foo bar", "line 1: expected a number as the value of \"foo\", found \"bar\""},
      {"foo 1.2.3", "line 1: expected a number as the value of \"foo\", found \"1.2.3\""},
      {"foo ++1", "line 1: expected a number as the value of \"foo\", found \"++1\""},
      {"foo 1 abc", "line 1: expected a timestamp or end of line after the value of \"foo\", found \"abc\""},
      {"foo 1 NaN", "line 1: expected a timestamp or end of line after the value of \"foo\", found \"NaN\""},
      {"foo 1 2 3", "line 1: expected end of line after the timestamp of \"foo\", found \"3\""},
      {"foo 1 # not an exemplar", "line 1: expected an exemplar \"# {...} value\" after the value of \"foo\", found \"# not an exemplar\""},
      {"foo{", "line 1: expected a label name or '}', found end of line"},
      {"foo{1a=\"b\"} 1", "line 1: expected a label name or '}', found '1'"},
      {"foo{a} 1", "line 1: expected '=' after label name \"a\", found '}'"},
      {"foo{a=b} 1", "line 1: expected '\"' to open the value of label \"a\", found 'b'"},
      {"foo{a=\"b} 1", "line 1: expected '\"' to close the value of label \"a\", found end of line"},
      {"foo{a=\"b\\\"} 1", "line 1: expected '\"' to close the value of label \"a\", found end of line"},
      {"foo{a=\"b\" c=\"d\"} 1", "line 1: expected ',' or '}' after the value of label \"a\", found 'c'"},
      {"foo{a=\"b\",,} 1", "line 1: expected a label name or '}', found ','"},
      {"# TYPE", "line 1: expected a metric name after \"# TYPE\", found end of line"},
      {"# TYPE foo", "line 1: expected a metric type (counter, gauge, histogram, summary, untyped, gaugehistogram, info, stateset) in \"# TYPE\", found end of line"},
      {"# TYPE foo bogus", "line 1: expected a metric type (counter, gauge, histogram, summary, untyped, gaugehistogram, info, stateset) in \"# TYPE\", found \"bogus\""},
      {"# HELP 9foo text", "line 1: expected a metric name after \"# HELP\", found '9'"},
      {"# HELP foo{ text", "line 1: expected a space after the metric name in \"# HELP\", found '{'"},
      {"# UNIT", "line 1: expected a metric name after \"# UNIT\", found end of line"},
      {"# EOF junk", "line 1: expected end of line after \"# EOF\", found \"junk\""},
      {"# EOF\nfoo 1", "line 2: expected nothing after \"# EOF\", found \"foo 1\""},
      {"...", "line 1: expected a metric name, found '.'"},
      {"foo\x01 1", "line 1: expected a space before the value of \"foo\", found byte 0x01"},
  };
  for (const auto& c : cases) {
    PromParser p(c.input);
    while (p.next() != PromEntry::end) {
    }
    ASSERT_EQ(p.malformed_count(), 1u) << c.input;
    EXPECT_EQ(p.errors().at(0).message(), c.error) << "input: " << c.input;
  }
}

TEST(PromParser, LenientModeSkipsBadLinesAndKeepsGoingWithLineNumbers) {
  const char* text = "good 1\nbad line here\ngood 2\nfoo{ 3\ngood 3\n";
  PromParser p(text);
  int good = 0;
  for (PromEntry e; (e = p.next()) != PromEntry::end;) good += e == PromEntry::series;
  EXPECT_EQ(good, 3);
  EXPECT_EQ(p.malformed_count(), 2u);
  ASSERT_EQ(p.errors().size(), 2u);
  EXPECT_EQ(p.errors()[0].line, 2);
  EXPECT_EQ(p.errors()[1].line, 4);
  EXPECT_EQ(p.malformed_summary(),
            "2 malformed lines skipped (first: line 2: expected a number as the value of \"bad\", "
            "found \"line\")");
}

TEST(PromParser, StrictModeStopsAtTheFirstBadLineWithAnErrorNamingTheSource) {
  PromOptions opt;
  opt.strict = true;
  opt.source = "m.prom";
  PromParser p("good 1\nfoo{a=b} 2\ngood 3\n", opt);
  EXPECT_EQ(p.next(), PromEntry::series);
  EXPECT_EQ(p.next(), PromEntry::error);
  EXPECT_EQ(p.next(), PromEntry::end);
  auto err = p.first_error();
  ASSERT_TRUE(err);
  EXPECT_EQ(err->message(),
            "m.prom:2: expected '\"' to open the value of label \"a\", found 'b'");
}

TEST(PromParser, KeepsOnlyTheFirstErrorsButCountsAll) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "bad\n";
  PromOptions opt;
  opt.max_kept_errors = 5;
  PromParser p(text, opt);
  while (p.next() != PromEntry::end) {
  }
  EXPECT_EQ(p.malformed_count(), 100u);
  EXPECT_EQ(p.errors().size(), 5u);
}

TEST(PromParser, CommentsAndUnknownHashLinesAreComments) {
  PromParser p("# just a comment\n#HELP not-meta\n# source: https://example\nx 1\n");
  std::vector<PromEntry> kinds;
  for (PromEntry e; (e = p.next()) != PromEntry::end;) kinds.push_back(e);
  EXPECT_EQ(kinds, (std::vector<PromEntry>{PromEntry::comment, PromEntry::comment,
                                           PromEntry::comment, PromEntry::series}));
}

TEST(PromParser, LastLineWithoutNewlineIsParsed) {
  auto s = series_of("a 1\nb 2");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].value, 2);
}

namespace llmtriage::ingest {

// escape_label_value is the parser's unescape, inverted: a written value reads back unchanged.
TEST(PromEscape, LabelValuesRoundTripThroughTheParser) {
  for (std::string v : {std::string("plain"), std::string("a\"quote"), std::string("back\\slash"), std::string("two\nlines"),
                        std::string("\\\"\n\\n")}) {
    const std::string text = "m{l=\"" + escape_label_value(v) + "\"} 1\n";
    PromParser p(text);
    ASSERT_EQ(p.next(), PromEntry::series) << text;
    ASSERT_EQ(p.labels().size(), 1u) << text;
    EXPECT_EQ(std::string(p.labels()[0].value), v) << text;
  }
}

}  // namespace llmtriage::ingest
