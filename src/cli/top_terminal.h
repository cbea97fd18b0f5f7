#pragma once
// The terminal under `llmtriage top`: keys without Enter and without echo, the alternate screen,
// the size, and a terminal put back as it was on every way out (q, Ctrl-C, SIGTERM, SIGHUP).
#include <atomic>
#include <string>

namespace llmtriage::cli {

class TopTerminal {
 public:
  // Raw keys (no ICANON, no ECHO; ISIG kept so Ctrl-C is a signal), alternate screen, hidden
  // cursor. `active()` is false when stdin or stdout is not a terminal: nothing was changed.
  TopTerminal();
  ~TopTerminal();  // restores the saved modes and screen
  TopTerminal(const TopTerminal&) = delete;
  TopTerminal& operator=(const TopTerminal&) = delete;

  bool active() const { return active_; }
  int width() const;   // columns (80 when unknown)
  int height() const;  // rows (24 when unknown)
  // A key within timeout_s, or -1.
  int read_key(double timeout_s) const;
  void write(const std::string& bytes) const;
  // True once after the window changed size (SIGWINCH): redraw everything.
  bool take_resized();

 private:
  bool active_ = false;
};

// Ctrl-C, SIGTERM and SIGHUP set this flag instead of killing the process, so the terminal is
// restored on the way out. Installed by install_stop_signals().
const std::atomic<bool>& stop_requested();
void install_stop_signals();

bool stdout_is_terminal();

}  // namespace llmtriage::cli
