#include "ingest/prom_parser.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace llmtriage::ingest {
namespace {

inline bool is_ws(char c) { return c == ' ' || c == '\t'; }
inline bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
inline bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
inline bool is_label_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_label_char(char c) { return is_label_start(c) || (c >= '0' && c <= '9'); }

void skip_ws(std::string_view s, size_t& pos) {
  while (pos < s.size() && is_ws(s[pos])) ++pos;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// What was found at s[pos], for an error message: 'c', "token" or end of line.
std::string found_char(std::string_view s, size_t pos) {
  if (pos >= s.size()) return "end of line";
  unsigned char c = static_cast<unsigned char>(s[pos]);
  if (c < 0x20 || c >= 0x7f) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return buf;
  }
  return std::string("'") + s[pos] + "'";
}

std::string quoted(std::string_view tok) {
  std::string out = "\"";
  size_t n = std::min<size_t>(tok.size(), 40);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(tok[i]);
    out += (c < 0x20 || c >= 0x7f) ? '?' : static_cast<char>(c);
  }
  if (tok.size() > n) out += "...";
  out += '"';
  return out;
}

std::string_view token_at(std::string_view s, size_t pos) {
  size_t end = pos;
  while (end < s.size() && !is_ws(s[end])) ++end;
  return s.substr(pos, end - pos);
}

std::optional<PromType> type_from(std::string_view s) {
  if (s == "counter") return PromType::counter;
  if (s == "gauge") return PromType::gauge;
  if (s == "histogram") return PromType::histogram;
  if (s == "summary") return PromType::summary;
  if (s == "untyped" || s == "unknown") return PromType::untyped;
  if (s == "gaugehistogram") return PromType::gaugehistogram;
  if (s == "info") return PromType::info;
  if (s == "stateset") return PromType::stateset;
  return std::nullopt;
}

// Whether `suffix` (with its leading '_') names a series of a family of type t.
bool suffix_belongs(PromType t, std::string_view suffix) {
  switch (t) {
    case PromType::histogram:
      return suffix == "_bucket" || suffix == "_sum" || suffix == "_count" || suffix == "_created";
    case PromType::summary:
      return suffix == "_sum" || suffix == "_count" || suffix == "_created";
    case PromType::counter:
      return suffix == "_total" || suffix == "_created";
    case PromType::gaugehistogram:
      return suffix == "_bucket" || suffix == "_gcount" || suffix == "_gsum";
    case PromType::info:
      return suffix == "_info";
    case PromType::gauge:
    case PromType::untyped:
    case PromType::stateset:
      return false;
  }
  return false;
}

// Appends the unescaped form of `raw` (which holds at least one backslash) to out.
// Known escapes: \\ \" \n. Others are kept as written, as Prometheus does.
void unescape_into(std::string_view raw, std::string& out) {
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      char e = raw[i + 1];
      if (e == '\\' || e == '"') { out += e; ++i; continue; }
      if (e == 'n') { out += '\n'; ++i; continue; }
    }
    out += c;
  }
}

}  // namespace

const char* to_string(PromType t) {
  switch (t) {
    case PromType::untyped: return "untyped";
    case PromType::counter: return "counter";
    case PromType::gauge: return "gauge";
    case PromType::histogram: return "histogram";
    case PromType::summary: return "summary";
    case PromType::gaugehistogram: return "gaugehistogram";
    case PromType::info: return "info";
    case PromType::stateset: return "stateset";
  }
  return "untyped";
}

std::string PromError::message() const { return "line " + std::to_string(line) + ": " + reason; }

std::optional<double> parse_prom_float(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    s.remove_prefix(1);
    if (s.empty() || s[0] == '+' || s[0] == '-') return std::nullopt;
  }
  // Go's strconv.ParseFloat spellings that Prometheus accepts.
  if (iequals(s, "inf") || iequals(s, "infinity")) return neg ? -INFINITY : INFINITY;
  if (iequals(s, "nan")) return NAN;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return neg ? -v : v;
}

PromParser::PromParser(std::string_view text, PromOptions options)
    : text_(text), opt_(std::move(options)) {
  labels_.reserve(16);
}

std::optional<std::string_view> PromParser::label(std::string_view n) const {
  for (const auto& l : labels_)
    if (l.name == n) return l.value;
  return std::nullopt;
}

std::optional<double> PromParser::timestamp_s() const {
  if (!ts_) return std::nullopt;
  return opt_.openmetrics ? *ts_ : *ts_ / 1000.0;
}

void PromParser::fail(std::string reason) { pending_reason_ = std::move(reason); }

PromEntry PromParser::next() {
  while (!done_) {
    if (pos_ >= text_.size()) {
      done_ = true;
      break;
    }
    size_t nl = text_.find('\n', pos_);
    size_t end = nl == std::string_view::npos ? text_.size() : nl;
    std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
    ++line_no_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    size_t first = 0;
    skip_ws(line, first);
    if (first == line.size()) continue;  // blank line

    if (seen_eof_) {
      fail("expected nothing after \"# EOF\", found " + quoted(line.substr(first)));
    } else {
      PromEntry kind = PromEntry::end;
      if (unescaped_.capacity() < line.size()) unescaped_.reserve(line.size());
      unescaped_.clear();
      if (parse_line(line, kind)) {
        if (kind == PromEntry::eof) seen_eof_ = true;
        return kind;
      }
    }
    // A malformed line.
    ++malformed_;
    if (errors_.size() < opt_.max_kept_errors || opt_.strict)
      errors_.push_back({line_no_, std::move(pending_reason_)});
    pending_reason_.clear();
    if (opt_.strict) {
      done_ = true;
      return PromEntry::error;
    }
    if (seen_eof_) {  // one report for trailing junk, then stop
      done_ = true;
      break;
    }
  }
  return PromEntry::end;
}

bool PromParser::parse_line(std::string_view line, PromEntry& kind) {
  if (line[0] == '#') return parse_meta(line, kind);
  if (!parse_series(line)) return false;
  kind = PromEntry::series;
  ++series_count_;
  return true;
}

bool PromParser::parse_meta(std::string_view line, PromEntry& kind) {
  size_t pos = 1;
  // "# HELP", "# TYPE", "# UNIT", "# EOF": '#', whitespace, keyword. Anything else is a comment.
  size_t kw = pos;
  skip_ws(line, kw);
  std::string_view rest = line.substr(kw);
  auto keyword = [&](std::string_view k) {
    return kw > pos && rest.size() >= k.size() && rest.substr(0, k.size()) == k &&
           (rest.size() == k.size() || is_ws(rest[k.size()]));
  };
  if (keyword("EOF")) {
    size_t after = kw + 3;
    skip_ws(line, after);
    if (after != line.size()) {
      fail("expected end of line after \"# EOF\", found " + quoted(line.substr(after)));
      return false;
    }
    kind = PromEntry::eof;
    return true;
  }
  const char* which = keyword("HELP") ? "HELP" : keyword("TYPE") ? "TYPE" : keyword("UNIT") ? "UNIT" : nullptr;
  if (!which) {
    meta_text_ = line.substr(1);
    kind = PromEntry::comment;
    return true;
  }
  pos = kw + 4;
  skip_ws(line, pos);
  if (pos >= line.size() || !is_name_start(line[pos])) {
    fail(std::string("expected a metric name after \"# ") + which + "\", found " + found_char(line, pos));
    return false;
  }
  size_t name_begin = pos;
  while (pos < line.size() && is_name_char(line[pos])) ++pos;
  meta_name_ = line.substr(name_begin, pos - name_begin);
  if (pos < line.size() && !is_ws(line[pos])) {
    fail(std::string("expected a space after the metric name in \"# ") + which + "\", found " +
         found_char(line, pos));
    return false;
  }
  skip_ws(line, pos);
  std::string_view text = line.substr(pos);
  while (!text.empty() && is_ws(text.back())) text.remove_suffix(1);
  if (which[0] == 'T') {
    auto t = type_from(text);
    if (!t) {
      fail("expected a metric type (counter, gauge, histogram, summary, untyped, gaugehistogram, "
           "info, stateset) in \"# TYPE\", found " +
           (text.empty() ? std::string("end of line") : quoted(text)));
      return false;
    }
    declared_type_ = *t;
    typed_family_ = meta_name_;
    typed_type_ = *t;
    kind = PromEntry::type;
    return true;
  }
  if (which[0] == 'U') {
    meta_text_ = text;
    kind = PromEntry::unit;
    return true;
  }
  // HELP: \\ and \n escapes (OpenMetrics adds \").
  if (text.find('\\') != std::string_view::npos) {
    size_t start = unescaped_.size();
    unescape_into(text, unescaped_);
    meta_text_ = std::string_view(unescaped_).substr(start);
  } else {
    meta_text_ = text;
  }
  kind = PromEntry::help;
  return true;
}

bool PromParser::parse_label_value(std::string_view line, size_t& pos, std::string_view& out) {
  // pos is just after the opening quote.
  size_t begin = pos;
  bool escaped = false;
  while (pos < line.size()) {
    char c = line[pos];
    if (c == '\\') {
      escaped = true;
      pos += 2;
      continue;
    }
    if (c == '"') break;
    ++pos;
  }
  if (pos >= line.size()) return false;
  std::string_view raw = line.substr(begin, pos - begin);
  ++pos;  // closing quote
  if (!escaped) {
    out = raw;
  } else {
    size_t start = unescaped_.size();
    unescape_into(raw, unescaped_);
    out = std::string_view(unescaped_).substr(start);
  }
  return true;
}

bool PromParser::parse_labels(std::string_view line, size_t& pos) {
  ++pos;  // '{'
  for (;;) {
    skip_ws(line, pos);
    if (pos < line.size() && line[pos] == '}') {
      ++pos;
      return true;
    }
    if (pos >= line.size() || !is_label_start(line[pos])) {
      fail("expected a label name or '}', found " + found_char(line, pos));
      return false;
    }
    size_t nb = pos;
    while (pos < line.size() && is_label_char(line[pos])) ++pos;
    std::string_view lname = line.substr(nb, pos - nb);
    skip_ws(line, pos);
    if (pos >= line.size() || line[pos] != '=') {
      fail("expected '=' after label name " + quoted(lname) + ", found " + found_char(line, pos));
      return false;
    }
    ++pos;
    skip_ws(line, pos);
    if (pos >= line.size() || line[pos] != '"') {
      fail("expected '\"' to open the value of label " + quoted(lname) + ", found " +
           found_char(line, pos));
      return false;
    }
    ++pos;
    std::string_view lvalue;
    if (!parse_label_value(line, pos, lvalue)) {
      fail("expected '\"' to close the value of label " + quoted(lname) + ", found end of line");
      return false;
    }
    labels_.push_back({lname, lvalue});
    skip_ws(line, pos);
    if (pos < line.size() && line[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos < line.size() && line[pos] == '}') {
      ++pos;
      return true;
    }
    fail("expected ',' or '}' after the value of label " + quoted(lname) + ", found " +
         found_char(line, pos));
    return false;
  }
}

bool PromParser::parse_series(std::string_view line) {
  labels_.clear();
  ts_.reset();
  has_exemplar_ = false;
  size_t pos = 0;
  skip_ws(line, pos);
  if (!is_name_start(line[pos])) {
    fail("expected a metric name, found " + found_char(line, pos));
    return false;
  }
  size_t nb = pos;
  while (pos < line.size() && is_name_char(line[pos])) ++pos;
  name_ = line.substr(nb, pos - nb);
  size_t after_name = pos;
  skip_ws(line, pos);
  if (pos < line.size() && line[pos] == '{') {
    if (!parse_labels(line, pos)) return false;
    after_name = pos;
    skip_ws(line, pos);
  }
  if (pos >= line.size()) {
    fail("expected a value after " + quoted(name_) + ", found end of line");
    return false;
  }
  if (pos == after_name) {
    fail("expected a space before the value of " + quoted(name_) + ", found " +
         found_char(line, pos));
    return false;
  }
  std::string_view vtok = token_at(line, pos);
  auto v = parse_prom_float(vtok);
  if (!v) {
    fail("expected a number as the value of " + quoted(name_) + ", found " + quoted(vtok));
    return false;
  }
  value_ = *v;
  pos += vtok.size();
  skip_ws(line, pos);
  if (pos < line.size() && line[pos] != '#') {
    std::string_view ttok = token_at(line, pos);
    auto t = parse_prom_float(ttok);
    if (!t || !std::isfinite(*t)) {
      fail("expected a timestamp or end of line after the value of " + quoted(name_) +
           ", found " + quoted(ttok));
      return false;
    }
    ts_ = *t;
    pos += ttok.size();
    skip_ws(line, pos);
  }
  if (pos < line.size()) {
    if (line[pos] != '#') {
      fail("expected end of line after the timestamp of " + quoted(name_) + ", found " +
           quoted(line.substr(pos)));
      return false;
    }
    // OpenMetrics exemplar: " # {labels} value [timestamp]". Skipped, only its opening checked.
    size_t e = pos + 1;
    skip_ws(line, e);
    if (e >= line.size() || line[e] != '{') {
      fail("expected an exemplar \"# {...} value\" after the value of " + quoted(name_) +
           ", found " + quoted(line.substr(pos)));
      return false;
    }
    has_exemplar_ = true;
  }
  resolve_family();
  return true;
}

void PromParser::resolve_family() {
  series_type_ = PromType::untyped;
  series_family_ = name_;
  if (typed_family_.empty()) return;
  if (name_ == typed_family_) {
    series_type_ = typed_type_;
    return;
  }
  if (name_.size() > typed_family_.size() && name_.substr(0, typed_family_.size()) == typed_family_ &&
      suffix_belongs(typed_type_, name_.substr(typed_family_.size()))) {
    series_type_ = typed_type_;
    series_family_ = typed_family_;
  }
}

std::optional<core::Error> PromParser::first_error() const {
  if (errors_.empty()) return std::nullopt;
  const PromError& e = errors_.front();
  // reasons read "expected X, found Y"
  std::string expected = e.reason, found;
  if (expected.rfind("expected ", 0) == 0) expected = expected.substr(9);
  auto f = expected.find(", found ");
  if (f != std::string::npos) {
    found = expected.substr(f + 8);
    expected = expected.substr(0, f);
  }
  std::string where = (opt_.source.empty() ? std::string("line ") : opt_.source + ":") +
                      std::to_string(e.line);
  return core::make_error(core::ErrorKind::input, where, expected, found,
                          malformed_ > 1 ? std::to_string(malformed_) + " malformed lines in all"
                                         : std::string());
}

std::string PromParser::malformed_summary() const {
  if (malformed_ == 0) return {};
  std::string s = std::to_string(malformed_) + " malformed line" + (malformed_ > 1 ? "s" : "") +
                  " skipped (first: " + errors_.front().message() + ")";
  return s;
}

std::string escape_label_value(std::string_view v) {
  std::string o;
  o.reserve(v.size());
  for (char c : v) {
    if (c == '\\') o += "\\\\";
    else if (c == '"') o += "\\\"";
    else if (c == '\n') o += "\\n";
    else o += c;
  }
  return o;
}

}  // namespace llmtriage::ingest
