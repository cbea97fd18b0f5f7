#pragma once
// Incremental HTTP/1.1 message parsers (no I/O): bytes in, head + body spans out. They accept
// any split of the input across reads and never copy body bytes of a Content-Length body or of
// chunk payloads (spans point into the caller's buffer). Header blocks are capped; a chunked or
// close-delimited body has no ceiling (the caller decides what to keep).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "net/failure.h"
#include "net/http.h"

namespace llmtriage::net {

struct ParseError {
  Failure kind = Failure::none;  // malformed_http or too_large
  std::string what;              // "chunk size 'zz' is not hexadecimal"
};

class BodySink {
 public:
  virtual ~BodySink() = default;
  virtual void on_body(std::string_view bytes) = 0;
};

// Body framing shared by requests and responses.
class BodyDecoder {
 public:
  enum class Mode { none, length, chunked, until_eof };
  void start(Mode mode, std::uint64_t length = 0);
  // Consumes what belongs to the body; returns bytes consumed. done() or error set when finished.
  size_t feed(std::string_view data, BodySink& sink, ParseError& err);
  bool done() const { return state_ == State::done; }
  Mode mode() const { return mode_; }
  // EOF seen: true when that ends the body (until_eof), otherwise the body is truncated.
  bool finish_eof();

 private:
  enum class State { idle, length, size_line, data, data_crlf, trailers, until_eof, done };
  Mode mode_ = Mode::none;
  State state_ = State::idle;
  std::uint64_t remaining_ = 0;
  std::string line_;       // partial chunk-size line or trailer line
  size_t trailer_bytes_ = 0;
};

// Accumulates a head (start line + header lines + blank line) under a size limit.
class HeadReader {
 public:
  explicit HeadReader(size_t max_bytes) : max_bytes_(max_bytes) {}
  void reset() { buf_.clear(); scan_ = 0; }
  // Returns bytes consumed; *complete set when the blank line was seen.
  size_t feed(std::string_view data, bool* complete, ParseError& err);
  bool empty() const { return buf_.empty(); }
  std::string_view buffered() const { return buf_; }
  // Splits the completed head into its start line and headers.
  bool split(std::string_view* start_line, Headers* headers, ParseError& err) const;

 private:
  size_t max_bytes_;
  std::string buf_;
  size_t scan_ = 0;
};

class ResponseParser {
 public:
  explicit ResponseParser(size_t max_header_bytes = 64 * 1024) : head_(max_header_bytes) {}
  // Prepare for the next response; a HEAD request's response has no body.
  void reset(bool head_request = false);
  // Feeds bytes: fills head() once it is complete, passes body spans to sink, stops after the
  // end of the message. Returns bytes consumed (unconsumed bytes follow the message).
  size_t feed(std::string_view data, BodySink& sink);
  // EOF from the peer: true when that completes the message (close-delimited body).
  bool finish_eof();

  bool head_done() const { return state_ != State::head; }
  bool done() const { return state_ == State::done; }
  bool failed() const { return state_ == State::error; }
  const ParseError& error() const { return err_; }
  const ResponseHead& head() const { return resp_; }
  ResponseHead& head() { return resp_; }
  // The connection may carry another request after this response.
  bool keep_alive() const { return keep_alive_; }
  std::uint64_t body_bytes() const { return body_bytes_; }

 private:
  enum class State { head, body, done, error };
  bool on_head_complete();
  HeadReader head_;
  BodyDecoder body_;
  ResponseHead resp_;
  ParseError err_;
  State state_ = State::head;
  bool head_request_ = false;
  bool keep_alive_ = false;
  std::uint64_t body_bytes_ = 0;
};

struct RequestHead {
  std::string method;  // as sent, e.g. "GET"
  std::string target;  // "/v1/completions?x=1"
  int version_minor = 1;
  Headers headers;
  const std::string* header(std::string_view name) const { return find_header(headers, name); }
};

class RequestParser {
 public:
  RequestParser(size_t max_header_bytes, size_t max_body_bytes)
      : head_(max_header_bytes), max_body_bytes_(max_body_bytes) {}
  void reset();
  // Feeds bytes; the body is collected into body(). Returns bytes consumed; stops at the end of
  // the request so pipelined bytes stay with the caller.
  size_t feed(std::string_view data);
  bool started() const { return started_; }
  bool head_done() const { return state_ != State::head; }
  bool done() const { return state_ == State::done; }
  bool failed() const { return state_ == State::error; }
  const ParseError& error() const { return err_; }
  // 400, 413, 431 or 501 for a failed parse.
  int error_status() const { return error_status_; }
  RequestHead& head() { return req_; }
  std::string& body() { return body_; }
  bool keep_alive() const { return keep_alive_; }

 private:
  enum class State { head, body, done, error };
  struct Collect : BodySink {
    std::string* out = nullptr;
    void on_body(std::string_view b) override { out->append(b); }
  };
  bool on_head_complete();
  void fail(int status, Failure kind, std::string what);
  HeadReader head_;
  BodyDecoder body_dec_;
  RequestHead req_;
  std::string body_;
  ParseError err_;
  State state_ = State::head;
  size_t max_body_bytes_;
  int error_status_ = 0;
  bool keep_alive_ = true;
  bool started_ = false;
};

}  // namespace llmtriage::net
