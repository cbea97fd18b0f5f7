#pragma once
// Building snapshots: from expositions saved earlier (`curl .../metrics > m.prom`, in time
// order) or live from an endpoint over a window. A failing or vanishing endpoint never loses
// what was captured: the failure is recorded and the capture goes on until the window ends.
#include <functional>
#include <string>
#include <vector>

#include "collect/snapshot.h"
#include "core/clock.h"
#include "core/result.h"

namespace llmtriage::collect {

struct CaptureOptions {
  core::EngineKind engine = core::EngineKind::unknown;  // unknown: detect
  bool strict = false;            // a malformed exposition line is an error
  std::string engine_args;        // raw engine command line / arguments (stored redacted)
  bool read_local_gpus = true;    // NVML / nvidia-smi on this machine when no DCGM source
};

// --metrics-file FILE... (time order). Each file is one scrape; its time is the file's mtime
// (files with equal or decreasing mtimes are spaced 1 s apart so rates stay defined, and a note
// says so). A file that cannot be read or parsed (strict) is an error: the user named it.
// Files whose only content is DCGM metrics feed the GPU samples.
core::Result<Snapshot> snapshot_from_files(const std::vector<std::string>& files,
                                           const CaptureOptions& options);

struct LiveOptions {
  std::string endpoint;           // http://host:port or .../metrics (the path defaults to /metrics)
  std::string dcgm;               // optional dcgm-exporter URL
  std::string api_key;            // sent as a bearer token; never stored
  double window_s = 30;
  double interval_s = 5;
  double request_timeout_s = 10;  // per request; capped at the interval
  CaptureOptions capture;
  // Called after every scrape with the snapshot so far (complete == false): the CLI writes it,
  // so an interrupted capture still leaves a valid file.
  std::function<void(const Snapshot&)> on_progress;
  const core::Clock* clock = nullptr;  // steady clock for the schedule; null = real one
};

// Scrapes endpoint (and dcgm) at t0, t0+interval, ... up to t0+window; takes /version and
// /v1/models once. Fails only on a bad option (unparseable URL, window < 0): a dead endpoint
// gives a snapshot whose scrapes all failed, with the failures recorded.
core::Result<Snapshot> capture_live(const LiveOptions& options);

// "http://h:8000" -> "http://h:8000/metrics"; a URL with a path is kept as given.
std::string metrics_url(const std::string& endpoint);

}  // namespace llmtriage::collect
