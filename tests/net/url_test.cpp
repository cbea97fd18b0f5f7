#include "net/url.h"

#include <gtest/gtest.h>

#include "net/failure.h"

using namespace llmtriage::net;

TEST(Url, ParsesTheForms) {
  auto a = parse_url("http://127.0.0.1:8000/metrics");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->tls);
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 8000);
  EXPECT_EQ(a->target, "/metrics");
  auto b = parse_url("https://api.example.com");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->port, 443);
  EXPECT_EQ(b->target, "/");
  EXPECT_EQ(b->host_header(), "api.example.com");
  auto c = parse_url("http://[::1]:9000?x=1#frag");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->host, "::1");
  EXPECT_EQ(c->target, "/?x=1");
  EXPECT_EQ(c->host_header(), "[::1]:9000");
  auto d = parse_url("http://user:pw@host:81/p");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->redacted(), "http://host:81/p");
}

TEST(Url, RejectsWithTypedErrors) {
  for (const char* bad : {"ftp://x/", "127.0.0.1:8000", "http://:80/", "http://h:99999/", "http://h:x/",
                          "http://[::1/", "http://h/a b"}) {
    auto r = parse_url(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(failure_of(r.error()), Failure::bad_url) << bad;
  }
}

TEST(Url, RedactionDropsUserInfo) {
  EXPECT_EQ(redact_url("http://admin:hunter2@host/x"), "http://host/x");
  auto r = parse_url("gopher://admin:hunter2@host/x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message().find("hunter2"), std::string::npos);
}

TEST(Failure, CategoryRoundTripsThroughCoreError) {
  for (int i = 1; i <= static_cast<int>(Failure::cancelled); ++i) {
    auto f = static_cast<Failure>(i);
    EXPECT_EQ(failure_of(make_failure(f, "w", "e", "found text")), f) << to_string(f);
  }
  EXPECT_EQ(failure_of(llmtriage::core::make_error(llmtriage::core::ErrorKind::input, "w", "e", "reset: x")),
            Failure::none);
}
