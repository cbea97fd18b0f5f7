#pragma once
// Internal to the name guessers (model_name_guess.cpp, gpu_name_guess.cpp): the small text and
// number helpers both read names with. Not part of the catalog API; name_guess.h is.
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace llmtriage::catalog::name_guess_detail {


inline constexpr size_t kMaxName = 512;       // longer input is cut (and noted)
inline constexpr double kMinParamsB = 0.01;   // sizes outside this range are not sizes
inline constexpr double kMaxParamsB = 5000;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Torch-visible / marketing ratio used when a card's capacity is not measured (src/catalog/gpu.h).
inline constexpr double kTorchVisibleRatio = 0.985;

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
inline char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

inline std::string to_lower(std::string s) {
  for (auto& c : s) c = lower(c);
  return s;
}

inline std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return s.substr(b, e - b);
}

inline bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A short decimal ("70", "2.7", "79.19"); absent for anything else or absurdly long digit runs.
inline std::optional<double> parse_number(const std::string& t) {
  if (t.empty() || t.size() > 12 || !is_digit(t[0])) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// "70", "46.7", "0.985" — numbers as the notes print them.
inline std::string num(double v) {
  std::string s = fmt::format("{:.3f}", v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace llmtriage::catalog::name_guess_detail
