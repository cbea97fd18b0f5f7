// `llmtriage top`'s session and driver (collect/live_loop.h).
#include "collect/live_loop.h"

#include <algorithm>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <mutex>
#include <thread>

namespace llmtriage::collect {
namespace {

std::string stamp_of(double t_unix) {
  std::time_t t = static_cast<std::time_t>(t_unix);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

}  // namespace

TopSession::TopSession(Snapshot base, TopConfig config, LayerJudge judge)
    : config_(std::move(config)), window_(std::move(base), config_.keep_s), judge_(std::move(judge)) {}

void TopSession::judge(double now) {
  if (!judge_) return;
  // Judged on the quantile window: the same span the latency lines cover.
  // On sim serve's virtual clock when it runs at a time scale, so the rules read its rates per
  // virtual second, in the units of its latencies.
  layers_ = judge_(on_virtual_clock(window_.recent(config_.frame.quantile_window_s)));
  judged_at_ = now;
}

void TopSession::on_scrape(LiveScrape s, double now) {
  ++scrapes_;
  bool ok = s.metrics.ok;
  window_.add(std::move(s));
  // A failed scrape changes no reading: the last judgement stands (shown with its age).
  if (ok && (judged_at_ < 0 || now - judged_at_ >= config_.judge_every_s - 1e-9)) judge(now);
}

TopSession::KeyResult TopSession::on_key(int key, double now) {
  switch (key) {
    case 'q':
    case 'Q':
    case 3:  // Ctrl-C arriving as a byte (raw mode without ISIG)
      return KeyResult::quit;
    case 'p':
    case 'P':
    case ' ':
      if (!paused_) frozen_ = frame(now);
      paused_ = !paused_;
      message_ = paused_ ? "paused: the screen is frozen, scraping goes on (p resumes)" : "";
      return KeyResult::redraw;
    case 's':
    case 'S':
      message_ = write_snapshot_now(now);
      return KeyResult::redraw;
    case 'e':
    case 'E':
      explain_ = !explain_;
      return KeyResult::redraw;
    default:
      return KeyResult::ignored;
  }
}

Frame TopSession::frame(double now) const {
  Frame f;
  if (paused_) {
    f = frozen_;
  } else {
    f = compute_frame(window_, now, config_.frame);
    f.layers = layers_;
    f.layers_age_s = judged_at_ < 0 ? 0 : std::max(0.0, now - judged_at_);
  }
  f.paused = paused_;
  f.explain = explain_;
  f.message = message_;
  return f;
}

std::string TopSession::write_snapshot_now(double now) {
  Snapshot s = window_.recent(config_.keep_s);
  if (s.scrapes.empty()) return "nothing to write yet: no scrape in the window";
  s.complete = true;
  s.created_unix_s = now;
  s.created_utc = stamp_of(now);
  s.interval_s = config_.interval_s;
  std::string dir = config_.snapshot_dir.empty() ? "." : config_.snapshot_dir;
  std::string path = dir + "/llmtriage-top-" + stamp_of(now) + ".json";
  auto st = write_snapshot(path, s, config_.secret);
  if (!st) return "snapshot not written: " + st.error().message();
  return "snapshot of the last " + std::to_string(static_cast<int>(s.scrapes.size())) + " scrapes written to " + path;
}

std::string run_top(TopSession& session, const TopConfig& config, const TopIo& io, const TopRun& run) {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<LiveScrape> arrived;
  bool stop = false;
  int scheduled = 0;

  // The worker scrapes at t0, t0 + interval, ...: each request is timed out inside `scrape`, so a
  // hanging peer delays the next scrape by the timeout at most, and never the keys or the screen.
  std::thread worker([&] {
    const double t0 = io.clock->now_s();
    for (int k = 0;; ++k) {
      {
        std::unique_lock<std::mutex> lock(mu);
        double wait = t0 + k * config.interval_s - io.clock->now_s();
        if (wait > 0) cv.wait_for(lock, std::chrono::duration<double>(wait), [&] { return stop; });
        if (stop) return;
        if (run.stop_after_scrapes > 0 && scheduled >= run.stop_after_scrapes) return;
        ++scheduled;
      }
      LiveScrape s = io.scrape(io.unix_now());
      std::lock_guard<std::mutex> lock(mu);
      arrived.push_back(std::move(s));
      cv.notify_all();
      if (stop) return;
    }
  });

  std::string how = "done";
  bool held = false;
  int received = 0;
  double last_show = -1;
  for (;;) {
    if (io.interrupted && io.interrupted->load()) {
      how = "interrupted";
      break;
    }
    int key = io.read_key ? io.read_key(0.1) : -1;
    bool redraw = false;
    if (key >= 0) {
      auto r = session.on_key(key, io.unix_now());
      if (r == TopSession::KeyResult::quit) {
        how = "quit";
        break;
      }
      redraw = r == TopSession::KeyResult::redraw;
    } else if (!io.read_key) {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return !arrived.empty(); });
    }
    std::deque<LiveScrape> batch;
    {
      std::lock_guard<std::mutex> lock(mu);
      batch.swap(arrived);
    }
    for (auto& s : batch) {
      session.on_scrape(std::move(s), io.unix_now());
      ++received;
      if (run.show_every_scrape_only) io.show(session.frame(io.unix_now()));
    }
    bool finished = run.stop_after_scrapes > 0 && received >= run.stop_after_scrapes;
    if (finished && run.hold_at_end && !held) {
      held = true;
      session.say(run.end_message);
      redraw = true;
    }
    double now = io.clock->now_s();
    if (!run.show_every_scrape_only && !run.show_at_end_only &&
        (redraw || !batch.empty() || last_show < 0 || now - last_show >= 1.0)) {
      io.show(session.frame(io.unix_now()));
      last_show = now;
    }
    if (finished && run.hold_at_end) continue;  // the screen and the keys only now: q quits
    if (finished) {
      if (run.show_at_end_only) io.show(session.frame(io.unix_now()));
      break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    stop = true;
  }
  cv.notify_all();
  worker.join();
  return how;
}

}  // namespace llmtriage::collect
