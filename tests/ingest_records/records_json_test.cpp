// json::parse_number must agree with std::from_chars bit for bit (its fast path is Clinger's
// exact m / 10^k; everything else is from_chars itself), and so must the readers built on it.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "ingest/records_json.h"

using namespace llmtriage::ingest;

namespace {
// from_chars' verdict: the whole token or nothing.
bool reference(const std::string& s, double& d) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}
void expect_same(const std::string& s) {
  double want = 0, got = 0;
  bool ok_want = reference(s, want);
  bool ok_got = json::parse_number(s, got);
  ASSERT_EQ(ok_got, ok_want) << s;
  if (ok_want) {
    EXPECT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(want)) << s;
  }
}
}  // namespace

TEST(RecordsJsonNumber, EdgeTokens) {
  for (const char* s : {"0", "-0", "0.0", "-0.0", "1", "1.", ".5", "-.5", "-", "", "01", "1.5",
                        "0.1", "0.2", "0.30000000000000004", "9007199254740992", "9007199254740993",
                        "0.9007199254740992", "0.9007199254740993", "1234567890123456789",
                        "12345678901234567890", "1e22", "1e23", "1.5e-3", "1E5", "1e", "1e+",
                        "0.0000000000000000000001", "0.00000000000000000000001", "1-2", "1..2",
                        "1.2.3", "--1", "+1", "inf", "nan", "1e400", "4.9e-324", "2e-324",
                        "179769313486231570000000000000000000000000000000000000000000000000",
                        "9007199254740995", "1152921504606846977", "1152921504606847104",
                        "4503599627370496.5", "4503599627370497.5", "9999999999999999999",
                        "0.9999999999999999999", "1.000000000000000000", "123456789.0123456789"}) {
    expect_same(s);
  }
}

TEST(RecordsJsonNumber, RandomDecimalStringsMatchFromChars) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> len(1, 24), digit(0, 9), coin(0, 3);
  for (int i = 0; i < 200000; ++i) {
    std::string s;
    if (coin(rng) == 0) s += '-';
    int a = len(rng), b = coin(rng) == 0 ? 0 : len(rng);
    for (int k = 0; k < a; ++k) s += static_cast<char>('0' + digit(rng));
    if (b > 0) {
      s += '.';
      for (int k = 0; k < b; ++k) s += static_cast<char>('0' + digit(rng));
    }
    expect_same(s);
  }
}

TEST(RecordsJsonNumber, ShortestFormsOfRandomDoublesRoundTrip) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 200000; ++i) {
    double x = u(rng) * std::pow(10.0, static_cast<int>(u(rng) * 40) - 20);
    std::string s = fmt::format("{}", x);
    expect_same(s);
    double back = 0;
    ASSERT_TRUE(json::parse_number(s, back));
    EXPECT_EQ(back, x) << s;
  }
}

TEST(RecordsJsonNumber, ToNumberAndArraysUseIt) {
  json::Value v{json::Type::number, "0.1", false, false};
  EXPECT_EQ(*json::to_number(v), 0.1);
  json::Value s{json::Type::string, " +2.5 ", false, false};
  bool as_string = false;
  EXPECT_EQ(*json::to_number(s, &as_string), 2.5);
  EXPECT_TRUE(as_string);
  EXPECT_FALSE(json::to_number({json::Type::number, "1e400", false, false}));
  EXPECT_FALSE(json::to_number({json::Type::number, "1.2.3", false, false}));
  auto a = json::to_number_array({json::Type::array, "[0.1, 2e-3,-7]", false, false});
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, (std::vector<double>{0.1, 2e-3, -7}));
}

TEST(RecordsJsonNumber, NearHalfwayDecimalsMatchFromChars) {
  // Rounding twice (to 64 bits, then to 53) can go wrong only for a decimal that is not itself
  // a midpoint between two doubles but within half a 64-bit unit of one. The 19-digit decimal
  // nearest a midpoint is that close about one time in twenty: take the midpoints of random
  // doubles in [1024, 2048) (4 integer digits + 15 decimals = 19 digits) and their neighbours.
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(1024.0, 2048.0);
  int checked = 0;
  for (int i = 0; i < 100000; ++i) {
    double d = u(rng);
    long double mid = (static_cast<long double>(d) + static_cast<long double>(std::nextafter(d, 4096.0))) / 2;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15Lf", mid);
    std::string x = buf;
    expect_same(x);
    char last = x.back();
    if (last > '0') { x.back() = static_cast<char>(last - 1); expect_same(x); }
    if (last < '9') { x.back() = static_cast<char>(last + 1); expect_same(x); }
    checked += 3;
  }
  EXPECT_GT(checked, 250000);
}
