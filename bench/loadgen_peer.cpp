// A fast OpenAI-compatible peer for the load-generator benchmark (bench/loadgen.sh): streams
// `tokens` one-token SSE chunks per /v1/completions request with no delay, so at the rates tried
// the server is not what limits the clients. Usage: bench_loadgen_peer [port] [threads] [tokens]
// Prints "port N" and serves until stdin closes.
#include <cstdio>
#include <iostream>
#include <string>

#include "net/server.h"

using namespace llmtriage;

int main(int argc, char** argv) {
  net::ServerOptions so;
  so.port = argc > 1 ? static_cast<std::uint16_t>(std::stoi(argv[1])) : 0;
  so.threads = argc > 2 ? std::stoi(argv[2]) : 1;
  const int tokens = argc > 3 ? std::stoi(argv[3]) : 2;
  net::Server s(so);
  s.route("POST", "/v1/completions", [tokens](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->begin_sse();
    for (int i = 1; i <= tokens; ++i)
      w->send_event("{\"choices\":[{\"index\":0,\"text\":\"x\",\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":8,"
                    "\"completion_tokens\":" + std::to_string(i) + "}}");
    w->send_event("[DONE]");
    w->finish();
  });
  s.route("GET", "/metrics", [](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{model_name=\"m\"} 0\n", "text/plain");
  });
  if (auto st = s.start(); !st) {
    std::fprintf(stderr, "%s\n", st.error().message().c_str());
    return 2;
  }
  std::printf("port %u\n", s.port());
  std::fflush(stdout);
  std::string line;
  while (std::getline(std::cin, line)) {}
  s.stop();
  return 0;
}
