#pragma once
// A deliberately misbehaving TCP peer on 127.0.0.1 for fault tests: each accepted connection runs
// a script (on its own thread) over the raw socket. Plain POSIX sockets, no Asio.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace llmtriage::net::testing {

class RawPeer {
 public:
  using Script = std::function<void(int fd, RawPeer& peer)>;
  explicit RawPeer(Script script);
  ~RawPeer();
  std::uint16_t port() const { return port_; }
  int accepted() const { return accepted_.load(); }
  bool stopping() const { return stop_.load(); }
  std::string url(const std::string& path = "/") const;

  // Script helpers.
  static bool send_all(int fd, const std::string& bytes);
  // Reads one request head (up to the blank line) plus a Content-Length body; "" on EOF.
  static std::string read_request(int fd);
  // Sleeps up to ms, returning early when the peer is being destroyed.
  void hold(int ms) const;
  // Closes with RST instead of FIN (SO_LINGER 0).
  static void reset(int fd);

 private:
  void accept_loop();
  Script script_;
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> conns_;
};

// A port on 127.0.0.1 where nothing listens (bound, then closed).
std::uint16_t closed_port();
// A blocking client socket connected to 127.0.0.1:port (-1 on failure).
int connect_loopback(std::uint16_t port);
// Reads until EOF/reset or timeout_ms; returns what arrived. *closed says whether the peer closed.
std::string read_until_close(int fd, int timeout_ms, bool* closed);

// A self-signed certificate for IP 127.0.0.1 made at test time (no committed keys): PEM strings.
struct TestCert {
  std::string cert_pem;
  std::string key_pem;
};
TestCert make_self_signed_cert();

}  // namespace llmtriage::net::testing
