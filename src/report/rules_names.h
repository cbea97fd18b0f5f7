#pragma once
// Metric names the alerting rules read, per engine (report-internal; src/ingest/metrics_engine.cpp
// has the same names with their versions).
#include <string>

#include "report/alert_rules.h"

namespace llmtriage::report {

struct RulesMetricNames {
  std::string waiting, running, kv, preemptions, ttft;  // gauges, counter, histogram family
  std::string tpot, tpot_fallback;  // histogram families; fallback "" = none
  std::string requests;             // a counter of finished requests
  std::string hits, queries;        // prefix-cache counters (tokens)
  std::string hit_gauge;            // V0's hit-rate gauge (-1 when prefix caching is off), or ""
  // "metric|extra matchers" (the selector is added in front): error share numerator, denominator.
  std::string err_num, err_den;
  std::string err_what;             // what the error share counts, in words
  // Mean prompt / output tokens per finished request: numerator and denominator counters.
  std::string in_num, in_den, out_num, out_den;
};

RulesMetricNames rules_metric_names(RulesEngine e);

}  // namespace llmtriage::report
