// serve::RecordsWriter: the line a record becomes (clocks, stamps, error categories) and the
// writer's file (every pushed record written once, including after close), read back by our own
// record reader.
#include "serve/records_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "ingest/records.h"

namespace llmtriage::serve {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

const SteadyTime kT0 = SteadyTime{} + 1000s;  // any steady instant
constexpr double kUnix0 = 1.7e9;              // ... and the Unix time it corresponds to

ServedRecord answered() {
  ServedRecord r;
  r.id = "run1-7";
  r.response_id = "cmpl-run1-7";
  r.received = kT0 + 2s;
  r.first_token_engine = kT0 + 2s + 30ms;
  r.first_token_socket = kT0 + 2s + 31ms;
  r.end_engine = kT0 + 3s;
  r.end_socket = kT0 + 3s + 1ms;
  r.input_tokens = 16;
  r.output_tokens = 100;
  r.error_category = "";
  r.finish_reason = "length";
  r.model = "m";
  r.max_tokens = 100;
  r.ignore_eos = true;
  r.stream = true;
  r.sim_ttft_s = 0.015;
  return r;
}

json parsed(const ServedRecord& r) { return json::parse(RecordsWriter::to_line(r, kUnix0, kT0)); }

TEST(RecordsWriterLine, StreamedAnswerUsesSocketStampsAndUnixArrival) {
  auto j = parsed(answered());
  EXPECT_EQ(j["schema"], "llmtriage.request.v1");
  EXPECT_EQ(j["id"], "run1-7");
  EXPECT_DOUBLE_EQ(j["arrival_s"].get<double>(), kUnix0 + 2);
  EXPECT_NEAR(j["ttft_s"].get<double>(), 0.031, 1e-9);  // the socket stamp, not the engine's
  EXPECT_NEAR(j["e2e_s"].get<double>(), 1.001, 1e-9);
  EXPECT_EQ(j["ttft_stamp"], "socket");
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["input_tokens"], 16);
  EXPECT_EQ(j["output_tokens"], 100);
  EXPECT_EQ(j["finish_reason"], "length");
  EXPECT_EQ(j["response_id"], "cmpl-run1-7");
  EXPECT_FALSE(j.contains("sim_ttft_s"));  // time scale 1: the simulator's TTFT is not a second figure
  EXPECT_FALSE(j.contains("error_category"));
}

TEST(RecordsWriterLine, FallbacksScaledTimeAndErrors) {
  auto r = answered();
  r.first_token_socket = {};  // non-streamed, or the stamp job never ran
  r.end_socket = {};
  r.time_scale = 4;
  auto j = parsed(r);
  EXPECT_NEAR(j["ttft_s"].get<double>(), 0.030, 1e-9);
  EXPECT_NEAR(j["e2e_s"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(j["ttft_stamp"], "engine");
  EXPECT_DOUBLE_EQ(j["sim_ttft_s"].get<double>(), 0.015);
  EXPECT_EQ(j["time_scale"], 4);

  auto gone = answered();
  gone.error_category = "client_closed";
  gone.output_tokens = 3;
  j = parsed(gone);
  EXPECT_EQ(j["status"], "error");
  EXPECT_EQ(j["error_category"], "client_closed");
  EXPECT_FALSE(j.contains("e2e_s"));
  EXPECT_NEAR(j["ended_after_s"].get<double>(), 1.0, 1e-9);

  ServedRecord fresh;  // accepted, nothing happened before the server stopped
  fresh.id = "x";
  fresh.received = kT0;
  j = parsed(fresh);
  EXPECT_EQ(j["error_category"], "server_stopped");
  EXPECT_FALSE(j.contains("ttft_s"));

  auto quoted = answered();  // a client id with JSON's special characters stays valid JSON
  quoted.id = R"(a"b\c)";
  quoted.response_id = R"(cmpl-a"b\c)";
  j = parsed(quoted);
  EXPECT_EQ(j["id"], R"(a"b\c)");
  EXPECT_EQ(j["response_id"], R"(cmpl-a"b\c)");
}

TEST(RecordsWriterLine, UsableRequestIds) {
  const std::string ok = "bench-0a1b-42", ctl = "a\nb", empty, wide = "caf\xc3\xa9", long_id(257, 'x');
  EXPECT_EQ(usable_request_id(&ok), ok);
  EXPECT_EQ(usable_request_id(nullptr), "");
  EXPECT_EQ(usable_request_id(&empty), "");
  EXPECT_EQ(usable_request_id(&ctl), "");
  EXPECT_EQ(usable_request_id(&wide), "");
  EXPECT_EQ(usable_request_id(&long_id), "");
}

TEST(RecordsWriterFile, EveryRecordOnceFromManyThreadsAndAfterClose) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("records_writer_" + std::to_string(::getpid()) + ".jsonl")).string();
  std::filesystem::remove(path);
  auto w = RecordsWriter::open(path);
  ASSERT_TRUE(w.ok()) << w.error().message();
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < 250; ++i) {
        auto r = answered();
        r.id = std::to_string(t) + "-" + std::to_string(i);
        (*w)->push(std::move(r));
      }
    });
  for (auto& t : ts) t.join();
  {
    PendingRecord p(*w);  // the engine's way: the record goes out when its last holder lets go
    p.rec = answered();
    p.rec.id = "pending";
  }
  (*w)->close();
  auto late = answered();
  late.id = "late";
  (*w)->push(std::move(late));  // a stream destroyed after close is still written
  EXPECT_EQ((*w)->written(), 1002u);
  EXPECT_EQ((*w)->write_errors(), 0u);
  w->reset();

  auto rd = ingest::read_records_file(path);
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ(rd->format, ingest::RecordFormat::llmtriage);
  EXPECT_EQ(rd->records_bad, 0);
  ASSERT_EQ(rd->records.size(), 1002u);
  std::set<std::string> ids;
  for (const auto& r : rd->records) ids.insert(r.id);
  EXPECT_EQ(ids.size(), 1002u);
  EXPECT_EQ(ids.count("pending"), 1u);
  EXPECT_EQ(ids.count("late"), 1u);
  EXPECT_EQ(rd->records.front().ttft_s.value_or(-1), 0.031);
  std::filesystem::remove(path);
}

TEST(RecordsWriterFile, UnwritablePathNamesTheFlag) {
  auto w = RecordsWriter::open("/nonexistent-dir/for/records.jsonl");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message().find("--records"), std::string::npos) << w.error().message();
}

}  // namespace
}  // namespace llmtriage::serve
