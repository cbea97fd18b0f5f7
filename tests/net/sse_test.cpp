#include "net/sse.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace llmtriage::net;

namespace {

struct Got {
  std::string type, data, id;
  bool operator==(const Got& o) const { return type == o.type && data == o.data && id == o.id; }
};
std::ostream& operator<<(std::ostream& os, const Got& g) { return os << "{" << g.type << "|" << g.data << "|" << g.id << "}"; }

std::vector<Got> parse_split(const std::string& stream, size_t piece, bool* truncated = nullptr) {
  SseParser p;
  std::vector<Got> out;
  auto cb = [&](const SseEvent& e) { out.push_back({std::string(e.type), std::string(e.data), std::string(e.id)}); };
  for (size_t i = 0; i < stream.size(); i += piece) EXPECT_TRUE(p.feed(stream.substr(i, piece), cb));
  if (truncated) *truncated = p.truncated();
  return out;
}

struct Case {
  const char* name;
  std::string stream;
  std::vector<Got> events;
  bool truncated;
};

}  // namespace

TEST(Sse, TableOfStreamsUnderEverySplit) {
  const std::vector<Case> cases = {
      {"one event", "data: hello\n\n", {{"", "hello", ""}}, false},
      {"no space after colon", "data:hello\n\n", {{"", "hello", ""}}, false},
      {"only one leading space is stripped", "data:  two\n\n", {{"", " two", ""}}, false},
      {"multi-line data joined by LF", "data: a\ndata: b\n\n", {{"", "a\nb", ""}}, false},
      {"CRLF lines", "data: a\r\n\r\ndata: b\r\n\r\n", {{"", "a", ""}, {"", "b", ""}}, false},
      {"CR-only lines", "data: a\r\rdata: b\r\r", {{"", "a", ""}, {"", "b", ""}}, false},
      {"comments are not events", ": keep-alive\n\ndata: x\n\n", {{"", "x", ""}}, false},
      {"event type and id", "event: delta\nid: 7\ndata: {}\n\n", {{"delta", "{}", "7"}}, false},
      {"retry and unknown fields ignored", "retry: 10\nfoo: bar\ndata: z\n\n", {{"", "z", ""}}, false},
      {"field without colon is empty data", "data\n\n", {{"", "", ""}}, false},
      {"blank lines alone dispatch nothing", "\n\n\n", {}, false},
      {"OpenAI done marker", "data: {\"a\":1}\n\ndata: [DONE]\n\n", {{"", "{\"a\":1}", ""}, {"", "[DONE]", ""}}, false},
      {"UTF-8 BOM at start", "\xEF\xBB\xBF" "data: bom\n\n", {{"", "bom", ""}}, false},
      {"truncated: data without blank line", "data: a\n\ndata: b\n", {{"", "a", ""}}, true},
      {"truncated: partial line", "data: a\n\ndata: {\"x", {{"", "a", ""}}, true},
      {"truncated: comment started", "data: a\n\n: ping", {{"", "a", ""}}, true},
  };
  for (const auto& c : cases) {
    for (size_t piece : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, c.stream.size() ? c.stream.size() : 1}) {
      bool truncated = false;
      auto got = parse_split(c.stream, piece, &truncated);
      EXPECT_EQ(got, c.events) << c.name << " split " << piece;
      EXPECT_EQ(truncated, c.truncated) << c.name << " split " << piece;
    }
  }
}

TEST(Sse, ManyEventsInOneReadAndCounters) {
  std::string s;
  for (int i = 0; i < 10000; ++i) s += "data: {\"i\":" + std::to_string(i) + "}\n\n";
  SseParser p;
  int n = 0;
  bool in_order = true;
  ASSERT_TRUE(p.feed(s, [&](const SseEvent& e) {
    in_order = in_order && e.data == "{\"i\":" + std::to_string(n) + "}";
    ++n;
  }));
  EXPECT_EQ(n, 10000);
  EXPECT_TRUE(in_order);
  EXPECT_EQ(p.events(), 10000u);
  EXPECT_FALSE(p.truncated());
}

TEST(Sse, EventOverTheLimitIsAnError) {
  SseParser p(64);
  auto cb = [](const SseEvent&) {};
  EXPECT_FALSE(p.feed("data: " + std::string(100, 'x') + "\n", cb));
  EXPECT_NE(p.error().find("64 bytes"), std::string::npos);
  SseParser q(64);
  EXPECT_FALSE(q.feed("data: " + std::string(100, 'x'), cb));  // no newline yet: still bounded
}
