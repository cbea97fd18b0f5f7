#pragma once
// One scrape at a time, for a live view: what `capture_live` does per interval (/metrics, llama.cpp
// /slots, DCGM or the local GPUs), as a call the caller schedules. Every request is timed out, so a
// peer that hangs costs at most the timeout; garbage is a failed scrape with the parser's reason.
#include <memory>
#include <string>

#include "collect/capture.h"
#include "collect/live_view.h"

namespace llmtriage::collect {

struct LiveScrapeOptions {
  std::string endpoint;          // http://host:port or .../metrics
  std::string dcgm;              // optional dcgm-exporter URL
  std::string api_key;           // bearer token; never stored
  double request_timeout_s = 1;  // per request
  CaptureOptions capture;
};

class LiveScraper {
 public:
  // Checks the URLs (a bad one is an error); reads nothing yet.
  static core::Result<std::unique_ptr<LiveScraper>> open(const LiveScrapeOptions& options);
  ~LiveScraper();
  LiveScraper(const LiveScraper&) = delete;
  LiveScraper& operator=(const LiveScraper&) = delete;

  // /version, /v1/models and (llama.cpp) /props, once: the snapshot the live window starts from.
  // A server that answers none of them still gives a base (its failures recorded).
  Snapshot read_base();
  // One scrape at unix time t_unix_s (the engine its metrics name is in the result).
  LiveScrape scrape(double t_unix_s);

 private:
  LiveScraper() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmtriage::collect
