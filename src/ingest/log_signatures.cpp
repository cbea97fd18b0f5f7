#include "ingest/log_signatures.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/files.h"

namespace llmtriage::ingest {
namespace {

bool sig_blank(char c) { return c == ' ' || c == '\t'; }

// Splits a folded pattern into '*'-separated pieces of literals and {captures}.
std::vector<std::vector<Signature::Atom>> sig_compile(const std::string& folded) {
  std::vector<std::vector<Signature::Atom>> pieces(1);
  std::string lit;
  auto flush = [&] {
    if (!lit.empty()) pieces.back().push_back({lit, ""});
    lit.clear();
  };
  for (size_t i = 0; i < folded.size(); ++i) {
    char c = folded[i];
    if (c == '*') {
      flush();
      pieces.emplace_back();
    } else if (c == '{') {
      size_t end = folded.find('}', i);
      if (end == std::string::npos) {
        lit += c;
        continue;
      }
      flush();
      pieces.back().push_back({"", folded.substr(i + 1, end - i - 1)});
      i = end;
    } else {
      lit += c;
    }
  }
  flush();
  std::vector<std::vector<Signature::Atom>> out;
  for (auto& p : pieces)
    if (!p.empty()) out.push_back(std::move(p));
  return out;
}

// A number at `pos` (after optional blanks); advances pos past it.
std::optional<double> sig_number_at(const std::string& s, size_t& pos) {
  size_t p = pos;
  while (p < s.size() && sig_blank(s[p])) ++p;
  size_t start = p;
  if (p < s.size() && (s[p] == '-' || s[p] == '+')) ++p;
  bool digits = false;
  std::string text;  // the number without thousands separators ("131,072" -> "131072")
  auto is_digit = [&](size_t i) { return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); };
  while (p < s.size() && (is_digit(p) || s[p] == '.' || (s[p] == ',' && digits && is_digit(p + 1) && is_digit(p + 2) &&
                                                          is_digit(p + 3) && !is_digit(p + 4)))) {
    digits |= s[p] != '.';
    if (s[p] != ',') text += s[p];
    ++p;
  }
  if (!digits) return std::nullopt;
  if (text.size() != p - start - (s[start] == '-' || s[start] == '+' ? 1 : 0)) {
    // Thousands separators: read the digits alone (no exponent follows such a number).
    double v = 0;
    auto [e2, ec2] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec2 != std::errc()) return std::nullopt;
    pos = p;
    return s[start] == '-' ? -v : v;
  }
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E') && p + 1 < s.size() &&
      (std::isdigit(static_cast<unsigned char>(s[p + 1])) || s[p + 1] == '-' || s[p + 1] == '+')) {
    size_t q = p + 1;
    if (s[q] == '-' || s[q] == '+') ++q;
    if (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) {
      p = q;
      while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
    }
  }
  double v = 0;
  const char* b = s.data() + start;
  if (*b == '+') ++b;
  auto [end, ec] = std::from_chars(b, s.data() + p, v);
  if (ec != std::errc() || end != s.data() + p) {
    // "1.2.3" and the like: take the leading number only.
    if (ec != std::errc() || end == b) return std::nullopt;
    p = static_cast<size_t>(end - s.data());
  }
  pos = p;
  return v;
}

// Atoms of one piece, anchored at `pos`.
bool sig_piece_at(const std::vector<Signature::Atom>& atoms, const std::string& s, size_t pos, size_t& end,
                    std::map<std::string, double>& fields) {
  for (const auto& a : atoms) {
    if (!a.capture.empty()) {
      auto v = sig_number_at(s, pos);
      if (!v) return false;
      fields[a.capture] = *v;
    } else {
      // A literal after a capture may follow the number's blanks.
      if (s.compare(pos, a.literal.size(), a.literal) != 0) {
        size_t p = pos;
        while (p < s.size() && sig_blank(s[p])) ++p;
        if (a.literal.front() == ' ' || s.compare(p, a.literal.size(), a.literal) != 0) return false;
        pos = p;
      }
      pos += a.literal.size();
    }
  }
  end = pos;
  return true;
}

bool sig_match(const Signature& sig, const std::string& s, std::map<std::string, double>& fields) {
  size_t pos = 0;
  for (const auto& piece : sig.pieces) {
    bool found = false;
    if (!piece.front().literal.empty()) {
      const std::string& first = piece.front().literal;
      for (size_t at = s.find(first, pos); at != std::string::npos; at = s.find(first, at + 1)) {
        std::map<std::string, double> f;
        size_t end = 0;
        if (sig_piece_at(piece, s, at, end, f)) {
          for (auto& [k, v] : f) fields[k] = v;
          pos = end;
          found = true;
          break;
        }
      }
    } else {
      // A piece that starts with a number: try each position where a number starts.
      for (size_t at = pos; at < s.size(); ++at) {
        if (!std::isdigit(static_cast<unsigned char>(s[at])) || (at > 0 && std::isdigit(static_cast<unsigned char>(s[at - 1]))))
          continue;
        std::map<std::string, double> f;
        size_t end = 0;
        if (sig_piece_at(piece, s, at, end, f)) {
          for (auto& [k, v] : f) fields[k] = v;
          pos = end;
          found = true;
          break;
        }
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

std::string fold_line(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  bool prev_blank = false;
  for (char c : line) {
    if (sig_blank(c) || c == '\r' || c == '\n') {
      if (!prev_blank) out.push_back(' ');
      prev_blank = true;
      continue;
    }
    prev_blank = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

core::Result<std::vector<Signature>> parse_signatures(std::string_view text, const std::string& where) {
  std::vector<Signature> out;
  size_t line_no = 0, start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    size_t a = line.find_first_not_of(" \t\r");
    if (a == std::string_view::npos || line[a] == '#') continue;
    const std::string at = where + ":" + std::to_string(line_no);
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return core::make_error(core::ErrorKind::input, at, "one JSON object per line", std::string(line.substr(0, 60)));
    Signature s;
    auto str = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
    s.id = str("id");
    s.pattern = str("pattern");
    s.cause = str("cause");
    s.engine = str("engine");
    s.meaning = str("meaning");
    s.example = str("example");
    s.source = str("source");
    if (j.contains("weight") && j["weight"].is_number()) s.weight = j["weight"].get<double>();
    if (s.id.empty()) return core::make_error(core::ErrorKind::input, at + " id", "a signature id", "none");
    if (s.pattern.empty()) return core::make_error(core::ErrorKind::input, at + " pattern", "a pattern", "none");
    if (s.source.empty()) return core::make_error(core::ErrorKind::input, at + " source", "the line's source", "none");
    s.pieces = sig_compile(fold_line(s.pattern));
    if (s.pieces.empty()) return core::make_error(core::ErrorKind::input, at + " pattern", "some literal text", s.pattern);
    out.push_back(std::move(s));
  }
  return out;
}

const std::vector<Signature>& signatures() {
  static std::once_flag once;
  static std::vector<Signature> table;
  std::call_once(once, [] {
    const std::string path = core::data_dir() + "/diagnose/signatures.jsonl";
    auto text = core::read_file(path);
    if (!text) return;
    auto t = parse_signatures(*text, path);
    if (t) table = std::move(*t);
  });
  return table;
}

const Signature* find_signature(const std::string& id) {
  for (const auto& s : signatures())
    if (s.id == id) return &s;
  return nullptr;
}

std::vector<SignatureHit> match_signatures(const std::string& folded, const std::vector<Signature>& table) {
  std::vector<SignatureHit> out;
  for (const auto& sig : table) {
    // Cheap rejection on the first literal before the full match.
    const auto& first = sig.pieces.front().front();
    if (!first.literal.empty() && folded.find(first.literal) == std::string::npos) continue;
    SignatureHit h;
    if (sig_match(sig, folded, h.fields)) {
      h.sig = &sig;
      out.push_back(std::move(h));
    }
  }
  return out;
}

std::optional<SignatureHit> match_signature(const Signature& sig, std::string_view line) {
  SignatureHit h;
  if (!sig_match(sig, fold_line(line), h.fields)) return std::nullopt;
  h.sig = &sig;
  return h;
}

}  // namespace llmtriage::ingest
