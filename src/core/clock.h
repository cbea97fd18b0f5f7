#pragma once
// Injected clocks. Intervals are measured on steady_clock only; wall time (system_clock) is
// used only to label a snapshot or report. The simulator runs on its own virtual clock.
#include <chrono>

namespace llmtriage::core {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds on a monotonic clock with an arbitrary epoch.
  virtual double now_s() const = 0;
};

class SteadyClock final : public Clock {
 public:
  double now_s() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

// A clock tests and the simulator move by hand.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(double start_s = 0) : t_(start_s) {}
  double now_s() const override { return t_; }
  void advance(double dt_s) { t_ += dt_s; }
  void set(double t_s) { t_ = t_s; }

 private:
  double t_;
};

// Unix time in seconds (labels only).
inline double unix_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace llmtriage::core
