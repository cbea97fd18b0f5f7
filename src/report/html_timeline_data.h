#pragma once
// The timeline's readings, lane by lane, before drawing (html_timeline.cpp draws them): engine
// samples aggregated per scrape, rates from counter differences, TTFT in parts per interval,
// failed requests and restarts, throttle bands, each request's TTFT on the scrapes' clock.
// Internal to src/report.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/html_chart.h"
#include "report/html_report.h"
#include "report/svg_scale.h"

namespace llmtriage::report::timeline {

struct Series {
  std::string id, label, lane, unit, cls;
  std::vector<double> t, v;  // t: seconds since t0
};

// One scrape interval's TTFT in parts (seconds, means over the requests whose first token came in
// the interval): means add up where quantiles do not.
struct TtftParts {
  double from = 0, to = 0;  // seconds since t0
  std::optional<double> queue, prefill, server, client;
};

// Failed requests in one scrape interval.
struct FailedIn {
  double from = 0, to = 0;
  int errors = 0, timeouts = 0;
};

// A limiting throttle reason active on a GPU over [from, to].
struct ThrottleBand {
  double from = 0, to = 0;
  int gpu = 0;
  std::string reason;
};

// An instant on the events lane: the snapshot, or a finding's onset.
struct Mark {
  double t = 0;       // seconds since t0
  std::string kind;   // "snapshot", "onset"
  std::string label;  // "snapshot", the finding's id
  std::string detail; // what the instant is: "first reading with waiting >= 10 requests (12)"
};

struct Built {
  std::vector<Series> series;
  std::vector<std::pair<double, double>> preemptions;  // (t, count)
  std::vector<std::pair<double, double>> preempt_rate; // (t, preemptions/s over the interval before t)
  std::vector<Point> requests;                         // (t since t0, TTFT s), sorted by t, inside [0, t1]
  std::vector<TtftParts> parts;                        // intervals with at least one part
  std::vector<FailedIn> failed;                        // intervals with a failed request
  std::vector<double> restarts;                        // t: a counter went down since the previous scrape
  std::vector<ThrottleBand> bands;
  std::vector<Mark> marks;                             // time-ordered
  int failures_outside = 0;                            // failed requests outside the readings' time range
  double t0 = 0, t1 = 0;
};

// Every lane's series and marks from the readings (seconds since the first reading, t0).
Built build(const TimelineData& tl);

}  // namespace llmtriage::report::timeline
