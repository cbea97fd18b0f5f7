#include "drill/engine_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/files.h"
#include "net/client.h"

namespace llmtriage::drill {
namespace {

using Clock = std::chrono::steady_clock;

std::string tail(const std::string& text, size_t n = 600) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

bool health_ok(net::Client& c, const std::string& base_url) {
  net::Request req;
  req.url = base_url + "/health";
  auto r = c.fetch(req);
  return r && r->status == 200;
}

}  // namespace

core::Result<std::unique_ptr<EngineProcess>> EngineProcess::start(const std::vector<std::string>& argv,
                                                                   const std::string& base_url,
                                                                   const std::string& log_path, double ready_timeout_s) {
  if (argv.empty()) return core::make_error(core::ErrorKind::usage, "--engine-cmd", "a command", "nothing");
  std::unique_ptr<EngineProcess> p(new EngineProcess());
  p->log_path_ = log_path;
  const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return core::make_error(core::ErrorKind::input, log_path, "a writable engine log file", "cannot create it");
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    return core::make_error(core::ErrorKind::input, argv[0], "a started engine", "fork failed");
  }
  if (pid == 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::setpgid(0, 0);  // its own group: a Ctrl-C to the drill does not reach it first
    ::execvp(cargv[0], cargv.data());
    const char msg[] = "llmtriage drill: exec failed: the engine binary was not found or is not executable\n";
    (void)!::write(2, msg, sizeof msg - 1);
    ::_exit(127);
  }
  ::close(fd);
  p->pid_ = pid;
  net::ClientOptions co;
  co.timeouts.connect = std::chrono::milliseconds(500);
  co.timeouts.first_byte = std::chrono::milliseconds(1000);
  co.timeouts.idle = std::chrono::milliseconds(1000);
  co.timeouts.total = std::chrono::milliseconds(2000);
  net::Client client(co);
  const auto deadline = Clock::now() + std::chrono::duration<double>(ready_timeout_s);
  while (Clock::now() < deadline) {
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == pid) {
      p->pid_ = -1;
      return core::make_error(core::ErrorKind::input, argv[0], "an engine that stays up and answers /health",
                              "it exited with status " + std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : -1),
                              "its log: " + tail(p->log_text()));
    }
    if (health_ok(client, base_url)) return p;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  const std::string log = p->log_text();
  p->stop(2);
  return core::make_error(core::ErrorKind::network, base_url + "/health",
                          "status 200 within " + std::to_string(static_cast<int>(ready_timeout_s)) + " s",
                          "no answer (still loading, or listening elsewhere?)", "its log: " + tail(log));
}

std::string EngineProcess::log_text() const {
  auto t = core::read_file(log_path_);
  return t ? *t : std::string();
}

bool EngineProcess::alive() const {
  if (pid_ <= 0) return false;
  int st = 0;
  return ::waitpid(pid_, &st, WNOHANG) == 0;
}

int EngineProcess::stop(double grace_s) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::duration<double>(grace_s);
  int st = 0;
  while (Clock::now() < deadline) {
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &st, 0);
  pid_ = -1;
  return -1;
}

EngineProcess::~EngineProcess() { stop(5); }

CpuNeighbour::CpuNeighbour(int n) {
  for (int i = 0; i < n; ++i) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      volatile unsigned long x = 0;
      for (;;) x = x * 2654435761u + 1;  // spin until killed
    }
    if (pid > 0) pids_.push_back(pid);
  }
}

CpuNeighbour::~CpuNeighbour() {
  for (int pid : pids_) ::kill(pid, SIGKILL);
  for (int pid : pids_) ::waitpid(pid, nullptr, 0);
}

}  // namespace llmtriage::drill
