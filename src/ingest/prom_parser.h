#pragma once
// PromParser: a pull parser for the Prometheus text exposition format 0.0.4 and the basics of
// OpenMetrics 1.0 text (# HELP / # TYPE / # UNIT, label escapes, optional timestamps,
// +Inf/-Inf/NaN, histograms, summaries, _created, exemplars skipped, # EOF).
//
// In the style of Prometheus' model/textparse: next() returns what the next entry is, and the
// accessors return views into the input (or into one reused buffer when a label value or HELP
// text holds an escape). Views are valid until the next call to next(). In steady state no call
// allocates: the label list and the unescape buffer keep their capacity.
//
// A malformed line is counted, its first few errors kept (line number + reason), and skipped;
// with `strict` the first one ends the parse (next() returns PromEntry::error).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace llmtriage::ingest {

enum class PromEntry { series, help, type, unit, comment, eof, end, error };

// The metric type of a family, as declared by "# TYPE". untyped = none declared.
enum class PromType { untyped, counter, gauge, histogram, summary, gaugehistogram, info, stateset };
const char* to_string(PromType t);

struct PromLabel {
  std::string_view name;
  std::string_view value;  // unescaped
};

// One malformed line: where and why. message() is "line N: <reason>".
struct PromError {
  int64_t line = 0;
  std::string reason;  // "expected '=' after label name, found '}'"
  std::string message() const;
};

struct PromOptions {
  bool strict = false;        // the first malformed line is fatal
  bool openmetrics = false;   // timestamps are seconds (OpenMetrics), not milliseconds (0.0.4)
  size_t max_kept_errors = 20;
  std::string source;         // file or URL, for error messages
};

class PromParser {
 public:
  explicit PromParser(std::string_view text, PromOptions options = {});

  // Advances to the next entry. Blank lines are skipped. Returns end at the end of input,
  // eof after "# EOF" (then end), error only in strict mode (then end).
  PromEntry next();

  // --- series (valid after next() returned series) ---
  std::string_view name() const { return name_; }
  std::span<const PromLabel> labels() const { return labels_; }
  // The value of label `name`, or nullopt.
  std::optional<std::string_view> label(std::string_view name) const;
  double value() const { return value_; }
  // Timestamp as written (ms in 0.0.4, s in OpenMetrics), and converted to seconds.
  std::optional<double> timestamp_raw() const { return ts_; }
  std::optional<double> timestamp_s() const;
  bool has_exemplar() const { return has_exemplar_; }
  // The family this series belongs to when the last "# TYPE" named it (name minus _bucket,
  // _sum, _count, _created, _total, _info, _gcount, _gsum), and that family's type.
  PromType type() const { return series_type_; }
  std::string_view family() const { return series_family_; }

  // --- help / type / unit (valid after next() returned that kind) ---
  std::string_view meta_name() const { return meta_name_; }
  std::string_view help_text() const { return meta_text_; }  // unescaped
  std::string_view unit() const { return meta_text_; }
  PromType declared_type() const { return declared_type_; }
  std::string_view comment_text() const { return meta_text_; }

  // --- progress and problems ---
  int64_t line_number() const { return line_no_; }
  size_t series_count() const { return series_count_; }
  size_t malformed_count() const { return malformed_; }
  const std::vector<PromError>& errors() const { return errors_; }  // the first max_kept_errors
  // The fatal error in strict mode (or the first error otherwise), as a core::Error.
  std::optional<core::Error> first_error() const;
  // "3 malformed lines skipped (first: line 7: ...)" or "" when none.
  std::string malformed_summary() const;

 private:
  bool parse_line(std::string_view line, PromEntry& kind);
  bool parse_meta(std::string_view line, PromEntry& kind);
  bool parse_series(std::string_view line);
  bool parse_labels(std::string_view line, size_t& pos);
  bool parse_label_value(std::string_view line, size_t& pos, std::string_view& out);
  void fail(std::string reason);
  void resolve_family();

  std::string_view text_;
  PromOptions opt_;
  size_t pos_ = 0;
  int64_t line_no_ = 0;
  bool done_ = false;
  bool seen_eof_ = false;

  std::string_view name_;
  std::vector<PromLabel> labels_;
  double value_ = 0;
  std::optional<double> ts_;
  bool has_exemplar_ = false;
  PromType series_type_ = PromType::untyped;
  std::string_view series_family_;

  std::string_view meta_name_;
  std::string_view meta_text_;
  PromType declared_type_ = PromType::untyped;

  // The last "# TYPE" seen: its family name (a view into the input) and type.
  std::string_view typed_family_;
  PromType typed_type_ = PromType::untyped;

  std::string unescaped_;  // reserved to the line length before use: never reallocates mid-line
  size_t series_count_ = 0;
  size_t malformed_ = 0;
  std::vector<PromError> errors_;
  std::string pending_reason_;
};

// Parses a sample value or timestamp as Prometheus does: decimal floats, "+Inf", "-Inf", "Inf",
// "NaN" (case-insensitive). No trailing characters allowed.
std::optional<double> parse_prom_float(std::string_view s);

// A label value as the text format writes it (the inverse of the parser's unescape): backslash,
// double quote and line feed escaped.
std::string escape_label_value(std::string_view v);

}  // namespace llmtriage::ingest
