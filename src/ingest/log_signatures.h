#pragma once
// Log signatures: the lines engines, proxies and clients print, as a data table
// (data/diagnose/signatures.jsonl: id, pattern, cause, weight, engine, meaning, the verbatim
// example and its source). A line that matches a signature becomes an Event labelled with the
// signature's id and meaning (engine_log.cpp), whatever else the line is; the diagnosis reads the
// cause and weight from the same table (docs/rules.md, "Signatures").
//
// Pattern grammar, matched case-insensitively with runs of blanks collapsed to one space:
//   literal text   must appear; pieces separated by '*' may have any text between them
//   {name}         a number (sign, digits, '.', exponent) right there, after optional blanks;
//                  it becomes Event::fields[name]
// A pattern matches anywhere in the line (implicit '*' at both ends).
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace llmtriage::ingest {

struct Signature {
  std::string id;       // stable, snake_case
  std::string pattern;  // the grammar above
  std::string cause;    // diagnose's cause id ("" = a fact only, no cause)
  double weight = 0;    // evidence weight for `cause` (natural-log likelihood ratio)
  std::string engine;   // who prints it ("vllm", "ollama", "nginx", "" = several)
  std::string meaning;  // one line, for the report
  std::string example;  // a verbatim line
  std::string source;   // engine source file and/or a public thread

  // Compiled form: pieces between '*', each a run of literals and captures.
  struct Atom {
    std::string literal;  // lower-case, blanks collapsed; empty for a capture
    std::string capture;  // field name when this atom is a number
  };
  std::vector<std::vector<Atom>> pieces;
};

struct SignatureHit {
  const Signature* sig = nullptr;
  std::map<std::string, double> fields;
};

// Parses a table (one JSON object per line; '#' lines and blank lines skipped). Errors name the
// file's line and the field.
core::Result<std::vector<Signature>> parse_signatures(std::string_view text, const std::string& where);
// The bundled table (<data_dir>/diagnose/signatures.jsonl), loaded once; empty when it cannot be
// read, and then signature_table_problem() says why (file:line and field for a bad row).
const std::vector<Signature>& signatures();
const std::string& signature_table_problem();
// nullptr when no signature has that id.
const Signature* find_signature(const std::string& id);

// Lower-cases and collapses blanks: the form patterns are matched against.
std::string fold_line(std::string_view line);
// Every signature matching the folded line, in table order (tries every row: for tests and
// short texts).
std::vector<SignatureHit> match_signatures(const std::string& folded, const std::vector<Signature>& table);

// A prefilter over a table for the hot path (every line of a large log). Each row's key is the
// text of its heaviest literal from its longest blank-free word on; one Aho-Corasick automaton
// over the key words finds, in a single pass of one table step per byte, where any of them occurs
// (case-insensitive); a line is folded and fully matched only against the rows whose whole key it
// holds there. Rows whose words are all shorter than three bytes are always tried (the bundled
// table has none). Same result as match_signatures(fold_line(line), table).
class SignatureIndex {
 public:
  explicit SignatureIndex(const std::vector<Signature>& table);
  std::vector<SignatureHit> match(std::string_view line) const;
  size_t always_tried() const { return always_.size(); }

 private:
  const std::vector<Signature>* table_;
  std::array<uint8_t, 256> class_{};            // byte -> class (0: in no key word)
  size_t classes_ = 0;
  static constexpr uint16_t kEndsHere = 0x8000;  // flag on a move into a state where a key word ends
  static constexpr uint16_t kStateMask = 0x7fff;
  std::vector<uint16_t> delta_;                 // state x class -> state | kEndsHere (complete automaton)
  std::vector<std::vector<uint32_t>> ends_;     // state -> rows whose key word ends there
  std::vector<std::string> keys_;               // each row's key ("" when none)
  std::vector<uint32_t> word_len_;              // length of its key word
  std::vector<uint32_t> always_;                // rows with no usable key
};
// The index of the bundled table (built once, thread-safe).
const SignatureIndex& bundled_signature_index();
// One signature against a raw line (for tests).
std::optional<SignatureHit> match_signature(const Signature& sig, std::string_view line);

}  // namespace llmtriage::ingest
