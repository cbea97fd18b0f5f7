// The terminal under `llmtriage top` (cli/top_terminal.h): POSIX termios, poll and ioctl only.
#include "cli/top_terminal.h"

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace llmtriage::cli {
namespace {

std::atomic<bool> g_top_stop{false};
std::atomic<bool> g_resized{false};
struct termios g_saved {};

extern "C" void on_stop_signal(int) { g_top_stop.store(true); }
extern "C" void on_winch_signal(int) { g_resized.store(true); }

void write_all(const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(STDOUT_FILENO, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

}  // namespace

const std::atomic<bool>& stop_requested() { return g_top_stop; }

void install_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  struct sigaction wa {};
  wa.sa_handler = on_winch_signal;
  sigemptyset(&wa.sa_mask);
  sigaction(SIGWINCH, &wa, nullptr);
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

TopTerminal::TopTerminal() {
  if (!::isatty(STDIN_FILENO) || !::isatty(STDOUT_FILENO)) return;
  if (tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
  struct termios raw = g_saved;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return;
  active_ = true;
  write_all("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J");  // alternate screen, hide the cursor
}

TopTerminal::~TopTerminal() {
  if (!active_) return;
  write_all("\x1b[0m\x1b[?25h\x1b[?1049l");  // colours off, cursor back, main screen back
  tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
}

int TopTerminal::width() const {
  struct winsize w {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

int TopTerminal::height() const {
  struct winsize w {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row > 0) return w.ws_row;
  return 24;
}

int TopTerminal::read_key(double timeout_s) const {
  struct pollfd p {STDIN_FILENO, POLLIN, 0};
  int ms = static_cast<int>(std::lround(std::max(0.0, timeout_s) * 1000));
  if (::poll(&p, 1, ms) <= 0 || !(p.revents & POLLIN)) return -1;
  unsigned char c = 0;
  if (::read(STDIN_FILENO, &c, 1) != 1) return -1;
  return c;
}

void TopTerminal::write(const std::string& bytes) const { write_all(bytes); }

bool TopTerminal::take_resized() { return g_resized.exchange(false); }

}  // namespace llmtriage::cli
