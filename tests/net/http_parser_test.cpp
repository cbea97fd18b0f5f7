#include "net/http_parser.h"

#include <gtest/gtest.h>

using namespace llmtriage::net;

namespace {

struct Collect : BodySink {
  std::string body;
  void on_body(std::string_view b) override { body.append(b); }
};

struct Parsed {
  bool done = false;
  Failure failure = Failure::none;
  std::string what;
  int status = 0;
  std::string body;
  bool keep_alive = false;
  size_t leftover = 0;
};

Parsed parse_response(const std::string& bytes, size_t piece, bool eof, size_t max_header = 1024) {
  ResponseParser p(max_header);
  p.reset();
  Collect c;
  Parsed r;
  size_t i = 0;
  while (i < bytes.size() && !p.done() && !p.failed()) {
    std::string_view chunk = std::string_view(bytes).substr(i, piece);
    size_t used = p.feed(chunk, c);
    i += used;
    if (used < chunk.size()) break;
  }
  r.leftover = bytes.size() - i;
  if (eof && !p.failed()) p.finish_eof();
  r.done = p.done();
  r.failure = p.failed() ? p.error().kind : Failure::none;
  r.what = p.error().what;
  r.status = p.head().status;
  r.body = c.body;
  r.keep_alive = p.keep_alive();
  return r;
}

}  // namespace

TEST(ResponseParser, WellFormedResponsesUnderEverySplit) {
  struct Case {
    const char* name;
    std::string bytes;
    int status;
    std::string body;
    bool keep_alive;
    bool needs_eof;
  };
  const std::vector<Case> cases = {
      {"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello", true, false},
      {"empty reason", "HTTP/1.1 204\r\n\r\n", 204, "", true, false},
      {"chunked with ext and trailer",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\nA\r\n0123456789\r\n0\r\nT: 1\r\n\r\n",
       200, "hello0123456789", true, false},
      {"bare LF lines", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", 200, "ok", true, false},
      {"close-delimited", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end", 200, "to the end", false, true},
      {"HTTP/1.0 without length", "HTTP/1.0 200 OK\r\n\r\nold", 200, "old", false, true},
      {"100 Continue skipped", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx", 201, "x", true, false},
      {"connection close on 1.1", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", 200, "x", false, false},
      {"repeated equal content-length", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", 200, "x", true, false},
  };
  for (const auto& c : cases) {
    for (size_t piece : {size_t{1}, size_t{3}, size_t{16}, c.bytes.size()}) {
      Parsed r = parse_response(c.bytes, piece, c.needs_eof);
      EXPECT_TRUE(r.done) << c.name << " split " << piece << ": " << r.what;
      EXPECT_EQ(r.status, c.status) << c.name;
      EXPECT_EQ(r.body, c.body) << c.name << " split " << piece;
      EXPECT_EQ(r.keep_alive, c.keep_alive) << c.name;
      EXPECT_EQ(r.leftover, 0u) << c.name;
    }
  }
}

TEST(ResponseParser, MalformedInputsAndTheirErrors) {
  struct Case {
    std::string bytes;
    Failure failure;
    std::string what_contains;
  };
  const std::vector<Case> cases = {
      {"HTTP/2 200 OK\r\n\r\n", Failure::malformed_http, "a status line"},
      {"HTTP/1.1 2x0 OK\r\n\r\n", Failure::malformed_http, "3-digit status"},
      {"HTTP/1.1 2000 OK\r\n\r\n", Failure::malformed_http, "3-digit status"},
      {"HTTP/1.1 200 OK\r\nBad Header\r\n\r\n", Failure::malformed_http, "'name: value'"},
      {"HTTP/1.1 200 OK\r\nSp ace: x\r\n\r\n", Failure::malformed_http, "'name: value'"},
      {"HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n", Failure::malformed_http, "folded"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n", Failure::malformed_http, "Content-Length"},
      {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", Failure::malformed_http, "Content-Length"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", Failure::malformed_http, "chunk size 'zz'"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", Failure::malformed_http, "chunk size ''"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", Failure::malformed_http, "overflow"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", Failure::malformed_http, "CRLF after chunk data"},
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string(2000, '1'), Failure::malformed_http, "chunk-size line"},
      {"HTTP/1.1 200 OK\r\nX: " + std::string(2000, 'a') + "\r\n\r\n", Failure::too_large, "header block over 1024"},
  };
  for (const auto& c : cases) {
    for (size_t piece : {size_t{1}, size_t{5}, c.bytes.size()}) {
      Parsed r = parse_response(c.bytes, piece, false);
      EXPECT_EQ(r.failure, c.failure) << c.bytes.substr(0, 60) << " split " << piece;
      EXPECT_NE(r.what.find(c.what_contains), std::string::npos) << r.what;
    }
  }
}

TEST(ResponseParser, TruncatedBodiesAreNotComplete) {
  EXPECT_FALSE(parse_response("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", 100, true).done);
  EXPECT_FALSE(parse_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", 100, true).done);
  EXPECT_FALSE(parse_response("HTTP/1.1 200 OK\r\nContent-Le", 100, true).done);
}

TEST(ResponseParser, HeadResponseHasNoBodyAndLeavesNextBytes) {
  ResponseParser p;
  p.reset(true);
  Collect c;
  std::string bytes = "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nNEXT";
  size_t used = p.feed(bytes, c);
  EXPECT_TRUE(p.done());
  EXPECT_EQ(bytes.substr(used), "NEXT");
}

TEST(RequestParser, RequestsAndPipelining) {
  RequestParser p(1024, 100);
  std::string two = "POST /v1/x?y=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.0\r\n\r\n";
  size_t used = p.feed(two);
  ASSERT_TRUE(p.done());
  EXPECT_EQ(p.head().method, "POST");
  EXPECT_EQ(p.head().target, "/v1/x?y=1");
  EXPECT_EQ(p.body(), "abc");
  EXPECT_TRUE(p.keep_alive());
  p.reset();
  p.feed(std::string_view(two).substr(used));
  ASSERT_TRUE(p.done());
  EXPECT_EQ(p.head().method, "GET");
  EXPECT_FALSE(p.keep_alive());  // HTTP/1.0 without keep-alive

  RequestParser q(1024, 100);
  q.feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n");
  ASSERT_TRUE(q.done());
  EXPECT_EQ(q.body(), "hi");
}

TEST(RequestParser, RejectionsCarryTheirStatus) {
  struct Case {
    std::string bytes;
    int status;
  };
  const std::vector<Case> cases = {
      {"GET /\r\n\r\n", 400},
      {"GET / HTTP/2.0\r\n\r\n", 400},
      {"GE T / HTTP/1.1\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n", 413},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
      {"GET / HTTP/1.1\r\nX: " + std::string(2000, 'a') + "\r\n\r\n", 431},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n80\r\n" + std::string(128, 'a') + "\r\n0\r\n\r\n", 413},
  };
  for (const auto& c : cases) {
    RequestParser p(1024, 100);
    p.feed(c.bytes);
    EXPECT_TRUE(p.failed()) << c.bytes.substr(0, 50);
    EXPECT_EQ(p.error_status(), c.status) << c.bytes.substr(0, 50) << ": " << p.error().what;
  }
}
