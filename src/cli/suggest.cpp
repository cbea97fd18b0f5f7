#include "cli/suggest.h"

#include <algorithm>

namespace llmtriage::cli {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

}  // namespace

std::optional<std::string> closest_name(const std::string& typed_in, const std::vector<std::string>& known) {
  const std::string typed = lower(typed_in);
  if (typed.empty()) return std::nullopt;
  std::optional<std::string> best;
  size_t best_d = std::string::npos;
  for (const auto& k : known) {
    const size_t d = edit_distance(typed, lower(k));
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  // Strip leading dashes for the length rule: "--modle" is 5 letters, not 7.
  const size_t letters = typed.size() - std::min(typed.find_first_not_of('-'), typed.size());
  const size_t limit = std::clamp<size_t>(letters / 3, 1, 3);
  if (best && best_d <= limit && best_d > 0) return best;
  std::optional<std::string> prefix;
  int n = 0;
  for (const auto& k : known)
    if (lower(k).rfind(typed, 0) == 0 && ++n == 1) prefix = k;
  if (n == 1 && letters >= 2) return prefix;
  return std::nullopt;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& known) {
  auto c = closest_name(typed, known);
  return c ? " (did you mean '" + *c + "'?)" : "";
}

}  // namespace llmtriage::cli
