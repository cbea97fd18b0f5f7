// The fast path of parse_query_body: one pass over the bytes of a successful vector / matrix /
// scalar envelope in the usual shape, no JSON document built. Anything unusual (an error
// envelope, escapes or non-ASCII in a string, native histograms, bare-number values, duplicate
// keys, "result" before "resultType", invalid JSON) makes it give up, and the general parser
// (prom_parse.cpp, nlohmann-json) reads the body and names any problem. The two must agree on
// every body the fast path accepts: the fuzz target checks that.
#include <charconv>
#include <string_view>

#include "fleet/prom_parse.h"

namespace llmtriage::fleet {

namespace {

class FastReader {
 public:
  explicit FastReader(std::string_view s) : p_(s.data()), e_(s.data() + s.size()) {}

  void ws() {
    while (p_ < e_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool eat(char c) {
    ws();
    if (p_ < e_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool at_end() {
    ws();
    return p_ == e_;
  }

  // A string of printable ASCII without escapes, as a view into the body.
  bool str(std::string_view& out) {
    if (!eat('"')) return false;
    const char* b = p_;
    while (p_ < e_) {
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out = std::string_view(b, static_cast<size_t>(p_ - b));
        ++p_;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) return false;
      ++p_;
    }
    return false;
  }

  // A JSON number (RFC 8259 grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?) as a double.
  bool num(double& out) {
    ws();
    const char* b = p_;
    const char* q = p_;
    if (q < e_ && *q == '-') ++q;
    if (q >= e_) return false;
    if (*q == '0') {
      ++q;
    } else if (*q >= '1' && *q <= '9') {
      while (q < e_ && *q >= '0' && *q <= '9') ++q;
    } else {
      return false;
    }
    if (q < e_ && *q == '.') {
      ++q;
      if (q >= e_ || *q < '0' || *q > '9') return false;
      while (q < e_ && *q >= '0' && *q <= '9') ++q;
    }
    if (q < e_ && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q < e_ && (*q == '+' || *q == '-')) ++q;
      if (q >= e_ || *q < '0' || *q > '9') return false;
      while (q < e_ && *q >= '0' && *q <= '9') ++q;
    }
    auto [end, ec] = std::from_chars(b, q, out);
    if (ec != std::errc() || end != q) return false;
    p_ = q;
    return true;
  }

  // {"key": value, ...}; on_key(key) reads the value.
  template <typename F>
  bool object(F&& on_key) {
    if (!eat('{')) return false;
    if (eat('}')) return true;
    for (;;) {
      std::string_view key;
      if (!str(key) || !eat(':') || !on_key(key)) return false;
      if (eat(',')) continue;
      return eat('}');
    }
  }

  // [value, ...]; on_elem() reads each element.
  template <typename F>
  bool array(F&& on_elem) {
    if (!eat('[')) return false;
    if (eat(']')) return true;
    for (;;) {
      if (!on_elem()) return false;
      if (eat(',')) continue;
      return eat(']');
    }
  }

  bool literal(std::string_view word) {
    ws();
    if (static_cast<size_t>(e_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  // Any value we do not read (within the same limits: plain strings, depth 64).
  bool skip(int depth = 0) {
    if (depth > 64) return false;
    ws();
    if (p_ >= e_) return false;
    std::string_view s;
    double d;
    switch (*p_) {
      case '"': return str(s);
      case '{': return object([&](std::string_view) { return skip(depth + 1); });
      case '[': return array([&] { return skip(depth + 1); });
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return num(d);
    }
  }

  // [timestamp, "value"] with a value parse_prom_value accepts.
  bool point(std::pair<double, double>& out) {
    std::string_view v;
    return eat('[') && num(out.first) && eat(',') && str(v) && parse_prom_value(v, out.second) && eat(']');
  }

 private:
  const char* p_;
  const char* e_;
};

bool read_strings(FastReader& r, std::vector<std::string>& out) {
  return r.array([&] {
    std::string_view s;
    if (!r.str(s)) return false;
    out.emplace_back(s);
    return true;
  });
}

bool read_series(FastReader& r, PromResult& out, size_t& points_hint) {
  PromSeries s;
  bool metric = false, value = false, values = false;
  const bool ok = r.object([&](std::string_view key) {
    if (key == "metric") {
      if (metric) return false;
      metric = true;
      return r.object([&](std::string_view name) {
        std::string_view v;
        if (!r.str(v)) return false;
        s.labels.insert_or_assign(std::string(name), std::string(v));
        return true;
      });
    }
    if (key == "value" || key == "values") {
      if (value || values) return false;  // both: the general parser keeps its own order
      if (key == "value") {
        value = true;
        std::pair<double, double> p;
        if (!r.point(p)) return false;
        s.points.push_back(p);
        return true;
      }
      values = true;
      s.points.reserve(points_hint);
      return r.array([&] {
        std::pair<double, double> p;
        if (!r.point(p)) return false;
        s.points.push_back(p);
        return true;
      });
    }
    if (key == "histogram" || key == "histograms") return false;
    return r.skip();
  });
  if (!ok) return false;
  points_hint = s.points.size();
  out.series.push_back(std::move(s));
  return true;
}

bool read_data(FastReader& r, PromResult& out) {
  bool type = false, result = false;
  const bool ok = r.object([&](std::string_view key) {
    if (key == "resultType") {
      std::string_view t;
      if (type || !r.str(t) || !(t == "vector" || t == "matrix" || t == "scalar")) return false;
      type = true;
      out.result_type = std::string(t);
      return true;
    }
    if (key == "result") {
      if (!type || result) return false;
      result = true;
      if (out.result_type == "scalar") {
        PromSeries s;
        std::pair<double, double> p;
        if (!r.point(p)) return false;
        s.points.push_back(p);
        out.series.push_back(std::move(s));
        return true;
      }
      size_t hint = 0;
      return r.array([&] { return read_series(r, out, hint); });
    }
    return r.skip();
  });
  return ok && type && result;
}

}  // namespace

bool parse_query_fast(std::string_view body, PromResult& out) {
  FastReader r(body);
  bool status = false, data = false, warnings = false, infos = false;
  const bool ok = r.object([&](std::string_view key) {
    if (key == "status") {
      std::string_view s;
      if (status || !r.str(s) || s != "success") return false;
      status = true;
      return true;
    }
    if (key == "data") {
      if (data) return false;
      data = true;
      return read_data(r, out);
    }
    if (key == "warnings") {
      if (warnings) return false;
      warnings = true;
      return read_strings(r, out.warnings);
    }
    if (key == "infos") {
      if (infos) return false;
      infos = true;
      return read_strings(r, out.infos);
    }
    return r.skip();
  });
  return ok && status && data && r.at_end();
}

}  // namespace llmtriage::fleet
