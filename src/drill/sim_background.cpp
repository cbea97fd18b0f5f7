// A scenario's first drill run on a thread (drill/sim_background.h).
#include "drill/sim_background.h"

#include <algorithm>
#include <chrono>

#include "drill/sim_case.h"
#include "sim/simulation.h"

namespace llmtriage::drill {

core::Result<std::unique_ptr<BackgroundRun>> BackgroundRun::start(const std::string& name, double wall_s, const std::string& what,
                                                                   const std::string& wall_flag) {
  auto c = load_case(name);
  if (!c) return std::move(c).error();
  if (!c->scenario.startup_error.empty())
    return core::make_error(core::ErrorKind::input, what, "a scenario whose deployment starts", "a startup error: " + c->scenario.startup_error,
                            "try `llmtriage drill " + name + "`: the ledger's verdict and the remedy");
  auto offline = sim::run_simulation(c->scenario.config);
  if (!offline) return std::move(offline).error();
  auto load = build_load(c->scenario, *offline);
  if (!load) return std::move(load).error();
  std::unique_ptr<BackgroundRun> b(new BackgroundRun());
  b->scenario_ = std::move(c->scenario);
  b->load_ = std::move(*load);
  b->virtual_s_ = std::max(1.0, offline->summary.sim_seconds);
  b->scale_ = choose_time_scale(b->virtual_s_, offline->summary.output_throughput, wall_s, wall_flag);
  auto ready = b->ready_.get_future();
  b->thread_ = std::thread([s = b.get()] {
    bool told = false;
    ServeAt at;
    at.stop = &s->stop_;
    at.on_serving = [s, &told](const std::string& url, const std::string&) {
      told = true;
      s->ready_.set_value(url);
    };
    auto r = run_over_http(s->scenario_, s->load_, s->scale_.scale, s->virtual_s_ / s->scale_.scale + 60, at, "sim");
    if (!told) {
      s->error_ = r.ok() ? "the server stopped before it listened" : r.error().message();
      s->ready_.set_value("");
    }
  });
  if (ready.wait_for(std::chrono::seconds(60)) != std::future_status::ready)
    return core::make_error(core::ErrorKind::input, what, "the embedded engine listening within 60 s", "no answer");
  b->url_ = ready.get();
  if (b->url_.empty()) return core::make_error(core::ErrorKind::input, what, "the embedded engine listening", b->error_);
  return b;
}

BackgroundRun::~BackgroundRun() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace llmtriage::drill
