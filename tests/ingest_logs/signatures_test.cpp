// The log-signature table (data/diagnose/signatures.jsonl, ingest/log_signatures.h): every row's
// verbatim example matches its own pattern, the grammar's captures read numbers, lines that state
// nothing match nothing, and the parser turns matching lines into labelled events.
#include <gtest/gtest.h>

#include <set>

#include "ingest/engine_log.h"
#include "ingest/log_signatures.h"

namespace ingest = llmtriage::ingest;

TEST(Signatures, TableLoadsWithUniqueIdsAndSources) {
  const auto& t = ingest::signatures();
  ASSERT_GE(t.size(), 100u) << "data/diagnose/signatures.jsonl not found or short";
  std::set<std::string> ids;
  for (const auto& s : t) {
    EXPECT_TRUE(ids.insert(s.id).second) << "duplicate id " << s.id;
    EXPECT_FALSE(s.source.empty()) << s.id;
    EXPECT_FALSE(s.example.empty()) << s.id << ": every signature carries the verbatim line it was written from";
    EXPECT_FALSE(s.meaning.empty()) << s.id;
    EXPECT_TRUE(s.cause.empty() == (s.weight == 0)) << s.id << ": a cause needs a weight, a fact has none";
  }
}

// Line by line: the example each row cites is read as that signature.
TEST(Signatures, EveryExampleMatchesItsOwnRow) {
  for (const auto& s : ingest::signatures()) {
    auto hit = ingest::match_signature(s, s.example);
    EXPECT_TRUE(hit.has_value()) << s.id << " does not match its own example: " << s.example;
  }
}

TEST(Signatures, CapturesReadTheNumbers) {
  const auto* off = ingest::find_signature("llamacpp_offloaded_layers");
  ASSERT_NE(off, nullptr);
  auto h = ingest::match_signature(*off, "llm_load_tensors: offloaded 15/33 layers to GPU");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fields.at("on_gpu"), 15);
  EXPECT_EQ(h->fields.at("layers"), 33);
  const auto* tr = ingest::find_signature("ollama_truncating_prompt");
  ASSERT_NE(tr, nullptr);
  h = ingest::match_signature(*tr, "level=WARN source=runner.go:129 msg=\"truncating input prompt\" limit=2048 prompt=3940 keep=5 new=2048");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fields.at("limit"), 2048);
  EXPECT_EQ(h->fields.at("prompt"), 3940);
  // Blanks are collapsed and case is ignored: the line as pasted, not as printed.
  const auto* pe = ingest::find_signature("llamacpp_prompt_eval");
  ASSERT_NE(pe, nullptr);
  h = ingest::match_signature(*pe, "PRINT_TIMINGS: prompt eval time =\t  9327.12 ms /   144 tokens");
  ASSERT_TRUE(h);
  EXPECT_DOUBLE_EQ(h->fields.at("prompt_ms"), 9327.12);
  EXPECT_EQ(h->fields.at("prompt_tokens"), 144);
  // A capture needs a number where the pattern puts it.
  EXPECT_FALSE(ingest::match_signature(*off, "offloaded all layers to GPU"));
}

TEST(Signatures, OrdinaryLinesMatchNothing) {
  const char* lines[] = {
      "INFO 05-01 10:00:00 [loggers.py:123] Engine 000: Avg prompt throughput: 120.0 tokens/s, Avg generation throughput: 900.1 tokens/s, Running: 12 reqs, Waiting: 0 reqs, GPU KV cache usage: 20.1%, Prefix cache hit rate: 0.0%",
      "INFO:     127.0.0.1:50312 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
      "time=2025-04-22T11:21:46.411Z level=INFO source=server.go:619 msg=\"llama runner started in 0.25 seconds\"",
      "[2024-07-01 10:00:00 TP0] Decode batch. #running-req: 3, #token: 1200, token usage: 0.01, gen throughput (token/s): 85.3, #queue-req: 0",
      "",
  };
  for (const char* l : lines) {
    auto hits = ingest::match_signatures(ingest::fold_line(l), ingest::signatures());
    std::string ids;
    for (const auto& h : hits) ids += h.sig->id + " ";
    EXPECT_TRUE(hits.empty()) << l << " matched " << ids;
  }
}

TEST(Signatures, GrammarAndTableErrorsNameTheLine) {
  auto bad = ingest::parse_signatures("{\"id\":\"a\",\"pattern\":\"x\",\"source\":\"s\"}\nnot json\n", "t.jsonl");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("t.jsonl:2"), std::string::npos) << bad.error().message();
  auto nosrc = ingest::parse_signatures("{\"id\":\"a\",\"pattern\":\"x\"}", "t.jsonl");
  ASSERT_FALSE(nosrc);
  auto ok = ingest::parse_signatures("# comment\n\n{\"id\":\"g\",\"pattern\":\"a*b {n} c\",\"source\":\"s\",\"cause\":\"x\",\"weight\":1}\n", "t");
  ASSERT_TRUE(ok);
  ASSERT_EQ(ok->size(), 1u);
  auto h = ingest::match_signature(ok->front(), "A then B 42 C");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->fields.at("n"), 42);
  EXPECT_FALSE(ingest::match_signature(ok->front(), "b 42 c before a"));
}

// Through the parser: a pasted line with no engine prefix becomes a signature event, the line is
// no longer "unknown", and an unknown line is shown with its number.
TEST(Signatures, ParserLabelsMatchingLinesAndShowsUnknownOnes) {
  auto r = ingest::parse_engine_log_text(
      "upstream timed out (110: Operation timed out) while reading upstream\n"
      "something no engine prints\n");
  ASSERT_EQ(r.signature_events.size(), 1u);
  EXPECT_EQ(r.signature_events[0].labels.at("signature"), "nginx_upstream_timeout");
  EXPECT_EQ(r.signature_events[0].labels.at("cause"), "gateway_timeout");
  EXPECT_EQ(r.signature_events[0].source, "log:1");
  EXPECT_EQ(r.lines_unknown, 1);
  ASSERT_EQ(r.unknown_examples.size(), 1u);
  EXPECT_EQ(r.unknown_examples[0].line, 2);
  EXPECT_NE(ingest::describe(r).find("unknown line 2"), std::string::npos) << ingest::describe(r);
  // Repeats of one signature are counted, not kept.
  std::string many;
  for (int i = 0; i < 50; ++i) many += "decode: failed to find free space in the KV cache, retrying with smaller batch size\n";
  auto m = ingest::parse_engine_log_text(many);
  EXPECT_EQ(m.signature_counts.at("llamacpp_kv_no_space"), 50);
  EXPECT_EQ(m.signature_events.size(), 5u);
}

// The hot-path prefilter finds exactly what trying every row finds, on every example (each one a
// line that matches something) and on lines in other cases and spacing.
TEST(Signatures, IndexAgreesWithTheFullScan) {
  const auto& t = ingest::signatures();
  const auto& idx = ingest::bundled_signature_index();
  auto ids = [](const std::vector<ingest::SignatureHit>& hits) {
    std::string s;
    for (const auto& h : hits) s += h.sig->id + " ";
    return s;
  };
  std::vector<std::string> lines;
  for (const auto& s : t) {
    lines.push_back(s.example);
    std::string upper = s.example;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    lines.push_back(upper);
    std::string spaced;
    for (char c : s.example) spaced += c == ' ' ? std::string("  \t") : std::string(1, c);
    lines.push_back(spaced);
  }
  lines.push_back("INFO 05-01 10:00:00 [loggers.py:123] Engine 000: Avg prompt throughput: 120.0 tokens/s");
  lines.push_back("");
  lines.push_back("abc");
  for (const auto& l : lines) {
    const std::string want = ids(ingest::match_signatures(ingest::fold_line(l), t));
    EXPECT_EQ(ids(idx.match(l)), want) << l;
  }
}

// Every bundled row has a key word the index can look for: none is tried on every line.
TEST(Signatures, EveryRowHasAKeyWord) { EXPECT_EQ(ingest::bundled_signature_index().always_tried(), 0u); }

// Routine per-request lines are not scanned (they are most of a busy log and no signature is about
// them); an access line that failed is.
TEST(Signatures, RoutineRequestLinesAreSkippedFailedAccessLinesAreNot) {
  auto r = ingest::parse_engine_log_text(
      "(APIServer pid=1) INFO 05-01 00:00:00 [logger.py:41] Received request chatcmpl-1: params: SamplingParams(n=1), "
      "prompt: 'upstream timed out (110: Operation timed out) while reading'\n"
      "INFO:     10.0.0.1:5 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
      "[GIN] 2024/10/29 - 03:24:29 | 200 |  5.2s |   10.1.2.3 | POST     \"/api/chat\" client connection closed before server finished loading\n"
      "10.0.0.1 - - [18/May/2026:22:29:08 +0000] \"POST /v1/completions HTTP/1.1\" 504 160 \"-\" \"curl/7.81.0\"\n");
  ASSERT_EQ(r.signature_events.size(), 1u);
  EXPECT_EQ(r.signature_events[0].labels.at("signature"), "http_504_status_11");
  EXPECT_EQ(r.signature_events[0].source, "log:4");
  // A failed [GIN] line is scanned.
  auto g = ingest::parse_engine_log_text("[GIN] 2024/10/29 - 03:24:29 | 499 |  5.239788128s |   10.102.227.89 | POST     \"/api/chat\"\n");
  ASSERT_EQ(g.signature_events.size(), 1u);
  EXPECT_EQ(g.signature_events[0].labels.at("signature"), "ollama_gin_499");
}

// A server's command line printed in a log is read as its launch settings (an engine_args event
// with the line from `cmd=` on), and ordinary lines with a dash or two are not.
TEST(Signatures, AServerCommandLineInTheLogIsItsLaunchSettings) {
  const char* log =
      "time=2025-05-22T15:00:07.111+02:00 level=INFO source=server.go:431 msg=\"starting llama server\" "
      "cmd=\"/usr/bin/ollama runner --model /m/blob --ctx-size 8192 --threads 64 --parallel 2 --port 35741\"\n"
      "--ctx-size 8192 --batch-size 512 --threads 64 --no-mmap --parallel 2\n"
      "the quick--brown fox -- jumps --over\n";
  auto r = ingest::parse_engine_log_text(log);
  std::vector<std::string> launch;
  for (const auto& e : r.events)
    if (auto it = e.labels.find("launch"); it != e.labels.end()) launch.push_back(it->second);
  ASSERT_EQ(launch.size(), 2u);
  EXPECT_EQ(launch[0].find("/usr/bin/ollama runner --model /m/blob --ctx-size 8192"), 0u) << launch[0];
  EXPECT_NE(launch[1].find("--threads 64"), std::string::npos);
}
