#pragma once
#include "core/numcast.h"
// Internal to the record readers (records_*.cpp): the sink each format writes into.
#include <string>
#include <string_view>

#include "core/evidence.h"
#include "ingest/records.h"
#include "ingest/records_json.h"

namespace llmtriage::ingest::detail {

struct RecordSink {
  const RecordReadOptions& opt;
  RecordReadResult& res;
  bool arrival_known = true;  // false: the source has no per-request time (arrival_s = 0)

  void issue(int64_t line, const char* kind, std::string_view detail);
  int64_t emitted = 0;
  void emit(core::RequestRecord&& r) {
    ++emitted;
    if (opt.on_record) opt.on_record(std::move(r));
    else res.records.push_back(std::move(r));
  }
  void bad(int64_t line, const char* kind, std::string_view detail) {
    ++res.records_bad;
    issue(line, kind, detail);
  }
};

using core::clamp_i64;
using core::clamp_int;

// Per-line readers (one JSON object per line).
void read_llmtriage_line(std::string_view line, int64_t n, RecordSink& sink);
void read_aiperf_line(std::string_view line, int64_t n, RecordSink& sink);
void read_nginx_line(std::string_view line, int64_t n, RecordSink& sink);
void read_envoy_line(std::string_view line, int64_t n, RecordSink& sink);
void read_generic_jsonl_line(std::string_view line, int64_t n, RecordSink& sink);
// Whole documents.
void read_bench_arrays(std::string_view doc, int64_t first_line, int run_index, RecordSink& sink);
void read_genai_perf_doc(std::string_view doc, RecordSink& sink);
// CSV: the header row, then rows.
struct CsvState {
  std::vector<std::string> header;
  std::vector<ColumnMapping> maps;  // the options' map, or identity on field names
  std::vector<int> col_of_field;    // per mapping: column index or -1
};
void read_csv_line(std::string_view line, int64_t n, CsvState& st, RecordSink& sink);

// Error category from an HTTP status (0 = none): "http_503", "client_closed_499".
std::string http_category(int status);
// Error category from a free-text error ("timeout", "connection", "http_500", "error").
std::string text_category(std::string_view text);
// Unix seconds from an ISO-8601 timestamp; nullopt when not one.
std::optional<double> iso_to_unix(std::string_view s);

}  // namespace llmtriage::ingest::detail
