#pragma once
// `llmtriage top`'s loop: a session (the rolling window, the layer judgement every few seconds,
// pause, the snapshot key) driven by scrapes and keys, and the driver that schedules scrapes on a
// worker thread so a hanging peer never freezes the keys or the screen. Terminal, network and
// diagnosis are injected: the session is a plain state machine tests drive by hand.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "collect/live_view.h"
#include "core/clock.h"

namespace llmtriage::collect {

struct TopConfig {
  double interval_s = 1;          // between scrapes
  double keep_s = 60;             // the rolling window kept (and written by `s`)
  double judge_every_s = 3;       // the layer lines are re-judged this often
  FrameOptions frame;
  std::string snapshot_dir = "."; // where `s` writes
  std::string secret;             // the API key, redacted from what `s` writes
};

// The diagnosis of the recent samples, one line per layer (the CLI passes diagnose::diagnose).
using LayerJudge = std::function<std::vector<LayerLine>(const Snapshot& recent)>;

class TopSession {
 public:
  TopSession(Snapshot base, TopConfig config, LayerJudge judge);

  void on_scrape(LiveScrape scrape, double now_unix_s);
  enum class KeyResult { ignored, redraw, quit };
  KeyResult on_key(int key, double now_unix_s);
  // What to show now. While paused: the frame frozen at the pause, with only the view state new.
  Frame frame(double now_unix_s) const;

  bool paused() const { return paused_; }
  void say(std::string message) { message_ = std::move(message); }  // the view's message line
  int scrapes_seen() const { return scrapes_; }
  const LiveWindow& window() const { return window_; }
  // Writes the kept window as a snapshot file; returns the message the view shows (path or error).
  std::string write_snapshot_now(double now_unix_s);

 private:
  void judge(double now_unix_s);
  TopConfig config_;
  LiveWindow window_;
  LayerJudge judge_;
  std::vector<LayerLine> layers_;
  double judged_at_ = -1;
  bool paused_ = false;
  bool explain_ = false;  // the `e` key
  Frame frozen_;
  std::string message_;
  int scrapes_ = 0;
};

// What the driver needs from the outside world.
struct TopIo {
  const core::Clock* clock = nullptr;            // steady: the scrape schedule
  std::function<double()> unix_now;              // labels and staleness
  std::function<LiveScrape(double t_unix_s)> scrape;  // called on the worker thread
  std::function<int(double timeout_s)> read_key; // a key, or -1 when none came within the timeout
  std::function<void(const Frame&)> show;
  const std::atomic<bool>* interrupted = nullptr;  // Ctrl-C, SIGTERM, SIGHUP
};

struct TopRun {
  int stop_after_scrapes = 0;  // 0: until `q` or an interrupt
  bool show_every_scrape_only = false;  // --json: one frame per scrape; else also on keys and each second
  bool show_at_end_only = false;        // --once / not a terminal: one frame after the last scrape
  // After the last scrape, keep the screen and the keys until `q` (a replay that reached its end),
  // saying so with this message.
  bool hold_at_end = false;
  std::string end_message;
};

// Runs until quit, interrupt or the scrape count; returns how it ended ("quit", "interrupted", "done").
std::string run_top(TopSession& session, const TopConfig& config, const TopIo& io, const TopRun& run);

}  // namespace llmtriage::collect
