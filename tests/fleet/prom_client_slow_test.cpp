// PromClient against real servers on 127.0.0.1, no mocks:
// (a) a real Prometheus scraping a /metrics endpoint this test serves (vLLM gauge and counter
//     names, two jobs = two replicas): query, query_range, series, labels, a bad PromQL, stats;
// (b) a net::Server playing a misbehaving store: silence, HTML, 503 then 200, a cut body, a
//     matrix for an instant query, the bearer token, a path prefix, a long query sent as POST.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <zlib.h>

#include "fleet/prom_client.h"
#include "net/server.h"
#include "support/prometheus_process.h"

namespace llmtriage::fleet {
namespace {

using namespace std::chrono_literals;

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A /metrics endpoint with vLLM V1 names: gauges fixed, a counter that grows by 100 a scrape.
class FakeReplica {
 public:
  FakeReplica() {
    server_.route("GET", "/metrics", [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
      const int n = scrapes_.fetch_add(1) + 1;
      w->respond(200,
                 fmt::format("# TYPE vllm:num_requests_running gauge\n"
                             "vllm:num_requests_running{{model_name=\"m\"}} 3\n"
                             "# TYPE vllm:num_requests_waiting gauge\n"
                             "vllm:num_requests_waiting{{model_name=\"m\"}} 7\n"
                             "# TYPE vllm:generation_tokens_total counter\n"
                             "vllm:generation_tokens_total{{model_name=\"m\"}} {}\n",
                             100 * n),
                 "text/plain; version=0.0.4");
    });
    ok_ = server_.start().ok();
  }
  bool ok() const { return ok_; }
  int port() const { return server_.port(); }

 private:
  net::Server server_;
  std::atomic<int> scrapes_{0};
  bool ok_ = false;
};

TEST(PromClientRealPrometheus, QueriesRangesSeriesLabelsAndBadPromQL) {
  if (!test_support::prometheus_installed()) GTEST_SKIP() << "prometheus not installed";
  FakeReplica replica;
  ASSERT_TRUE(replica.ok());
  const std::string target = fmt::format("127.0.0.1:{}", replica.port());
  test_support::PrometheusProcess prom(fmt::format(
      "global:\n  scrape_interval: 1s\n"
      "scrape_configs:\n"
      "  - job_name: replica-a\n    static_configs:\n      - targets: ['{0}']\n"
      "  - job_name: replica-b\n    static_configs:\n      - targets: ['{0}']\n",
      target));
  ASSERT_TRUE(prom.ok()) << prom.log();

  PromClientOptions opt;
  opt.base_url = prom.url() + "/";  // a trailing slash is tolerated
  opt.query_timeout = 10s;
  PromClient client(opt);
  int calls = 0;

  // Wait until both jobs have at least 8 samples (the range below starts 5 s back).
  bool ready = false;
  for (int i = 0; i < 120 && !ready; ++i) {
    auto r = client.query("min(count_over_time(vllm:num_requests_running[1m]))");
    ++calls;
    ASSERT_TRUE(r.ok()) << r.error().message();
    ready = !r->series.empty() && r->series[0].points[0].second >= 8;
    if (ready) {
      auto both = client.query("count(vllm:num_requests_running) == 2");
      ++calls;
      ready = both.ok() && both->series.size() == 1;
    }
    if (!ready) std::this_thread::sleep_for(500ms);
  }
  ASSERT_TRUE(ready) << prom.log();

  // Instant vector: one series per replica, the gauge's value.
  auto waiting = client.query("vllm:num_requests_waiting");
  ++calls;
  ASSERT_TRUE(waiting.ok()) << waiting.error().message();
  EXPECT_EQ(waiting->result_type, "vector");
  ASSERT_EQ(waiting->series.size(), 2u);
  for (const auto& s : waiting->series) {
    EXPECT_EQ(s.points.at(0).second, 7);
    EXPECT_EQ(s.labels.at("model_name"), "m");
  }

  // Range: (end - start) / step + 1 points per series, on the step grid.
  const double end = std::floor(now_s()) - 2;
  const double start = end - 3;
  auto range = client.query_range("vllm:num_requests_running", start, end, 1);
  ++calls;
  ASSERT_TRUE(range.ok()) << range.error().message();
  EXPECT_EQ(range->result_type, "matrix");
  ASSERT_EQ(range->series.size(), 2u);
  for (const auto& s : range->series) {
    ASSERT_EQ(s.points.size(), 4u);
    EXPECT_EQ(s.points.front().first, start);
    EXPECT_EQ(s.points.back().first, end);
    EXPECT_EQ(s.points.back().second, 3);
  }
  // A counter's rate: 100 tokens per 1 s scrape.
  auto rate = client.query("sum(rate(vllm:generation_tokens_total[5s]))");
  ++calls;
  ASSERT_TRUE(rate.ok()) << rate.error().message();
  ASSERT_EQ(rate->series.size(), 1u);
  EXPECT_GT(rate->series[0].points[0].second, 2 * 50.0);  // two replicas, about 100/s each

  // Series with two selectors: 2 metrics x 2 jobs.
  auto series = client.series({"vllm:num_requests_running", "vllm:num_requests_waiting"}, start, end);
  ++calls;
  ASSERT_TRUE(series.ok()) << series.error().message();
  EXPECT_EQ(series->size(), 4u);
  for (const auto& l : *series) EXPECT_TRUE(l.at("job") == "replica-a" || l.at("job") == "replica-b");

  auto labels = client.labels({"vllm:num_requests_waiting"});
  ++calls;
  ASSERT_TRUE(labels.ok()) << labels.error().message();
  EXPECT_EQ(*labels, (std::vector<std::string>{"__name__", "instance", "job", "model_name"}));

  // A query longer than a URL should carry travels as a form POST, and works.
  std::string alternation = "replica-a";
  for (int i = 0; i < 700; ++i) alternation += fmt::format("|nope-{}", i);
  const std::string long_query = "vllm:num_requests_waiting{job=~\"" + alternation + "\"}";
  ASSERT_GT(long_query.size(), 6000u);
  auto long_r = client.query(long_query);
  ++calls;
  ASSERT_TRUE(long_r.ok()) << long_r.error().message();
  ASSERT_EQ(long_r->series.size(), 1u);
  EXPECT_EQ(long_r->series[0].labels.at("job"), "replica-a");

  // Bad PromQL: a typed error naming bad_data, the endpoint and the query; never retried.
  const auto retries_before = client.stats().retries;
  auto bad = client.query("rate(vllm:num_requests_running[5m]");
  ++calls;
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(prom_error_type(bad.error()), "bad_data");
  EXPECT_EQ(bad.error().kind, core::ErrorKind::input);
  const std::string msg = bad.error().message();
  EXPECT_NE(msg.find("/api/v1/query, query \"rate(vllm:num_requests_running[5m]\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("the PromQL is wrong"), std::string::npos) << msg;
  EXPECT_EQ(client.stats().retries, retries_before);

  const PromStats& st = client.stats();
  // Prometheus compresses its answers when asked (Accept-Encoding: gzip).
  EXPECT_LT(st.bytes, st.bytes_decoded);
  EXPECT_EQ(st.queries, calls);
  EXPECT_EQ(st.failures, 1);
  EXPECT_EQ(st.retries, 0);
  EXPECT_GT(st.bytes, 0);
  EXPECT_GE(st.points, 2 + 8 + 1);
  EXPECT_GT(st.store_seconds, 0);
}

// A store played by net::Server: each test installs its handler for the query endpoints.
class FakeStore {
 public:
  using Fn = std::function<void(net::ServerRequest&, std::shared_ptr<net::ResponseWriter>)>;
  explicit FakeStore(Fn fn, const std::string& prefix = "") {
    net::ServerOptions so;
    so.shutdown_grace = 100ms;
    server_ = std::make_unique<net::Server>(so);
    auto wrap = [this, fn](net::ServerRequest& r, std::shared_ptr<net::ResponseWriter> w) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(r);
      }
      fn(r, std::move(w));
    };
    for (const char* path : {"/api/v1/query", "/api/v1/query_range", "/api/v1/series", "/api/v1/labels"}) {
      server_->route("*", prefix + path, wrap);
    }
    ok_ = server_->start().ok();
  }
  ~FakeStore() { server_->stop(); }
  bool ok() const { return ok_; }
  std::string url() const { return server_->base_url(); }
  std::vector<net::ServerRequest> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  std::unique_ptr<net::Server> server_;
  std::mutex mu_;
  std::vector<net::ServerRequest> requests_;
  bool ok_ = false;
};

const char* kVector = R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"job":"a"},"value":[1,"1"]}]}})";

PromClientOptions quick(const std::string& url, int retries = 0) {
  PromClientOptions o;
  o.base_url = url;
  o.connect_timeout = 1000ms;
  o.query_timeout = 300ms;
  o.max_retries = retries;
  return o;
}

TEST(PromClientFaults, SilentStoreTimesOutAndIsRetriedOnce) {
  std::vector<std::shared_ptr<net::ResponseWriter>> held;
  std::mutex mu;
  FakeStore store([&](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    std::lock_guard<std::mutex> lock(mu);
    held.push_back(std::move(w));  // never answered
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url(), 1));
  auto r = client.query("up");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), "timeout_total");
  EXPECT_EQ(r.error().kind, core::ErrorKind::network);
  EXPECT_NE(r.error().message().find("/api/v1/query, query \"up\""), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("no complete answer within 300 ms"), std::string::npos) << r.error().message();
  EXPECT_EQ(client.stats().queries, 1);
  EXPECT_EQ(client.stats().retries, 1);
  EXPECT_EQ(client.stats().failures, 1);
  EXPECT_EQ(store.requests().size(), 2u);
  // The store was asked to stop a little before we give up.
  EXPECT_NE(store.requests()[0].query.find("timeout=0.270"), std::string::npos) << store.requests()[0].query;
  std::lock_guard<std::mutex> lock(mu);
  held.clear();
}

TEST(PromClientFaults, HtmlIsNotAPrometheusApi) {
  FakeStore store([](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, "<!DOCTYPE html><html><title>Grafana</title>", "text/html; charset=UTF-8");
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url(), 1));
  auto r = client.query_range("up", 0, 60, 15);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), "non_json");
  const std::string msg = r.error().message();
  EXPECT_NE(msg.find("expected a Prometheus API JSON envelope"), std::string::npos) << msg;
  EXPECT_NE(msg.find("found non_json: text/html; charset=UTF-8 (HTTP 200)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Grafana"), std::string::npos) << msg;
  EXPECT_EQ(client.stats().retries, 0);
  EXPECT_EQ(client.stats().failures, 1);
}

TEST(PromClientFaults, ServiceUnavailableThenSuccessIsOneRetry) {
  std::atomic<int> n{0};
  FakeStore store([&](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    if (n.fetch_add(1) == 0) {
      w->respond(503, R"({"status":"error","errorType":"unavailable","error":"too many concurrent queries"})");
    } else {
      w->respond(200, kVector);
    }
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url(), 1));
  auto r = client.query("up");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->series.size(), 1u);
  EXPECT_EQ(client.stats().queries, 1);
  EXPECT_EQ(client.stats().retries, 1);
  EXPECT_EQ(client.stats().failures, 0);
  EXPECT_EQ(client.stats().series, 1);
  EXPECT_EQ(client.stats().points, 1);
}

TEST(PromClientFaults, ServiceUnavailableEveryTimeIsATypedError) {
  FakeStore store([](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(503, R"({"status":"error","errorType":"timeout","error":"query timed out in query execution"})");
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url(), 2));
  auto r = client.query("up");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), "timeout");
  EXPECT_EQ(client.stats().retries, 2);
  EXPECT_EQ(store.requests().size(), 3u);
}

TEST(PromClientFaults, BadDataIsNeverRetried) {
  FakeStore store([](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(400, R"({"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected end of input"})");
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url(), 3));
  auto r = client.query("rate(");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), "bad_data");
  EXPECT_EQ(store.requests().size(), 1u);
  EXPECT_EQ(client.stats().retries, 0);
}

TEST(PromClientFaults, BodyCutMidwayIsATypedError) {
  FakeStore store([](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->begin_stream(200, "application/json");
    w->write(R"({"status":"success","data":{"resultType":"vector","result":[{"metric":)");
    // The writer is dropped unfinished: the server cuts the connection mid-body.
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url(), 1));
  auto r = client.query("up");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), "reset") << r.error().message();
  EXPECT_EQ(r.error().kind, core::ErrorKind::network);
  EXPECT_EQ(client.stats().retries, 1);
  EXPECT_EQ(client.stats().failures, 1);
}

TEST(PromClientFaults, MatrixForAnInstantQueryIsAcceptedAndNoted) {
  FakeStore store([](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"job":"a"},"values":[[1,"1"],[2,"2"]]}]}})");
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url()));
  auto r = client.query("up");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->result_type, "matrix");
  ASSERT_EQ(r->series.size(), 1u);
  EXPECT_EQ(r->series[0].points.size(), 2u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("expected resultType vector for an instant query, found matrix"), std::string::npos);
  EXPECT_EQ(client.stats().warned, 1);
}

TEST(PromClientFaults, BearerTokenArrivesAndAppearsInNoError) {
  const std::string token = "s3cr3t-t0ken-value";
  FakeStore store(
      [](net::ServerRequest& r, std::shared_ptr<net::ResponseWriter> w) {
        if (r.path.find("query_range") != std::string::npos) {
          w->respond(422, R"({"status":"error","errorType":"execution","error":"many-to-many matching not allowed"})");
        } else {
          w->respond(200, kVector);
        }
      },
      "/prom");
  ASSERT_TRUE(store.ok());
  PromClientOptions o = quick(store.url() + "/prom", 0);
  o.bearer_token = token;
  PromClient client(o);
  ASSERT_TRUE(client.query("up", 1700000000.0).ok());
  auto bad = client.query_range("a * on() b", 1700000000.0, 1700000060.0, 15);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(prom_error_type(bad.error()), "execution");
  const std::string msg = bad.error().message();
  EXPECT_EQ(msg.find(token), std::string::npos) << msg;
  EXPECT_NE(msg.find(store.url() + "/prom/api/v1/query_range, query \"a * on() b\""), std::string::npos) << msg;
  const auto reqs = store.requests();
  ASSERT_EQ(reqs.size(), 2u);
  for (const auto& r : reqs) {
    const std::string* auth = r.header("Authorization");
    ASSERT_NE(auth, nullptr);
    EXPECT_EQ(*auth, "Bearer " + token);
  }
  EXPECT_EQ(reqs[0].path, "/prom/api/v1/query");
  EXPECT_NE(reqs[0].query.find("query=up&time=1700000000.000"), std::string::npos) << reqs[0].query;
  EXPECT_NE(reqs[1].query.find("start=1700000000.000&end=1700000060.000&step=15.000"), std::string::npos)
      << reqs[1].query;
  // A store that does not answer either: the timeout error carries no token.
  FakeStore silent([](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->post_after(5000ms, [w] { w->respond(200, kVector); });
  });
  PromClientOptions so = quick(silent.url());
  so.bearer_token = token;
  PromClient sc(so);
  auto t = sc.labels();
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message().find(token), std::string::npos) << t.error().message();
}

TEST(PromClientFaults, LongQueriesTravelAsFormPosts) {
  FakeStore store([](net::ServerRequest& r, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, r.path == "/api/v1/series" ? R"({"status":"success","data":[{"__name__":"up"}]})" : kVector);
  });
  ASSERT_TRUE(store.ok());
  PromClient client(quick(store.url()));
  const std::string q = "up{job=~\"" + std::string(7000, 'x') + " y\"}";
  ASSERT_TRUE(client.query(q).ok());
  ASSERT_TRUE(client.query("up").ok());
  ASSERT_TRUE(client.series({q, "up"}, 0, 60).ok());
  const auto reqs = store.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].method, "POST");
  const std::string* ct = reqs[0].header("Content-Type");
  ASSERT_NE(ct, nullptr);
  EXPECT_EQ(*ct, "application/x-www-form-urlencoded");
  EXPECT_EQ(reqs[0].body.rfind("query=up%7Bjob%3D~%22xxx", 0), 0u) << reqs[0].body.substr(0, 40);
  EXPECT_NE(reqs[0].body.find("x%20y%22%7D"), std::string::npos);
  EXPECT_EQ(reqs[1].method, "GET");
  EXPECT_EQ(reqs[2].method, "POST");
  EXPECT_NE(reqs[2].body.find("&match%5B%5D=up&start=0.000&end=60.000"), std::string::npos);
}

std::string gzip(const std::string& plain) {
  z_stream zs{};
  deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, plain.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  zs.avail_in = static_cast<uInt>(plain.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST(PromClientFaults, GzipAnswersAreInflatedCorruptOnesAndBombsAreTypedErrors) {
  const std::string big = std::string(R"({"status":"success","data":{"resultType":"vector","result":[)") +
                          R"({"metric":{"job":"a"},"value":[1,"1"]}]}})";
  FakeStore store([&](net::ServerRequest& r, std::shared_ptr<net::ResponseWriter> w) {
    const net::Headers gz{{"Content-Encoding", "gzip"}};
    if (r.query.find("corrupt") != std::string::npos) {
      std::string body = gzip(kVector);
      body.resize(body.size() / 2);
      w->respond(200, body, "application/json", gz);
    } else if (r.query.find("bomb") != std::string::npos) {
      w->respond(200, gzip(std::string(4u << 20, ' ') + kVector), "application/json", gz);
    } else {
      w->respond(200, gzip(big), "application/json", gz);
    }
  });
  ASSERT_TRUE(store.ok());
  PromClientOptions o = quick(store.url());
  o.max_body_bytes = 1u << 20;
  PromClient client(o);
  auto r = client.query("up");
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->series.size(), 1u);
  EXPECT_EQ(r->series[0].labels.at("job"), "a");
  EXPECT_EQ(client.stats().bytes_decoded, static_cast<int64_t>(big.size()));
  const auto seen = store.requests();  // a copy: a pointer into the temporary would dangle
  const std::string* ae = seen.at(0).header("Accept-Encoding");
  ASSERT_NE(ae, nullptr);
  EXPECT_EQ(*ae, "gzip");
  auto corrupt = client.query("corrupt");
  ASSERT_FALSE(corrupt.ok());
  EXPECT_EQ(prom_error_type(corrupt.error()), "bad_response");
  EXPECT_NE(corrupt.error().message().find("a corrupt or truncated gzip stream"), std::string::npos)
      << corrupt.error().message();
  auto bomb = client.query("bomb");
  ASSERT_FALSE(bomb.ok());
  EXPECT_NE(bomb.error().message().find("a gzip body inflating past 1048576 bytes"), std::string::npos)
      << bomb.error().message();
  EXPECT_EQ(client.stats().failures, 2);
}

// https: a self-signed store is refused (typed, naming the URL), accepted with insecure_tls, and
// accepted with its certificate as ca_file. The certificate comes from the openssl CLI.
TEST(PromClientFaults, HttpsVerifiesTheStoreUnlessTold) {
  char tmpl[] = "/tmp/llmtriage-fleet-tls-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  const std::string cmd = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "
                          "/CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout " + dir + "/key.pem -out " +
                          dir + "/cert.pem > /dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "openssl CLI not available";
  net::ServerOptions so;
  so.shutdown_grace = 100ms;
  so.tls_cert_pem = test_support::read_file(dir + "/cert.pem");
  so.tls_key_pem = test_support::read_file(dir + "/key.pem");
  net::Server server(so);
  server.route("GET", "/api/v1/query", [](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, kVector);
  });
  ASSERT_TRUE(server.start().ok());
  const std::string url = fmt::format("https://127.0.0.1:{}", server.port());

  PromClient strict(quick(url));
  auto refused = strict.query("up");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(prom_error_type(refused.error()), "tls") << refused.error().message();
  EXPECT_NE(refused.error().message().find(url + "/api/v1/query"), std::string::npos) << refused.error().message();

  PromClientOptions insecure = quick(url);
  insecure.insecure_tls = true;
  PromClient lax(insecure);
  auto ok = lax.query("up");
  ASSERT_TRUE(ok.ok()) << ok.error().message();
  EXPECT_EQ(ok->series.size(), 1u);

  PromClientOptions pinned = quick(url);
  pinned.ca_file = dir + "/cert.pem";
  PromClient trusted(pinned);
  auto ok2 = trusted.query("up");
  EXPECT_TRUE(ok2.ok()) << ok2.error().message();
  server.stop();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(PromClientFaults, NothingListeningIsAConnectError) {
  const int port = test_support::free_port();
  PromClient client(quick(fmt::format("http://127.0.0.1:{}", port), 1));
  auto r = client.query("up");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), "connect_refused") << r.error().message();
  EXPECT_EQ(client.stats().retries, 1);
  EXPECT_NE(r.error().message().find("after 2 attempts"), std::string::npos) << r.error().message();
}

}  // namespace
}  // namespace llmtriage::fleet
