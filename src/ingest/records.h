#pragma once
// Request records -> core::RequestRecord. Sources (docs/logs-and-records.md has the field table,
// with what each source cannot provide):
//   llmtriage   llmtriage's own bench JSONL (schema "llmtriage.request.v1", defined there; the
//               load generator and the simulator write it)
//   vllm_bench  `vllm bench serve --save-result --save-detailed` JSON (per-request arrays)
//   sglang_bench SGLang `bench_serving --output-details` JSONL (one run per line, same arrays)
//   aiperf      AIPerf / GenAI-Perf profile_export.jsonl ({metadata, metrics{value,unit}, error})
//   genai_perf  GenAI-Perf profile_export.json (experiments[].requests[] with ns timestamps)
//   nginx       nginx JSON access log (msec, request_time, upstream_* timing, status)
//   envoy       Envoy JSON access log (start_time, duration, response_code, response_flags)
//   csv, jsonl  generic tables, mapped with a column map ("field=column[*factor]")
// Bad lines are counted per kind and the first few kept with line numbers; never fatal unless
// strict. Fields a source does not provide stay empty (never invented).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::ingest {

enum class RecordFormat { auto_detect, llmtriage, vllm_bench, sglang_bench, aiperf, genai_perf,
                          nginx, envoy, csv, jsonl };
const char* to_string(RecordFormat f);
// "auto", "llmtriage", "vllm", "vllm_bench", "sglang", "sglang_bench", "aiperf", "genai_perf",
// "genai-perf", "nginx", "envoy", "csv", "jsonl"; nullopt otherwise.
std::optional<RecordFormat> record_format_from_string(std::string_view name);

// One mapped field of a generic table: RequestRecord field <- column, times a factor (units).
struct ColumnMapping {
  std::string field;   // "arrival_s", "input_tokens", "ttft_s", ...
  std::string column;  // header name (CSV) or key (JSONL; "a.b" reaches into objects)
  double factor = 1.0; // e.g. 0.001 for a column in ms
};
// Parses "arrival_s=ts,ttft_s=ttft_ms*0.001,status=code". Error names the bad item.
core::Result<std::vector<ColumnMapping>> parse_column_map(std::string_view spec);
// The fields a column map may name.
const std::vector<std::string>& mappable_fields();

struct RecordReadOptions {
  RecordFormat format = RecordFormat::auto_detect;
  std::string source_name{};
  std::vector<ColumnMapping> columns{};  // csv / jsonl (and overrides for the others' gaps)
  size_t max_line_bytes = 16 << 20;    // longer lines are counted "too_long" and skipped
  size_t max_reported_issues = 5;
  bool include_warmup = false;         // AIPerf records of benchmark_phase "warmup"
  // Streaming: when set, each record goes here instead of into RecordReadResult::records (no
  // per-file memory; arrival_s stays as the source wrote it and `unavailable` is not computed).
  std::function<void(core::RequestRecord&&)> on_record{};
};

struct RecordIssue {
  int64_t line = 0;    // 1-based; for whole-document formats, the request index + 1
  std::string kind;    // "invalid_json", "missing_field", "bad_value", "number_as_string",
                       // "binary", "invalid_utf8", "too_long", "truncated_last_line"
  std::string detail;  // which field, sanitized excerpt
};

struct RecordReadResult {
  RecordFormat format = RecordFormat::auto_detect;  // the one used (detected when auto)
  std::vector<core::RequestRecord> records;
  // arrival_s is "relative" (seconds since the first request) or "unix"
  std::string time_base = "relative";
  std::vector<std::string> unavailable;  // RequestRecord fields this source cannot provide
  int64_t lines_total = 0;
  int64_t records_skipped = 0;  // lines that held no request (headers, warmup, run summaries)
  int64_t records_bad = 0;      // lines/requests rejected
  std::map<std::string, int64_t> bad_input;  // kind -> count (number_as_string: accepted)
  std::vector<RecordIssue> issues;
  std::optional<core::Error> read_error;
};

core::Result<RecordReadResult> read_records_file(const std::string& path, RecordReadOptions options = {});
RecordReadResult read_records_text(std::string_view text, RecordReadOptions options = {});
// Guesses the format from the first non-empty lines (and the file name: .csv).
RecordFormat detect_record_format(std::string_view head, std::string_view file_name = {});

// Writes one record as a line of the llmtriage bench JSONL (no trailing newline).
std::string to_bench_jsonl(const core::RequestRecord& r);

}  // namespace llmtriage::ingest
