// Record reading: format detection, the driver, llmtriage's own JSONL, generic CSV/JSONL with a
// column map, and the writer of the llmtriage JSONL (docs/logs-and-records.md, "Bench JSONL").
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/text_escape.h"
#include "ingest/line_reader.h"
#include "ingest/log_prefix.h"
#include "ingest/log_text.h"
#include "ingest/records.h"
#include "ingest/records_detail.h"

namespace llmtriage::ingest {

using detail::RecordSink;
using logtext::contains;

const char* to_string(RecordFormat f) {
  switch (f) {
    case RecordFormat::auto_detect: return "auto";
    case RecordFormat::llmtriage: return "llmtriage";
    case RecordFormat::vllm_bench: return "vllm_bench";
    case RecordFormat::sglang_bench: return "sglang_bench";
    case RecordFormat::aiperf: return "aiperf";
    case RecordFormat::genai_perf: return "genai_perf";
    case RecordFormat::nginx: return "nginx";
    case RecordFormat::envoy: return "envoy";
    case RecordFormat::csv: return "csv";
    case RecordFormat::jsonl: return "jsonl";
  }
  return "auto";
}

std::optional<RecordFormat> record_format_from_string(std::string_view n) {
  if (n == "auto") return RecordFormat::auto_detect;
  if (n == "llmtriage") return RecordFormat::llmtriage;
  if (n == "vllm" || n == "vllm_bench" || n == "vllm-bench") return RecordFormat::vllm_bench;
  if (n == "sglang" || n == "sglang_bench" || n == "sglang-bench") return RecordFormat::sglang_bench;
  if (n == "aiperf") return RecordFormat::aiperf;
  if (n == "genai_perf" || n == "genai-perf") return RecordFormat::genai_perf;
  if (n == "nginx") return RecordFormat::nginx;
  if (n == "envoy") return RecordFormat::envoy;
  if (n == "csv") return RecordFormat::csv;
  if (n == "jsonl") return RecordFormat::jsonl;
  return std::nullopt;
}

const std::vector<std::string>& mappable_fields() {
  static const std::vector<std::string> f = {
      "id", "arrival_s", "send_s", "first_token_s", "end_s", "input_tokens", "output_tokens",
      "ttft_s", "e2e_s", "status", "error_category", "model", "max_tokens", "temperature",
      "top_p", "n", "ignore_eos", "queue_s"};
  return f;
}

core::Result<std::vector<ColumnMapping>> parse_column_map(std::string_view spec) {
  std::vector<ColumnMapping> out;
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string_view item = logtext::trim(spec.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    pos = comma == std::string_view::npos ? spec.size() + 1 : comma + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return core::make_error(core::ErrorKind::usage, "--columns", "field=column[*factor]", std::string(item));
    ColumnMapping m;
    m.field = std::string(logtext::trim(item.substr(0, eq)));
    std::string_view col = logtext::trim(item.substr(eq + 1));
    size_t star = col.rfind('*');
    if (star != std::string_view::npos) {
      size_t p = star + 1;
      auto f = logtext::number_at(col, p);
      if (!f || p != col.size())
        return core::make_error(core::ErrorKind::usage, "--columns", "a number after '*'", std::string(item));
      m.factor = *f;
      col = logtext::trim(col.substr(0, star));
    }
    m.column = std::string(col);
    const auto& fields = mappable_fields();
    if (std::find(fields.begin(), fields.end(), m.field) == fields.end())
      return core::make_error(core::ErrorKind::usage, "--columns", "one of: " + fmt::format("{}", fmt::join(fields, ", ")), m.field);
    if (m.column.empty())
      return core::make_error(core::ErrorKind::usage, "--columns", "a column name after '='", std::string(item));
    out.push_back(std::move(m));
  }
  return out;
}

RecordFormat detect_record_format(std::string_view head, std::string_view file_name) {
  std::string_view l = logtext::trim(head.substr(0, head.find('\n')));
  if (l.empty() || l[0] != '{') {
    if (l == "[") return RecordFormat::jsonl;
    return RecordFormat::csv;
  }
  if (l == "{") {  // pretty-printed document
    if (contains(head, "\"experiments\"")) return RecordFormat::genai_perf;
    if (contains(head, "\"ttfts\"") || contains(head, "\"input_lens\"")) return RecordFormat::vllm_bench;
    return RecordFormat::genai_perf;
  }
  if (contains(l, "\"ttfts\"") || contains(l, "\"input_lens\"")) {
    return contains(l, "\"backend\": \"sglang") || contains(l, "sglang") ? RecordFormat::sglang_bench
                                                                        : RecordFormat::vllm_bench;
  }
  if (contains(l, "\"experiments\"")) return RecordFormat::genai_perf;
  if (contains(l, "\"metadata\"") && contains(l, "\"metrics\"")) return RecordFormat::aiperf;
  if (contains(l, "llmtriage.") || contains(l, "\"arrival_s\"")) return RecordFormat::llmtriage;
  if (contains(l, "\"upstream_response_time\"") || contains(l, "\"request_time\"") ||
      contains(l, "\"msec\"") || contains(l, "\"upstream_header_time\""))
    return RecordFormat::nginx;
  if (contains(l, "\"response_code\"") || contains(l, "\"response_flags\"") ||
      (contains(l, "\"start_time\"") && contains(l, "\"duration\"")))
    return RecordFormat::envoy;
  (void)file_name;
  return RecordFormat::jsonl;
}

namespace detail {

void RecordSink::issue(int64_t line, const char* kind, std::string_view d) {
  ++res.bad_input[kind];
  if (res.issues.size() < opt.max_reported_issues)
    res.issues.push_back({line, kind, logtext::sanitize(d, 160)});
}

std::string http_category(int status) {
  if (status <= 0) return "connection";
  if (status == 499) return "client_closed_499";
  return "http_" + std::to_string(status);
}

std::string text_category(std::string_view t) {
  auto has = [&](std::string_view w) {
    auto it = std::search(t.begin(), t.end(), w.begin(), w.end(),
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    return it != t.end();
  };
  if (has("timeout") || has("timed out")) return "timeout";
  for (int code : {400, 401, 403, 404, 408, 413, 422, 429, 500, 502, 503, 504})
    if (has(std::to_string(code))) return "http_" + std::to_string(code);
  if (has("connect") || has("reset") || has("refused") || has("disconnected")) return "connection";
  if (has("cancel")) return "cancelled";
  return "error";
}

std::optional<double> iso_to_unix(std::string_view s) {
  LogPrefix p = parse_prefix(s);
  if (!p.time.valid || p.time.year == 0) return std::nullopt;
  const LogTime& t = p.time;
  return static_cast<double>(days_from_civil(t.year, t.month, t.day)) * 86400.0 + t.hour * 3600.0 +
         t.minute * 60.0 + t.second - t.tz_offset_s.value_or(0);
}

namespace {

std::optional<int64_t> as_int(std::optional<double> d) {
  if (!d || *d < 0 || *d > 9.0e15 || std::floor(*d) != *d) return std::nullopt;
  return clamp_i64(*d);
}

// Number from a value; counts "number_as_string" (accepted) and "bad_value" (rejected field).
std::optional<double> num(const json::Value& v, std::string_view key, int64_t n, RecordSink& sink) {
  if (v.type == json::Type::null) return std::nullopt;
  bool as_string = false;
  auto d = json::to_number(v, &as_string);
  if (d && as_string) sink.issue(n, "number_as_string", key);
  if (!d) sink.issue(n, "bad_value", std::string(key) + "=" + std::string(v.raw.substr(0, 40)));
  return d;
}

// Applies a mapped value to a record. Times are seconds after the factor.
void apply_field(core::RequestRecord& r, std::string_view field, const json::Value& v, double factor,
                 int64_t n, RecordSink& sink, std::optional<double>& first_token_abs,
                 std::optional<double>& end_abs, bool& has_arrival) {
  auto number = [&]() -> std::optional<double> {
    auto d = num(v, field, n, sink);
    if (d) *d *= factor;
    return d;
  };
  if (field == "id") { r.id = v.type == json::Type::string ? json::unescape(v) : std::string(v.raw); return; }
  if (field == "model") { r.model = json::unescape(v); return; }
  if (field == "error_category") { if (v.type == json::Type::string && !v.raw.empty()) r.error_category = json::unescape(v); return; }
  if (field == "status") {
    if (v.type == json::Type::boolean) { r.status = v.boolean ? core::RequestStatus::ok : core::RequestStatus::error; return; }
    if (v.type == json::Type::string && (v.raw == "ok" || v.raw == "success" || v.raw == "OK")) { r.status = core::RequestStatus::ok; return; }
    if (v.type == json::Type::string && (v.raw == "error" || v.raw == "failed" || v.raw == "failure")) { r.status = core::RequestStatus::error; return; }
    bool as_string = false;
    if (auto code = json::to_number(v, &as_string)) {
      int c = clamp_int(*code);
      if (c >= 400 || c == 0) {
        r.status = core::RequestStatus::error;
        if (r.error_category.empty()) r.error_category = http_category(c);
      }
      return;
    }
    sink.issue(n, "bad_value", "status");
    return;
  }
  if (field == "ignore_eos") {
    if (v.type == json::Type::boolean) r.ignore_eos = v.boolean;
    else if (auto d = number()) r.ignore_eos = *d != 0;
    return;
  }
  static constexpr std::string_view numeric[] = {
      "arrival_s", "send_s", "first_token_s", "end_s", "ttft_s", "e2e_s", "queue_s", "temperature",
      "top_p", "input_tokens", "output_tokens", "max_tokens", "n"};
  if (std::find(std::begin(numeric), std::end(numeric), field) == std::end(numeric)) return;  // not ours
  auto d = number();
  if (!d) return;
  if (field == "arrival_s") { r.arrival_s = *d; has_arrival = true; }
  else if (field == "send_s") r.send_s = *d;
  else if (field == "first_token_s") first_token_abs = *d;
  else if (field == "end_s") end_abs = *d;
  else if (field == "ttft_s") r.ttft_s = *d;
  else if (field == "e2e_s") r.e2e_s = *d;
  else if (field == "queue_s") r.queue_s = *d;
  else if (field == "temperature") r.temperature = *d;
  else if (field == "top_p") r.top_p = *d;
  else if (field == "input_tokens" || field == "output_tokens" || field == "max_tokens" || field == "n") {
    auto i = as_int(d);
    if (!i) { sink.issue(n, "bad_value", std::string(field) + " is not a count"); return; }
    if (field == "input_tokens") r.input_tokens = *i;
    else if (field == "output_tokens") r.output_tokens = *i;
    else if (field == "max_tokens") r.max_tokens = *i;
    else r.n = clamp_int(static_cast<double>(*i));
  }
}

void finish_mapped(core::RequestRecord& r, bool has_arrival, std::optional<double> first_abs,
                   std::optional<double> end_abs, RecordSink& sink) {
  double start = r.send_s.value_or(r.arrival_s);
  if (first_abs && !r.ttft_s && has_arrival) r.ttft_s = *first_abs - start;
  if (end_abs && !r.e2e_s && has_arrival) r.e2e_s = *end_abs - start;
  if (!has_arrival) sink.arrival_known = false;
  if (r.status == core::RequestStatus::error && r.error_category.empty()) r.error_category = "error";
  if (r.id.empty()) r.id = std::to_string(sink.emitted);
  sink.emit(std::move(r));
}

}  // namespace

void read_llmtriage_line(std::string_view line, int64_t n, RecordSink& sink) {
  if (!read_llmtriage_line_fast(line, sink)) read_llmtriage_line_general(line, n, sink);
}

void read_llmtriage_line_general(std::string_view line, int64_t n, RecordSink& sink) {
  json::ObjectScanner sc(line);
  std::string_view key;
  json::Value v;
  core::RequestRecord r;
  bool has_arrival = false, header = false;
  std::optional<double> first_abs, end_abs;
  while (sc.next(key, v)) {
    switch (key.empty() ? ' ' : key[0]) {
      case 's':
        if (key == "schema") {
          if (v.raw != "llmtriage.request.v1") header = true;
          continue;
        }
        break;
      case 'c':
        if (key == "chunk_times_s" || key == "chunk_tokens") {
          auto a = json::to_number_array(v);
          if (!a) { sink.issue(n, "bad_value", key); continue; }
          if (key == "chunk_times_s") r.chunk_times_s = std::move(*a);
          else for (double x : *a) r.chunk_tokens.push_back(clamp_int(x));
          continue;
        }
        break;
      case 'i':
        if (key == "itl_s") {
          auto a = json::to_number_array(v);
          if (!a) sink.issue(n, "bad_value", key); else r.itl_s = std::move(*a);
          continue;
        }
        break;
      default: break;
    }
    apply_field(r, key, v, 1.0, n, sink, first_abs, end_abs, has_arrival);
  }
  if (!sc.error().empty()) {
    sink.bad(n, "invalid_json", sc.error());
    return;
  }
  if (header) {
    ++sink.res.records_skipped;
    return;
  }
  if (!has_arrival) {
    sink.bad(n, "missing_field", "arrival_s");
    return;
  }
  if (!r.chunk_tokens.empty() && r.chunk_tokens.size() != r.chunk_times_s.size()) {
    sink.issue(n, "bad_value", "chunk_tokens and chunk_times_s differ in length");
    r.chunk_tokens.clear();
  }
  finish_mapped(r, true, first_abs, end_abs, sink);
}

namespace {
// "a.b" lookups into nested objects for generic JSONL.
std::optional<json::Value> find_path(std::string_view obj, std::string_view path) {
  size_t dot = path.find('.');
  std::string_view head = path.substr(0, dot);
  json::ObjectScanner sc(obj);
  std::string_view key;
  json::Value v;
  while (sc.next(key, v)) {
    if (key != head) continue;
    if (dot == std::string_view::npos) return v;
    if (v.type != json::Type::object) return std::nullopt;
    return find_path(v.raw, path.substr(dot + 1));
  }
  return std::nullopt;
}
}  // namespace

void read_generic_jsonl_line(std::string_view line, int64_t n, RecordSink& sink) {
  json::ObjectScanner check(line);
  std::string_view key;
  json::Value v;
  while (check.next(key, v)) {}
  if (!check.error().empty()) {
    sink.bad(n, "invalid_json", check.error());
    return;
  }
  core::RequestRecord r;
  bool has_arrival = false;
  std::optional<double> first_abs, end_abs;
  if (sink.opt.columns.empty()) {
    // Identity mapping: keys named like RequestRecord fields.
    json::ObjectScanner sc(line);
    while (sc.next(key, v)) {
      const auto& f = mappable_fields();
      if (std::find(f.begin(), f.end(), key) != f.end())
        apply_field(r, key, v, 1.0, n, sink, first_abs, end_abs, has_arrival);
    }
  } else {
    for (const auto& m : sink.opt.columns) {
      auto val = find_path(line, m.column);
      if (!val) continue;
      apply_field(r, m.field, *val, m.factor, n, sink, first_abs, end_abs, has_arrival);
    }
  }
  finish_mapped(r, has_arrival, first_abs, end_abs, sink);
}

namespace {
// One CSV row into fields (RFC 4180 quotes; "" inside quotes is a quote).
bool split_csv(std::string_view line, std::vector<std::string>& out) {
  out.clear();
  std::string cur;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') { cur.push_back('"'); ++i; }
        else quoted = false;
      } else {
        cur.push_back(c);
      }
    } else if (c == '"' && cur.empty()) {
      quoted = was_quoted = true;
    } else if (c == ',') {
      out.push_back(was_quoted ? cur : std::string(logtext::trim(cur)));
      cur.clear();
      was_quoted = false;
    } else {
      cur.push_back(c);
    }
  }
  if (quoted) return false;
  out.push_back(was_quoted ? cur : std::string(logtext::trim(cur)));
  return true;
}
}  // namespace

void read_csv_line(std::string_view line, int64_t n, CsvState& st, RecordSink& sink) {
  std::vector<std::string> cells;
  if (!split_csv(line, cells)) {
    sink.bad(n, "invalid_csv", "unterminated quote");
    return;
  }
  if (st.header.empty()) {
    st.header = cells;
    st.maps = sink.opt.columns;
    if (st.maps.empty())
      for (const auto& f : mappable_fields()) st.maps.push_back({f, f, 1.0});
    for (const auto& m : st.maps) {
      auto it = std::find(st.header.begin(), st.header.end(), m.column);
      st.col_of_field.push_back(it == st.header.end() ? -1 : static_cast<int>(it - st.header.begin()));
    }
    ++sink.res.records_skipped;
    return;
  }
  if (cells.size() != st.header.size()) {
    sink.bad(n, "bad_value", fmt::format("{} cells, header has {}", cells.size(), st.header.size()));
    return;
  }
  core::RequestRecord r;
  bool has_arrival = false;
  std::optional<double> first_abs, end_abs;
  for (size_t k = 0; k < st.maps.size(); ++k) {
    int c = st.col_of_field[k];
    if (c < 0 || cells[c].empty()) continue;
    const std::string& cell = cells[c];
    json::Value v;
    // A cell is a number when it parses as one, else a string.
    json::Value probe{json::Type::number, cell, false, false};
    if (json::to_number(probe)) v = probe;
    else if (cell == "true" || cell == "false") v = json::Value{json::Type::boolean, cell, false, cell == "true"};
    else v = json::Value{json::Type::string, cell, false, false};
    apply_field(r, st.maps[k].field, v, st.maps[k].factor, n, sink, first_abs, end_abs, has_arrival);
  }
  finish_mapped(r, has_arrival, first_abs, end_abs, sink);
}

}  // namespace detail

namespace {

bool whole_document(RecordFormat f) {
  return f == RecordFormat::genai_perf;
}

// Returns the refusal of a binary input; otherwise the records and issues are in `res`.
std::optional<core::Error> read_lines(LineReader& reader, RecordReadOptions& opt, RecordReadResult& res) {
  RecordSink sink{opt, res};
  core::BinaryHead head;  // a binary input (a model file, /dev/urandom) is refused, not read as bad lines
  Line line;
  detail::CsvState csv;
  std::string doc;  // whole-document formats
  int64_t doc_first_line = 0;
  int run = 0;
  bool detected = opt.format != RecordFormat::auto_detect;
  uint64_t head_bytes = 0;
  while (reader.next(line)) {
    ++res.lines_total;
    head.add(line.text);
    if (head.binary()) break;
    // After 1000 lines show the average length, reserve for the whole file: growing a vector of
    // records by doubling moves every record several times and faults in fresh pages each time.
    if (res.lines_total <= 1000) head_bytes += line.text.size() + 1;
    if (res.lines_total == 1000 && reader.size_hint() > 0 && !opt.on_record) {
      double expect = static_cast<double>(reader.size_hint()) / (static_cast<double>(head_bytes) / 1000.0) * 1.05;
      detail::reserve_records(res.records, static_cast<size_t>(std::min(expect, 5.0e7)));
    }
    if (line.too_long) {
      sink.bad(line.number, "too_long", line.text.substr(0, 60));
      continue;
    }
    std::string_view t = line.text;
    if (!detected) {
      if (logtext::trim(t).empty()) continue;
      opt.format = detect_record_format(t, opt.source_name);
      if (opt.format == RecordFormat::csv && !opt.source_name.ends_with(".csv") &&
          t.find(',') == std::string_view::npos) {
        opt.format = RecordFormat::jsonl;  // neither JSON nor a table: let the JSON reader say so
      }
      detected = true;
    }
    res.format = opt.format;
    if (whole_document(opt.format)) {
      if (doc.empty()) doc_first_line = line.number;
      doc.append(t);
      doc.push_back('\n');
      continue;
    }
    if (!logtext::is_plain_ascii(t)) {
      if (logtext::looks_binary(t)) {
        sink.bad(line.number, "binary", t.substr(0, 60));
        continue;
      }
      if (!logtext::is_valid_utf8(t)) sink.issue(line.number, "invalid_utf8", t.substr(0, 60));
    }
    if (logtext::trim(t).empty()) continue;
    if (line.last_unterminated) {
      // A cut-off final write: JSON that does not close is "truncated", not "invalid".
      std::string_view tt = logtext::trim(t);
      if (opt.format != RecordFormat::csv && tt.back() != '}') {
        sink.bad(line.number, "truncated_last_line", t.substr(0, 60));
        continue;
      }
    }
    switch (opt.format) {
      case RecordFormat::llmtriage: detail::read_llmtriage_line(t, line.number, sink); break;
      case RecordFormat::aiperf: detail::read_aiperf_line(t, line.number, sink); break;
      case RecordFormat::nginx: detail::read_nginx_line(t, line.number, sink); break;
      case RecordFormat::envoy: detail::read_envoy_line(t, line.number, sink); break;
      case RecordFormat::jsonl: detail::read_generic_jsonl_line(t, line.number, sink); break;
      case RecordFormat::csv: detail::read_csv_line(t, line.number, csv, sink); break;
      case RecordFormat::vllm_bench:
      case RecordFormat::sglang_bench:
        detail::read_bench_arrays(t, line.number, run++, sink);
        break;
      case RecordFormat::genai_perf:
      case RecordFormat::auto_detect:
        break;
    }
  }
  head.judge();
  if (head.binary())
    return core::make_error(core::ErrorKind::input, opt.source_name,
                            "request records (JSONL, JSON, CSV, or an nginx/Envoy access log; gzip is read directly)",
                            head.describe(), "is this the right file? `llmtriage records summary --help` lists the formats read");
  if (!doc.empty()) {
    std::string_view d = logtext::trim(doc);
    if (opt.format == RecordFormat::genai_perf && d.find("\"experiments\"") == std::string_view::npos &&
        d.find("\"ttfts\"") != std::string_view::npos) {
      res.format = RecordFormat::vllm_bench;
      detail::read_bench_arrays(d, doc_first_line, 0, sink);
    } else {
      detail::read_genai_perf_doc(d, sink);
    }
  }
  if (!opt.on_record) detail::finalize_stored(res, sink);
  return std::nullopt;
}

}  // namespace

core::Result<RecordReadResult> read_records_file(const std::string& path, RecordReadOptions options) {
  if (options.source_name.empty()) options.source_name = path;
  auto reader = LineReader::open(path, options.max_line_bytes);
  if (!reader) return std::move(reader).error();
  RecordReadResult res;
  if (auto refused = read_lines(**reader, options, res)) return std::move(*refused);
  if ((*reader)->error()) res.read_error = *(*reader)->error();
  return res;
}

RecordReadResult read_records_text(std::string_view text, RecordReadOptions options) {
  auto reader = LineReader::from_string(text, options.max_line_bytes);
  RecordReadResult res;
  // In memory the caller holds the text: binary lines are counted as bad, record by record.
  (void)read_lines(*reader, options, res);
  return res;
}

std::string to_bench_jsonl(const core::RequestRecord& r) {
  std::string s = "{\"schema\":\"llmtriage.request.v1\"";
  auto str = [&](const char* k, const std::string& v) {
    s += fmt::format(",\"{}\":", k);
    s += '"';
    for (char c : v) {
      if (c == '"' || c == '\\') { s += '\\'; s += c; }
      else if (static_cast<unsigned char>(c) < 0x20) s += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      else s += c;
    }
    s += '"';
  };
  auto num = [&](const char* k, double v) { s += fmt::format(",\"{}\":{}", k, v); };
  auto arr = [&](const char* k, const auto& a) {
    s += fmt::format(",\"{}\":[{}]", k, fmt::join(a, ","));
  };
  str("id", r.id);
  num("arrival_s", r.arrival_s);
  if (r.send_s) num("send_s", *r.send_s);
  if (r.input_tokens) num("input_tokens", static_cast<double>(*r.input_tokens));
  if (r.output_tokens) num("output_tokens", static_cast<double>(*r.output_tokens));
  if (r.ttft_s) num("ttft_s", *r.ttft_s);
  if (r.e2e_s) num("e2e_s", *r.e2e_s);
  if (!r.chunk_times_s.empty()) arr("chunk_times_s", r.chunk_times_s);
  if (!r.chunk_tokens.empty()) arr("chunk_tokens", r.chunk_tokens);
  if (!r.itl_s.empty()) arr("itl_s", r.itl_s);
  str("status", r.status == core::RequestStatus::ok ? "ok" : "error");
  if (!r.error_category.empty()) str("error_category", r.error_category);
  if (!r.model.empty()) str("model", r.model);
  if (r.max_tokens) num("max_tokens", static_cast<double>(*r.max_tokens));
  if (r.temperature) num("temperature", *r.temperature);
  if (r.top_p) num("top_p", *r.top_p);
  if (r.n) num("n", *r.n);
  if (r.ignore_eos) s += fmt::format(",\"ignore_eos\":{}", *r.ignore_eos ? "true" : "false");
  if (r.queue_s) num("queue_s", *r.queue_s);
  s += '}';
  return s;
}

}  // namespace llmtriage::ingest
