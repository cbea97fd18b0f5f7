#pragma once
// A real inference server the drill starts and stops: fork + exec of the expanded command line
// (no shell), stdout and stderr to a log file (the engine's log is evidence), ready when GET
// /health answers 200, stopped with SIGTERM then SIGKILL. Every wait is bounded. Also a CPU
// "noisy neighbour": busy-looping child processes, the hardware fault of a CPU server.
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::drill {

class EngineProcess {
 public:
  // Starts argv, then waits up to ready_timeout_s for `base_url`/health to answer 200. An exec
  // failure, an early exit (bad flag, port taken) or the timeout is an error quoting the log's tail.
  static core::Result<std::unique_ptr<EngineProcess>> start(const std::vector<std::string>& argv, const std::string& base_url,
                                                            const std::string& log_path, double ready_timeout_s = 60);
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  const std::string& log_path() const { return log_path_; }
  std::string log_text() const;  // what it wrote so far
  bool alive() const;
  // SIGTERM, up to grace_s for it to exit, then SIGKILL. Returns the exit status (-1 when killed).
  int stop(double grace_s = 10);

 private:
  EngineProcess() = default;
  int pid_ = -1;
  std::string log_path_;
};

// `n` child processes that spin on a core each until stopped (destructor stops them).
class CpuNeighbour {
 public:
  explicit CpuNeighbour(int n);
  ~CpuNeighbour();
  CpuNeighbour(const CpuNeighbour&) = delete;
  CpuNeighbour& operator=(const CpuNeighbour&) = delete;
  int count() const { return static_cast<int>(pids_.size()); }

 private:
  std::vector<int> pids_;
};

}  // namespace llmtriage::drill
