#pragma once
// A scenario's first drill run on a thread (`llmtriage top --sim`, docs/top.md): the deployment
// served by sim serve's server in this process (127.0.0.1, a free port) and its traffic sent by the
// bench runner exactly as a drill's run A (drill/sim_run.h), at the time scale that plays it in
// about `wall_s`. The caller watches it at url() like any server; destroying it stops the load and
// the server and waits for both.
#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "core/result.h"
#include "drill/sim_run.h"

namespace llmtriage::drill {

class BackgroundRun {
 public:
  // Fails (an input error naming `what`) for an unknown scenario, a deployment that cannot start,
  // or a server that is not listening within 60 s. `what` is the flag that asked ("--sim NAME").
  static core::Result<std::unique_ptr<BackgroundRun>> start(const std::string& scenario, double wall_s, const std::string& what,
                                                            const std::string& wall_flag);
  ~BackgroundRun();
  BackgroundRun(const BackgroundRun&) = delete;
  BackgroundRun& operator=(const BackgroundRun&) = delete;

  const std::string& url() const { return url_; }
  double time_scale() const { return scale_.scale; }
  const std::string& time_scale_why() const { return scale_.why; }
  int64_t max_num_seqs() const { return scenario_.config.scheduler.max_num_seqs; }

 private:
  BackgroundRun() = default;
  sim::Scenario scenario_;
  DrillLoad load_;
  TimeScale scale_;
  double virtual_s_ = 1;
  std::atomic<bool> stop_{false};
  std::promise<std::string> ready_;  // the base URL once it listens; "" if it never did
  std::string url_, error_;
  std::thread thread_;
};

}  // namespace llmtriage::drill
