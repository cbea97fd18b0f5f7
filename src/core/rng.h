#pragma once
// A small seeded PRNG and the distributions the simulator and the load generator draw from. std:: distributions are
// avoided on purpose: their output differs between standard libraries, and a scenario must give
// the same requests bit for bit everywhere (same seed -> same run).
#include <cmath>
#include <cstdint>

namespace llmtriage::core {

// xoshiro256** (Blackman & Vigna, https://prng.di.unimi.it/), seeded through splitmix64.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed) {
    uint64_t z = seed;
    for (auto& w : s_) w = splitmix64(z);
  }
  uint64_t next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1]: safe for log().
  double uniform_pos() { return 1.0 - uniform(); }
  // Integer uniform in [lo, hi] (inclusive); modulo bias is < 2^-40 for the ranges we use.
  int64_t uniform_int(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(next_u64() % span);
  }
  // Exponential with the given mean.
  double exponential(double mean) { return -std::log(uniform_pos()) * mean; }
  // Standard normal, Box-Muller (one value per call; the second is dropped for simplicity).
  double normal() {
    const double u1 = uniform_pos(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  // Gamma(shape k, scale theta), Marsaglia & Tsang (2000); k < 1 via the k+1 boost.
  double gamma(double k, double theta) {
    if (k < 1.0) return gamma(k + 1.0, theta) * std::pow(uniform_pos(), 1.0 / k);
    const double d = k - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
      double x, v;
      do {
        x = normal();
        v = 1.0 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const double u = uniform_pos();
      if (u < 1.0 - 0.0331 * x * x * x * x) return d * v * theta;
      if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v * theta;
    }
  }
  // Lognormal with the given mean and sigma of the underlying normal.
  double lognormal_mean(double mean, double sigma) {
    const double mu = std::log(mean) - 0.5 * sigma * sigma;
    return std::exp(mu + sigma * normal());
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

// splitmix64's finalizer: a bijective 64-bit mix (stand-in tokenizer, seeds, salts).
inline uint64_t splitmix64_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// 64-bit mix used for block hashes and consistent hashing (splitmix64 finalizer).
inline uint64_t mix64(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace llmtriage::core
