#pragma once
// A one-line progress indicator on stderr, shown only when stderr is a terminal.
#include <string>

namespace llmtriage::core {

class Progress {
 public:
  explicit Progress(std::string label);
  ~Progress();
  // Redraws "label: text" in place (carriage return), at most ~10 times per second.
  void update(const std::string& text);
  // Clears the line.
  void done();
  bool enabled() const { return enabled_; }

 private:
  std::string label_;
  bool enabled_ = false;
  double last_s_ = -1;
  size_t last_len_ = 0;
};

}  // namespace llmtriage::core
