#pragma once
#include "core/numcast.h"
// Internal to the record readers (records_*.cpp): the sink each format writes into.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "core/evidence.h"
#include "ingest/records.h"
#include "ingest/records_json.h"

namespace llmtriage::ingest::detail {

// Bits of the optional RequestRecord fields a stored record holds (RecordSink::present).
uint32_t present_fields(const core::RequestRecord& r);

struct RecordSink {
  const RecordReadOptions& opt;
  RecordReadResult& res;
  bool arrival_known = true;  // false: the source has no per-request time (arrival_s = 0)

  void issue(int64_t line, const char* kind, std::string_view detail);
  int64_t emitted = 0;
  // Stored mode: the fields any record had and the earliest arrival, gathered while emitting so
  // that finishing a read does not walk every stored record (hundreds of MB) once per field.
  uint32_t present = 0;
  double min_arrival = std::numeric_limits<double>::infinity();
  // The fast path builds each record here and emits it; when the callback did not take the
  // strings and vectors, their buffers are reused by the next line (no allocation per record).
  core::RequestRecord scratch{};
  void emit(core::RequestRecord&& r) {
    ++emitted;
    if (opt.on_record) {
      opt.on_record(std::move(r));
      return;
    }
    present |= present_fields(r);
    if (r.arrival_s < min_arrival) min_arrival = r.arrival_s;
    res.records.push_back(std::move(r));
  }
  void bad(int64_t line, const char* kind, std::string_view detail) {
    ++res.records_bad;
    issue(line, kind, detail);
  }
};

// records.reserve(n), asking the kernel for huge pages under the fresh part (records_store.cpp).
void reserve_records(std::vector<core::RequestRecord>& records, size_t n);
// Stored mode, after the last record: unix times made relative, `unavailable` filled.
void finalize_stored(RecordReadResult& res, const RecordSink& sink);

using core::clamp_i64;
using core::clamp_int;

// Per-line readers (one JSON object per line).
// llmtriage's own JSONL: the fast path, then the general reader for any line it declines.
void read_llmtriage_line(std::string_view line, int64_t n, RecordSink& sink);
// Fast path (records_fast.cpp): a line of the shape our writer produces (flat members, no escapes
// in the strings it keeps, plain numbers) is emitted and true returned; for anything else
// (escapes, numbers as strings, NaN, duplicate keys, a header, any error) it returns false having
// touched nothing, and the general reader decides, with its issues and line numbers.
bool read_llmtriage_line_fast(std::string_view line, RecordSink& sink);
// The general reader (ObjectScanner + apply_field): the reference the fast path must match.
void read_llmtriage_line_general(std::string_view line, int64_t n, RecordSink& sink);
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
