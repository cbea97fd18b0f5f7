#include "ingest/log_signatures.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/files.h"

namespace llmtriage::ingest {
namespace {

bool sig_blank(char c) { return c == ' ' || c == '\t'; }
char sig_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

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

// Where `piece` may start at or after `from`: its first literal's next occurrence or, for a piece
// that starts with a number, the next position where a number begins.
size_t sig_next_start(const std::vector<Signature::Atom>& piece, const std::string& s, size_t from) {
  if (!piece.front().literal.empty()) return s.find(piece.front().literal, from);
  auto digit = [&](size_t i) { return std::isdigit(static_cast<unsigned char>(s[i])) != 0; };
  for (size_t at = from; at < s.size(); ++at)
    if (digit(at) && !(at > 0 && digit(at - 1))) return at;
  return std::string::npos;
}

bool sig_match(const Signature& sig, const std::string& s, std::map<std::string, double>& fields) {
  size_t pos = 0;
  std::map<std::string, double> f;
  for (const auto& piece : sig.pieces) {
    bool found = false;
    for (size_t at = sig_next_start(piece, s, pos); at != std::string::npos; at = sig_next_start(piece, s, at + 1)) {
      f.clear();
      size_t end = 0;
      if (sig_piece_at(piece, s, at, end, f)) {
        for (auto& [k, v] : f) fields[k] = v;
        pos = end;
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

std::string fold_line(std::string_view line) {
  std::string out(line.size(), ' ');
  size_t n = 0;
  bool prev_blank = false;
  for (char c : line) {
    const bool b = sig_blank(c) || c == '\r' || c == '\n';
    if (b && prev_blank) continue;
    prev_blank = b;
    out[n++] = b ? ' ' : sig_lower(c);
  }
  out.resize(n);
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

namespace {

struct BundledTable {
  std::vector<Signature> rows;
  std::string problem;
};

const BundledTable& bundled() {
  static const BundledTable t = [] {
    BundledTable b;
    const std::string path = core::data_dir() + "/diagnose/signatures.jsonl";
    auto text = core::read_file(path);
    if (!text) {
      b.problem = text.error().message();
      return b;
    }
    auto rows = parse_signatures(*text, path);
    if (rows) b.rows = std::move(*rows);
    else b.problem = rows.error().message();
    return b;
  }();
  return t;
}

}  // namespace

const std::vector<Signature>& signatures() { return bundled().rows; }
const std::string& signature_table_problem() { return bundled().problem; }

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

namespace {

// The row's key: in its literal with the most non-blank bytes, the text from its longest
// blank-free word on (lower case, blanks collapsed). A line can match the row only where it holds
// that word followed by the rest of the key (blanks matching runs of blanks). Absent for a row
// whose words are all under three bytes.
std::optional<std::string> sig_key(const Signature& sig) {
  const std::string* lit = nullptr;
  size_t lit_weight = 0;
  for (const auto& piece : sig.pieces)
    for (const auto& a : piece) {
      size_t w = 0;
      for (char c : a.literal) w += !sig_blank(c);
      if (w > lit_weight) {
        lit_weight = w;
        lit = &a.literal;
      }
    }
  if (!lit) return std::nullopt;
  size_t word_at = 0, word_len = 0;
  for (size_t i = 0; i < lit->size();) {
    while (i < lit->size() && sig_blank((*lit)[i])) ++i;
    size_t j = i;
    while (j < lit->size() && !sig_blank((*lit)[j])) ++j;
    if (j - i > word_len) {
      word_at = i;
      word_len = j - i;
    }
    i = j;
  }
  if (word_len < 3) return std::nullopt;
  std::string rest = lit->substr(word_at);
  while (!rest.empty() && sig_blank(rest.back())) rest.pop_back();
  return rest;
}

// Case-insensitive: does `line` continue at `at` with the folded `text` (a blank in it matching
// one or more blanks)?
bool sig_text_at(std::string_view line, size_t at, const std::string& text) {
  size_t p = at;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] == ' ') {
      if (p >= line.size() || !(sig_blank(line[p]) || line[p] == '\r' || line[p] == '\n')) return false;
      while (p < line.size() && (sig_blank(line[p]) || line[p] == '\r' || line[p] == '\n')) ++p;
      continue;
    }
    if (p >= line.size() || sig_lower(line[p]) != text[k]) return false;
    ++p;
  }
  return true;
}

}  // namespace

SignatureIndex::SignatureIndex(const std::vector<Signature>& table) : table_(&table) {
  keys_.resize(table.size());
  word_len_.resize(table.size(), 0);
  // Byte classes: one per byte some key uses (upper case folded onto lower case); 0 for the rest.
  std::vector<std::string> words(table.size());
  for (uint32_t i = 0; i < table.size(); ++i) {
    if (auto k = sig_key(table[i])) {
      keys_[i] = *k;
      size_t end = 0;
      while (end < k->size() && !sig_blank((*k)[end])) ++end;
      words[i] = k->substr(0, end);
      word_len_[i] = static_cast<uint32_t>(end);
    } else {
      always_.push_back(i);
    }
  }
  class_.fill(0);
  for (const auto& w : words)
    for (char c : w) {
      auto u = static_cast<unsigned char>(c);
      if (!class_[u]) class_[u] = static_cast<uint8_t>(++classes_);
    }
  for (int c = 'A'; c <= 'Z'; ++c) class_[c] = class_[c - 'A' + 'a'];
  const size_t C = classes_ + 1u;
  // The trie of key words, then failure links turn it into a complete automaton (every state has
  // a move for every class), so the scan is one table step per byte.
  std::vector<uint32_t> delta(C, 0);
  std::vector<uint32_t> fail(1, 0);
  ends_.assign(1, {});
  for (uint32_t row = 0; row < words.size(); ++row) {
    if (words[row].empty()) continue;
    uint32_t st = 0;
    for (char ch : words[row]) {
      const uint8_t cl = class_[static_cast<unsigned char>(ch)];
      if (!delta[st * C + cl]) {
        delta[st * C + cl] = static_cast<uint32_t>(ends_.size());
        delta.resize(delta.size() + C, 0);
        ends_.emplace_back();
        fail.push_back(0);
      }
      st = delta[st * C + cl];
    }
    ends_[st].push_back(row);
  }
  std::vector<uint32_t> queue;
  for (size_t cl = 1; cl < C; ++cl)
    if (uint32_t n = delta[cl]) queue.push_back(n);
  for (size_t q = 0; q < queue.size(); ++q) {
    const uint32_t st = queue[q];
    // A state's matches include those of its failure state (a key ending inside a longer one).
    for (uint32_t r : ends_[fail[st]]) ends_[st].push_back(r);
    for (size_t cl = 1; cl < C; ++cl) {
      uint32_t& next = delta[st * C + cl];
      if (next) {
        fail[next] = delta[fail[st] * C + cl];
        queue.push_back(next);
      } else {
        next = delta[fail[st] * C + cl];
      }
    }
  }
  // Compact: 16-bit states, the high bit set on moves into a state where some key word ends, so
  // the scan reads one small entry per byte.
  if (ends_.size() > kStateMask) {
    // More key words than the compact form holds: every row becomes always-tried.
    ends_.clear();
    delta_.clear();
    classes_ = 0;
    always_.clear();
    for (uint32_t i = 0; i < table.size(); ++i) always_.push_back(i);
    delta_.assign(1, 0);
    ends_.assign(1, {});
    return;
  }
  delta_.resize(delta.size());
  for (size_t k = 0; k < delta.size(); ++k)
    delta_[k] = static_cast<uint16_t>(delta[k] | (ends_[delta[k]].empty() ? 0 : kEndsHere));
}

std::vector<SignatureHit> SignatureIndex::match(std::string_view line) const {
  std::vector<uint32_t> rows = always_;
  const size_t C = classes_ + 1u;
  const uint16_t* delta = delta_.data();
  uint32_t st = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const uint16_t next = delta[(st & kStateMask) * C + class_[static_cast<unsigned char>(line[i])]];
    st = next;
    if (!(next & kEndsHere)) [[likely]] continue;
    for (uint32_t row : ends_[next & kStateMask]) {
      // The key word ends at i; the line must go on with the rest of the row's key literal.
      const size_t wlen = word_len_[row];
      if (i + 1 >= wlen && sig_text_at(line, i + 1 - wlen, keys_[row])) rows.push_back(row);
    }
  }
  std::vector<SignatureHit> out;
  if (rows.empty()) return out;
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  const std::string folded = fold_line(line);
  for (uint32_t r : rows) {
    SignatureHit h;
    if (sig_match((*table_)[r], folded, h.fields)) {
      h.sig = &(*table_)[r];
      out.push_back(std::move(h));
    }
  }
  return out;
}

const SignatureIndex& bundled_signature_index() {
  static const SignatureIndex index(signatures());
  return index;
}

std::optional<SignatureHit> match_signature(const Signature& sig, std::string_view line) {
  SignatureHit h;
  if (!sig_match(sig, fold_line(line), h.fields)) return std::nullopt;
  h.sig = &sig;
  return h;
}

}  // namespace llmtriage::ingest
