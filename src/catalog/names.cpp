#include "catalog/names.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace llmtriage::catalog {

std::string normalize_gpu_name(const std::string& name) {
  std::string s = name;
  if (auto p = s.find('('); p != std::string::npos && p > 0) s = s.substr(0, p);
  std::string words;
  for (char c : s) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    words += (l == '_' || l == '-' || l == '/') ? ' ' : l;
  }
  std::istringstream in(words);
  std::string w, out;
  while (in >> w) {
    if (w == "nvidia" || w == "amd" || w == "geforce" || w == "tesla" || w == "instinct") continue;
    out += (out.empty() ? "" : "-") + w;
  }
  return out;
}

std::string normalize_model_id(const std::string& id) {
  std::string out;
  for (char c : id) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (l == '_' || l == ' ') ? '-' : l;
  }
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

bool same_model(const std::string& a, const std::string& b) {
  const std::string na = normalize_model_id(a), nb = normalize_model_id(b);
  if (na == nb) return true;
  auto tail = [](const std::string& n) {
    const auto slash = n.rfind('/');
    return slash == std::string::npos ? n : n.substr(slash + 1);
  };
  return tail(na) == tail(nb);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> closest(const std::string& query, const std::vector<std::string>& candidates,
                                 size_t n) {
  // Relative distance, so that short names ("l4") do not win just by being short.
  std::vector<std::pair<double, std::string>> scored;
  for (const auto& c : candidates) {
    double d = static_cast<double>(edit_distance(query, c)) / static_cast<double>(std::max<size_t>(1, std::max(query.size(), c.size())));
    // A candidate that contains the query ("h100" in "h100-sxm") is a near miss, not a stranger.
    if (!query.empty() && (c.find(query) != std::string::npos || query.find(c) != std::string::npos)) d /= 4;
    scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : scored) {
    if (out.size() >= n) break;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

}  // namespace llmtriage::catalog
