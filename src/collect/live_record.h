#pragma once
// `top --record FILE` and `top --replay FILE` (docs/top.md, "Record and replay"): every scrape the
// live view took, one JSON line each, so an incident can be watched again later, at its own pace
// or faster, by anyone, without the server. Line 1 is the header: {"format":
// "llmtriage-top-recording", "version": 1, "base": the snapshot of what is read once (endpoint,
// engine, version, models, /props, settings)}. Every next line is {"scrape": a snapshot holding
// that one scrape: its /metrics record (raw exposition and parsed samples), /slots, GPU readings,
// failures}. The snapshot format is collect/snapshot.h's, so nothing new is invented for the pieces.
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "collect/live_view.h"
#include "core/clock.h"
#include "core/result.h"

namespace llmtriage::collect {

inline constexpr const char* kTopRecordingFormat = "llmtriage-top-recording";

// Appends scrapes to a recording as they come: each line written and flushed, so an interrupted
// `top` leaves every scrape it took (a cut last line is counted as malformed on replay). The
// secret (the API key) is replaced by "<redacted>" wherever it would appear.
class TopRecorder {
 public:
  static core::Result<std::unique_ptr<TopRecorder>> open(const std::string& path, const Snapshot& base, const std::string& secret);
  core::Status add(const LiveScrape& scrape);
  ~TopRecorder();
  TopRecorder(const TopRecorder&) = delete;
  TopRecorder& operator=(const TopRecorder&) = delete;

 private:
  TopRecorder(std::FILE* f, std::string path, std::string secret) : f_(f), path_(std::move(path)), secret_(std::move(secret)) {}
  core::Status write_line(std::string line);
  std::FILE* f_ = nullptr;
  std::string path_, secret_;
};

struct TopRecording {
  Snapshot base;
  std::vector<LiveScrape> scrapes;          // in recorded order
  size_t malformed = 0;                     // lines that are not a scrape (a cut last line after a crash)
  std::vector<std::string> errors;          // the first few, "FILE:LINE: ..."
};

// A recording played back as a scrape source: take() hands over the scrapes in order, paced (when
// `paced`) so each comes when the replay clock (the recorded time, `speed` times faster, from the
// first scrape) reaches it; now() is that clock, stopped at the last scrape so nothing goes stale
// past the end. Unpaced (--once, --json), take() returns at once and now() is the time of the last
// scrape handed over. take() runs on top's scrape thread, now() on its view thread.
class RecordingPlayer {
 public:
  RecordingPlayer(TopRecording recording, double speed, bool paced, const core::Clock& clock);
  size_t size() const { return rec_.scrapes.size(); }
  const TopRecording& recording() const { return rec_; }
  double now() const;
  // The next scrape; a paced wait ends early when `stop` is set. Call at most size() times.
  LiveScrape take(const std::atomic<bool>* stop);

 private:
  TopRecording rec_;
  double speed_;
  bool paced_;
  const core::Clock& clock_;
  double t0_rec_, t0_steady_;
  std::atomic<size_t> next_{0};
};

// Reads a recording; a file that is not one (no header line) is an input error naming what it found.
// With `strict`, the first malformed line is an error too.
core::Result<TopRecording> read_top_recording(const std::string& path, bool strict = false);

}  // namespace llmtriage::collect
