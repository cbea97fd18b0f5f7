// Helper program for bench/net_http.sh (not a test): our server's small JSON endpoint and a
// 1M-event SSE stream, and our SSE client measuring its own CPU time per event.
//   bench_net_http serve            -> prints the port, serves until stdin closes
//   bench_net_http body             -> prints the JSON body served at /v1/models (for nginx)
//   bench_net_http sse-client URL   -> reads the stream, prints "events=N cpu_s=X wall_s=Y"
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <iostream>
#include <string>

#include "net/client.h"
#include "net/server.h"

using namespace llmtriage::net;

namespace {

const std::string kModels =
    R"({"object":"list","data":[{"id":"meta-llama/Llama-3.1-8B-Instruct","object":"model",)"
    R"("created":1733000000,"owned_by":"vllm","max_model_len":8192}]})";

double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

// One OpenAI-style completion chunk per event, as vLLM streams them.
std::string make_stream(int events) {
  std::string out;
  out.reserve(static_cast<size_t>(events) * 120);
  for (int i = 0; i < events; ++i) {
    out += "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\"tok";
    out += std::to_string(i);
    out += "\",\"finish_reason\":null}]}\n\n";
  }
  out += "data: [DONE]\n\n";
  return out;
}

int serve() {
  ServerOptions so;
  so.threads = 1;
  Server s(so);
  s.route("GET", "/v1/models", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) { w->respond(200, kModels); });
  s.route("GET", "/sse", [](ServerRequest& r, std::shared_ptr<ResponseWriter> w) {
    int n = r.query.rfind("n=", 0) == 0 ? std::stoi(r.query.substr(2)) : 1000;
    auto body = std::make_shared<std::string>(make_stream(n));
    w->begin_sse();
    for (size_t off = 0; off < body->size(); off += 64 * 1024) w->write(body->substr(off, 64 * 1024));
    w->finish();
  });
  auto st = s.start();
  if (!st.ok()) {
    std::cerr << st.error().message() << "\n";
    return 2;
  }
  std::cout << s.port() << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
  }
  s.stop();
  return 0;
}

int sse_client(const std::string& url) {
  ClientOptions o;
  o.timeouts.idle = std::chrono::seconds(30);
  double cpu0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t events = 0;
  std::promise<Outcome> done;
  {
    Client c(o, 1);
    StreamHandlers h;
    h.on_event = [&events](const SseEvent& e, SteadyClock::time_point) { events += !e.is_done(); };
    h.on_done = [&done](const Outcome& out) { done.set_value(out); };
    Request req;
    req.url = url;
    c.start(req, std::move(h));
    Outcome out = done.get_future().get();
    if (!out.ok()) {
      std::cerr << out.error.message() << "\n";
      return 1;
    }
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("events=%llu cpu_s=%.4f wall_s=%.4f\n", static_cast<unsigned long long>(events), cpu_seconds() - cpu0, wall);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "serve") return serve();
  if (mode == "body") {
    std::cout << kModels;
    return 0;
  }
  if (mode == "sse-client" && argc > 2) return sse_client(argv[2]);
  std::cerr << "usage: bench_net_http serve | body | sse-client URL\n";
  return 2;
}
