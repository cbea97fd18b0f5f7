// The fast path for llmtriage's own JSONL must read every line exactly as the general reader
// does: the same RequestRecords (bit for bit), the same issues, counts and line numbers, whether
// it takes the line or declines it. Data-driven over tests/data/records/fast_path_lines.txt.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ingest/records.h"
#include "ingest/records_detail.h"

using namespace llmtriage;
namespace detail = ingest::detail;

namespace {

// Every field; doubles in shortest round-trip form, so two strings are equal only when the
// values are bit-identical (-0 prints as "-0").
std::string describe(const core::RequestRecord& r) {
  auto od = [](const std::optional<double>& d) { return d ? fmt::format("{}", *d) : "-"; };
  auto oi = [](const auto& i) { return i ? fmt::format("{}", *i) : "-"; };
  return fmt::format(
      "id={} arrival={} send={} in={} out={} ttft={} e2e={} chunks=[{}] tokens=[{}] itl=[{}] "
      "status={} cat={} model={} max={} temp={} top_p={} n={} ignore_eos={} queue={}",
      r.id, r.arrival_s, od(r.send_s), oi(r.input_tokens), oi(r.output_tokens), od(r.ttft_s),
      od(r.e2e_s), fmt::join(r.chunk_times_s, ","), fmt::join(r.chunk_tokens, ","),
      fmt::join(r.itl_s, ","), static_cast<int>(r.status), r.error_category, r.model,
      oi(r.max_tokens), od(r.temperature), od(r.top_p), oi(r.n),
      r.ignore_eos ? (*r.ignore_eos ? "true" : "false") : "-", od(r.queue_s));
}

// What reading lines produced, in a comparable form.
std::string outcome(const ingest::RecordReadResult& res, const std::vector<std::string>& streamed) {
  std::string s;
  for (const auto& r : res.records) s += describe(r) + "\n";
  for (const auto& r : streamed) s += r + "\n";
  s += fmt::format("skipped={} bad={}\n", res.records_skipped, res.records_bad);
  for (const auto& [k, n] : res.bad_input) s += fmt::format("bad_input {}={}\n", k, n);
  for (const auto& i : res.issues) s += fmt::format("issue line {} {} {}\n", i.line, i.kind, i.detail);
  return s;
}

enum class Path { general, dispatch };

// Reads `lines` (numbered from 1) through one sink, as read_lines does, by one path.
std::string read_by(Path path, const std::vector<std::string>& lines, bool streaming,
                    int* fast_taken = nullptr) {
  ingest::RecordReadOptions opt;
  opt.max_reported_issues = 1000;
  std::vector<std::string> streamed;
  if (streaming)
    opt.on_record = [&](core::RequestRecord&& r) {
      // Take the strings, as a consumer that keeps them would: the next record must not care.
      core::RequestRecord kept = std::move(r);
      streamed.push_back(describe(kept));
    };
  ingest::RecordReadResult res;
  detail::RecordSink sink{opt, res};
  for (size_t i = 0; i < lines.size(); ++i) {
    auto n = static_cast<int64_t>(i + 1);
    if (path == Path::general) {
      detail::read_llmtriage_line_general(lines[i], n, sink);
    } else if (detail::read_llmtriage_line_fast(lines[i], sink)) {
      if (fast_taken) ++*fast_taken;
    } else {
      detail::read_llmtriage_line_general(lines[i], n, sink);
    }
  }
  return outcome(res, streamed);
}

struct Case {
  int file_line = 0;
  bool fast = false;  // the fast path must take it
  std::string text;
};

std::vector<Case> load_cases() {
  std::ifstream in(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/fast_path_lines.txt");
  std::vector<Case> cases;
  std::string l;
  int n = 0;
  while (std::getline(in, l)) {
    ++n;
    if (l.size() < 2 || l[0] == '#') continue;
    cases.push_back({n, l[0] == 'F', l.substr(2)});
  }
  return cases;
}

}  // namespace

TEST(RecordsFastPath, EachTrickyLineReadsAsTheGeneralReaderReadsIt) {
  auto cases = load_cases();
  ASSERT_GT(cases.size(), 60u);
  int fast_expected = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(fmt::format("fast_path_lines.txt:{}: {}", c.file_line, c.text));
    int taken = 0;
    std::string general = read_by(Path::general, {c.text}, false);
    EXPECT_EQ(read_by(Path::dispatch, {c.text}, false, &taken), general);
    EXPECT_EQ(taken, c.fast ? 1 : 0) << (c.fast ? "fast path declined" : "fast path took it");
    fast_expected += c.fast;
  }
  EXPECT_GT(fast_expected, 30);  // the table exercises the fast path, not only the fallback
}

TEST(RecordsFastPath, AllLinesThroughOneSinkStoredAndStreamed) {
  // One sink for the whole table: the reused scratch record must carry nothing from one line
  // into the next (arrays, optional fields, ids), and line numbers and counts must agree.
  std::vector<std::string> lines;
  for (const auto& c : load_cases()) lines.push_back(c.text);
  for (bool streaming : {false, true}) {
    SCOPED_TRACE(streaming ? "streaming" : "stored");
    int taken = 0;
    EXPECT_EQ(read_by(Path::dispatch, lines, streaming, &taken),
              read_by(Path::general, lines, streaming));
    EXPECT_GT(taken, 30);
  }
}

TEST(RecordsFastPath, RandomRecordsFromOurWriterAllTakeTheFastPath) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> digits(0, 18);
  std::vector<std::string> lines;
  for (int i = 0; i < 3000; ++i) {
    core::RequestRecord r;
    r.id = fmt::format("req-{}", i);
    // Magnitudes from 1e-12 to 1e12 with shortest-form lengths from 1 to 17 digits.
    auto val = [&] {
      double x = u(rng) * std::pow(10.0, static_cast<int>(u(rng) * 24) - 12);
      double q = std::pow(10.0, digits(rng));
      return i % 3 == 0 ? std::round(x * q) / q : x;
    };
    r.arrival_s = val();
    if (u(rng) < 0.8) r.send_s = val();
    if (u(rng) < 0.8) r.input_tokens = static_cast<int64_t>(u(rng) * 1e6);
    if (u(rng) < 0.8) r.output_tokens = static_cast<int64_t>(u(rng) * 1e4);
    if (u(rng) < 0.8) r.ttft_s = val();
    if (u(rng) < 0.8) r.e2e_s = val();
    if (u(rng) < 0.3) {
      int k = static_cast<int>(u(rng) * 20);
      for (int j = 0; j < k; ++j) {
        r.chunk_times_s.push_back(val());
        if (i % 2 == 0) r.chunk_tokens.push_back(static_cast<int32_t>(u(rng) * 8));
      }
    }
    if (u(rng) < 0.1) r.itl_s = {val(), val()};
    if (u(rng) < 0.05) {
      r.status = core::RequestStatus::error;
      r.error_category = u(rng) < 0.5 ? "http_503" : "";
    }
    if (u(rng) < 0.5) r.model = "meta-llama/Llama-3.1-8B-Instruct";
    if (u(rng) < 0.5) r.max_tokens = 512;
    if (u(rng) < 0.5) r.temperature = val();
    if (u(rng) < 0.5) r.top_p = u(rng);
    if (u(rng) < 0.2) r.n = 1 + static_cast<int>(u(rng) * 4);
    if (u(rng) < 0.2) r.ignore_eos = u(rng) < 0.5;
    if (u(rng) < 0.2) r.queue_s = val();
    lines.push_back(ingest::to_bench_jsonl(r));
  }
  int taken = 0;
  EXPECT_EQ(read_by(Path::dispatch, lines, false, &taken), read_by(Path::general, lines, false));
  EXPECT_EQ(taken, 3000);
}

TEST(RecordsFastPath, CrlfFileReadsLikeLfFile) {
  std::string lf, crlf;
  for (const auto& c : load_cases()) {
    lf += c.text + "\n";
    crlf += c.text + "\r\n";
  }
  auto a = ingest::read_records_text(lf, {.format = ingest::RecordFormat::llmtriage, .max_reported_issues = 1000});
  auto b = ingest::read_records_text(crlf, {.format = ingest::RecordFormat::llmtriage, .max_reported_issues = 1000});
  EXPECT_EQ(outcome(a, {}), outcome(b, {}));
  EXPECT_GT(a.records.size(), 30u);
  EXPECT_EQ(a.unavailable, b.unavailable);
}
