#include "core/progress.h"

#include <unistd.h>

#include <cstdio>

#include "core/clock.h"

namespace llmtriage::core {

Progress::Progress(std::string label) : label_(std::move(label)), enabled_(::isatty(2) == 1) {}

Progress::~Progress() { done(); }

void Progress::update(const std::string& text) {
  if (!enabled_) return;
  const double now = SteadyClock().now_s();
  if (last_s_ >= 0 && now - last_s_ < 0.1) return;
  last_s_ = now;
  std::string line = label_ + ": " + text;
  std::fprintf(stderr, "\r%s%*s", line.c_str(),
               static_cast<int>(last_len_ > line.size() ? last_len_ - line.size() : 0), "");
  std::fflush(stderr);
  last_len_ = line.size();
}

void Progress::done() {
  if (!enabled_ || last_len_ == 0) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(last_len_), "");
  std::fflush(stderr);
  last_len_ = 0;
}

}  // namespace llmtriage::core
