#include "net/http_parser.h"

#include <charconv>
#include <cstring>

namespace llmtriage::net {
namespace {

constexpr size_t kMaxChunkLine = 1024;
constexpr size_t kMaxTrailerBytes = 16 * 1024;

bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string printable(std::string_view s, size_t max = 40) {
  std::string out;
  for (char c : s.substr(0, max)) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) out += c;
    else out += "\\x" + std::string(1, "0123456789abcdef"[u >> 4]) + "0123456789abcdef"[u & 15];
  }
  if (s.size() > max) out += "...";
  return out;
}

// True when the comma-separated list `value` contains `token` (case-insensitive).
bool has_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    auto comma = value.find(',');
    if (iequals(trim(value.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

// Content-Length: digits only; repeated headers must agree. Returns false on a bad value.
bool content_length(const Headers& headers, bool* present, std::uint64_t* length) {
  *present = false;
  for (const auto& h : headers) {
    if (!iequals(h.name, "content-length")) continue;
    std::uint64_t v = 0;
    const char* b = h.value.data();
    const char* e = b + h.value.size();
    auto [p, ec] = std::from_chars(b, e, v);
    if (h.value.empty() || ec != std::errc() || p != e) return false;
    if (*present && v != *length) return false;
    *present = true;
    *length = v;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------- BodyDecoder
void BodyDecoder::start(Mode mode, std::uint64_t length) {
  mode_ = mode;
  line_.clear();
  trailer_bytes_ = 0;
  remaining_ = length;
  switch (mode) {
    case Mode::none: state_ = State::done; break;
    case Mode::length: state_ = length == 0 ? State::done : State::length; break;
    case Mode::chunked: state_ = State::size_line; break;
    case Mode::until_eof: state_ = State::until_eof; break;
  }
}

bool BodyDecoder::finish_eof() {
  if (state_ == State::until_eof) {
    state_ = State::done;
    return true;
  }
  return state_ == State::done;
}

size_t BodyDecoder::feed(std::string_view data, BodySink& sink, ParseError& err) {
  size_t pos = 0;
  while (pos < data.size() && state_ != State::done) {
    std::string_view rest = data.substr(pos);
    switch (state_) {
      case State::idle:
      case State::done: return pos;
      case State::until_eof:
        sink.on_body(rest);
        return data.size();
      case State::length:
      case State::data: {
        size_t n = rest.size() < remaining_ ? rest.size() : static_cast<size_t>(remaining_);
        sink.on_body(rest.substr(0, n));
        remaining_ -= n;
        pos += n;
        if (remaining_ == 0) state_ = state_ == State::length ? State::done : State::data_crlf;
        break;
      }
      case State::data_crlf: {
        // Expect "\r\n" (a bare "\n" is tolerated) after the chunk payload.
        char c = rest[0];
        if (c == '\r' && line_.empty()) {
          line_ = "\r";
          ++pos;
        } else if (c == '\n') {
          line_.clear();
          ++pos;
          state_ = State::size_line;
        } else {
          err = {Failure::malformed_http,
                 "expected CRLF after chunk data, found '" + printable(rest.substr(0, 8)) + "'"};
          return pos;
        }
        break;
      }
      case State::size_line:
      case State::trailers: {
        auto nl = rest.find('\n');
        size_t take = nl == std::string_view::npos ? rest.size() : nl + 1;
        size_t limit = state_ == State::size_line ? kMaxChunkLine : kMaxTrailerBytes;
        if (line_.size() + take > limit) {
          err = {state_ == State::size_line ? Failure::malformed_http : Failure::too_large,
                 state_ == State::size_line ? "a chunk-size line longer than 1024 bytes"
                                            : "trailers longer than 16 KiB"};
          return pos;
        }
        line_.append(rest.substr(0, take));
        pos += take;
        if (nl == std::string_view::npos) return pos;
        std::string_view line(line_);
        line.remove_suffix(1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (state_ == State::trailers) {
          trailer_bytes_ += line.size();
          if (line.empty()) state_ = State::done;
          line_.clear();
          break;
        }
        std::string_view digits = trim(line.substr(0, line.find(';')));
        std::uint64_t size = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
        if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) {
          err = {Failure::malformed_http, "chunk size '" + printable(line) + "' is not hexadecimal" +
                                              (ec == std::errc::result_out_of_range ? " (overflow)" : "")};
          return pos;
        }
        line_.clear();
        if (size == 0) {
          state_ = State::trailers;
        } else {
          remaining_ = size;
          state_ = State::data;
        }
        break;
      }
    }
  }
  return pos;
}

// ---------------------------------------------------------------- HeadReader
size_t HeadReader::feed(std::string_view data, bool* complete, ParseError& err) {
  *complete = false;
  // Leading empty lines before a message are allowed (RFC 9112 2.2).
  size_t skipped = 0;
  if (buf_.empty()) {
    while (skipped < data.size() && (data[skipped] == '\r' || data[skipped] == '\n')) ++skipped;
    data.remove_prefix(skipped);
  }
  size_t start = buf_.size();
  size_t room = max_bytes_ - start;
  size_t take = data.size() < room ? data.size() : room;
  buf_.append(data.substr(0, take));
  // Look for an empty line: "\n\n" or "\n\r\n".
  size_t i = scan_ > 0 ? scan_ - 1 : 0;
  for (; i < buf_.size(); ++i) {
    if (buf_[i] != '\n') continue;
    size_t j = i + 1;
    if (j < buf_.size() && buf_[j] == '\r') ++j;
    if (j < buf_.size() && buf_[j] == '\n') {
      size_t end = j + 1;
      size_t consumed = end - start;
      buf_.resize(end);
      *complete = true;
      return skipped + consumed;
    }
  }
  scan_ = buf_.size() > 2 ? buf_.size() - 2 : 0;
  if (buf_.size() >= max_bytes_) {
    err = {Failure::too_large, "a header block over " + std::to_string(max_bytes_) + " bytes"};
  }
  return skipped + take;
}

bool HeadReader::split(std::string_view* start_line, Headers* headers, ParseError& err) const {
  std::string_view rest(buf_);
  bool first = true;
  while (!rest.empty()) {
    auto nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if (first) {
      *start_line = line;
      first = false;
      continue;
    }
    if (line[0] == ' ' || line[0] == '\t') {
      err = {Failure::malformed_http, "an obsolete folded header line '" + printable(line) + "'"};
      return false;
    }
    auto colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    bool ok = colon != std::string_view::npos && !name.empty();
    for (char c : name) ok = ok && is_tchar(c);
    if (!ok) {
      err = {Failure::malformed_http, "a header line 'name: value', found '" + printable(line) + "'"};
      return false;
    }
    std::string_view value = trim(line.substr(colon + 1));
    for (char c : value) {
      if (c == '\0' || c == '\r') {
        err = {Failure::malformed_http, "a control character in header '" + std::string(name) + "'"};
        return false;
      }
    }
    headers->push_back({std::string(name), std::string(value)});
  }
  if (first) {
    err = {Failure::malformed_http, "an empty head"};
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- ResponseParser
void ResponseParser::reset(bool head_request) {
  head_.reset();
  resp_ = ResponseHead{};
  err_ = ParseError{};
  state_ = State::head;
  head_request_ = head_request;
  keep_alive_ = false;
  body_bytes_ = 0;
}

bool ResponseParser::on_head_complete() {
  std::string_view line;
  if (!head_.split(&line, &resp_.headers, err_)) return false;
  // "HTTP/1.1 200 OK"
  if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || (line[7] != '0' && line[7] != '1') ||
      line[8] != ' ') {
    err_ = {Failure::malformed_http, "a status line 'HTTP/1.1 200 OK', found '" + printable(line) + "'"};
    return false;
  }
  int status = 0;
  for (int i = 9; i < 12; ++i) {
    if (line[i] < '0' || line[i] > '9') {
      err_ = {Failure::malformed_http, "a 3-digit status code, found '" + printable(line) + "'"};
      return false;
    }
    status = status * 10 + (line[i] - '0');
  }
  if (line.size() > 12 && line[12] != ' ') {
    err_ = {Failure::malformed_http, "a 3-digit status code, found '" + printable(line) + "'"};
    return false;
  }
  resp_.status = status;
  resp_.reason = std::string(line.size() > 13 ? line.substr(13) : std::string_view{});
  bool http11 = line[7] == '1';
  const std::string* conn = resp_.header("connection");
  keep_alive_ = http11 ? !(conn && has_token(*conn, "close")) : (conn && has_token(*conn, "keep-alive"));
  if (status >= 100 && status < 200) {
    // Interim response (100 Continue): skip it and read the real one.
    bool head_req = head_request_;
    reset(head_req);
    return true;
  }
  const std::string* te = resp_.header("transfer-encoding");
  bool cl_present = false;
  std::uint64_t cl = 0;
  if (!content_length(resp_.headers, &cl_present, &cl)) {
    err_ = {Failure::malformed_http, "a numeric Content-Length"};
    return false;
  }
  if (head_request_ || status == 204 || status == 304) {
    body_.start(BodyDecoder::Mode::none);
  } else if (te) {
    // The last transfer coding decides the framing; anything but chunked runs to EOF.
    std::string_view v = trim(*te);
    auto comma = v.rfind(',');
    std::string_view last = trim(comma == std::string_view::npos ? v : v.substr(comma + 1));
    if (iequals(last, "chunked")) {
      body_.start(BodyDecoder::Mode::chunked);
    } else {
      body_.start(BodyDecoder::Mode::until_eof);
      keep_alive_ = false;
    }
  } else if (cl_present) {
    body_.start(BodyDecoder::Mode::length, cl);
  } else {
    body_.start(BodyDecoder::Mode::until_eof);
    keep_alive_ = false;
  }
  state_ = body_.done() ? State::done : State::body;
  return true;
}

size_t ResponseParser::feed(std::string_view data, BodySink& sink) {
  size_t pos = 0;
  while (pos < data.size() && (state_ == State::head || state_ == State::body)) {
    if (state_ == State::head) {
      bool complete = false;
      pos += head_.feed(data.substr(pos), &complete, err_);
      if (err_.kind != Failure::none) {
        state_ = State::error;
        return pos;
      }
      if (!complete) return pos;
      if (!on_head_complete()) {
        state_ = State::error;
        return pos;
      }
      continue;
    }
    struct Counting : BodySink {
      BodySink* inner;
      std::uint64_t* n;
      void on_body(std::string_view b) override {
        *n += b.size();
        inner->on_body(b);
      }
    } counting;
    counting.inner = &sink;
    counting.n = &body_bytes_;
    pos += body_.feed(data.substr(pos), counting, err_);
    if (err_.kind != Failure::none) {
      state_ = State::error;
      return pos;
    }
    if (body_.done()) state_ = State::done;
  }
  return pos;
}

bool ResponseParser::finish_eof() {
  if (state_ == State::body && body_.finish_eof()) state_ = State::done;
  return state_ == State::done;
}

// ---------------------------------------------------------------- RequestParser
void RequestParser::reset() {
  head_.reset();
  req_ = RequestHead{};
  body_.clear();
  err_ = ParseError{};
  state_ = State::head;
  error_status_ = 0;
  keep_alive_ = true;
  started_ = false;
}

void RequestParser::fail(int status, Failure kind, std::string what) {
  state_ = State::error;
  error_status_ = status;
  err_ = {kind, std::move(what)};
}

bool RequestParser::on_head_complete() {
  std::string_view line;
  ParseError e;
  if (!head_.split(&line, &req_.headers, e)) {
    fail(400, e.kind, e.what);
    return false;
  }
  // "GET /path HTTP/1.1"
  auto sp1 = line.find(' ');
  auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    fail(400, Failure::malformed_http, "a request line 'GET /path HTTP/1.1', found '" + printable(line) + "'");
    return false;
  }
  std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  bool ok = !method.empty() && !target.empty();
  for (char c : method) ok = ok && is_tchar(c);
  if (!ok || version.size() != 8 || version.substr(0, 7) != "HTTP/1." ||
      (version[7] != '0' && version[7] != '1')) {
    fail(400, Failure::malformed_http, "a request line 'GET /path HTTP/1.1', found '" + printable(line) + "'");
    return false;
  }
  req_.method = std::string(method);
  req_.target = std::string(target);
  req_.version_minor = version[7] - '0';
  const std::string* conn = req_.header("connection");
  keep_alive_ = req_.version_minor == 1 ? !(conn && has_token(*conn, "close"))
                                        : (conn && has_token(*conn, "keep-alive"));
  const std::string* te = req_.header("transfer-encoding");
  bool cl_present = false;
  std::uint64_t cl = 0;
  if (!content_length(req_.headers, &cl_present, &cl)) {
    fail(400, Failure::malformed_http, "a numeric Content-Length");
    return false;
  }
  if (te) {
    // Both framings at once is a request-smuggling vector: refuse (RFC 9112 6.3).
    if (cl_present) {
      fail(400, Failure::malformed_http, "either Content-Length or Transfer-Encoding, not both");
      return false;
    }
    if (!iequals(trim(*te), "chunked")) {
      fail(501, Failure::malformed_http, "Transfer-Encoding: chunked, found '" + printable(*te) + "'");
      return false;
    }
    body_dec_.start(BodyDecoder::Mode::chunked);
  } else if (cl_present) {
    if (cl > max_body_bytes_) {
      fail(413, Failure::too_large, "a body of at most " + std::to_string(max_body_bytes_) +
                                        " bytes, found Content-Length " + std::to_string(cl));
      return false;
    }
    body_.reserve(static_cast<size_t>(cl));
    body_dec_.start(BodyDecoder::Mode::length, cl);
  } else {
    body_dec_.start(BodyDecoder::Mode::none);
  }
  state_ = body_dec_.done() ? State::done : State::body;
  return true;
}

size_t RequestParser::feed(std::string_view data) {
  size_t pos = 0;
  if (!data.empty()) started_ = true;
  while (pos < data.size() && (state_ == State::head || state_ == State::body)) {
    if (state_ == State::head) {
      bool complete = false;
      ParseError e;
      pos += head_.feed(data.substr(pos), &complete, e);
      if (e.kind != Failure::none) {
        fail(e.kind == Failure::too_large ? 431 : 400, e.kind, e.what);
        return pos;
      }
      if (!complete) {
        // Fail fast on bytes that cannot start a request (a TLS ClientHello, binary junk)
        // instead of waiting for a blank line that will never come.
        std::string_view b = head_.buffered();
        for (char c : b.substr(0, b.find(' '))) {
          if (!is_tchar(c)) {
            fail(400, Failure::malformed_http, "a request line 'GET /path HTTP/1.1', found '" + printable(b, 16) + "'");
            return pos;
          }
        }
        return pos;
      }
      if (!on_head_complete()) return pos;
      continue;
    }
    Collect c;
    c.out = &body_;
    ParseError e;
    pos += body_dec_.feed(data.substr(pos), c, e);
    if (e.kind != Failure::none) {
      fail(400, e.kind, e.what);
      return pos;
    }
    if (body_.size() > max_body_bytes_) {
      fail(413, Failure::too_large, "a body of at most " + std::to_string(max_body_bytes_) + " bytes");
      return pos;
    }
    if (body_dec_.done()) state_ = State::done;
  }
  return pos;
}

}  // namespace llmtriage::net
