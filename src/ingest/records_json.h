#pragma once
// A pull scanner over the members of one JSON object, for the hot path of JSONL record
// reading: views into the line, no allocation, unescaping only when a backslash is present.
// Nested objects and arrays come back as raw views (scan them again, or hand them to
// nlohmann-json when they are rare).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmtriage::ingest::json {

enum class Type { string, number, boolean, null, array, object };

struct Value {
  Type type = Type::null;
  std::string_view raw;   // string: without quotes (still escaped when `escaped`); else the token
  bool escaped = false;
  bool boolean = false;
};

class ObjectScanner {
 public:
  // `text` must start (after spaces) with '{'.
  explicit ObjectScanner(std::string_view text);
  // Next member; false at the end of the object or on an error (see error()).
  bool next(std::string_view& key, Value& value);
  // "" when fine; else what went wrong ("expected ':' after a key at byte 12").
  const std::string& error() const { return error_; }
  // Bytes after the closing brace (spaces only for a well-formed line).
  std::string_view rest() const { return s_.substr(pos_); }

 private:
  bool fail(const char* what);
  bool skip_value(Value& v);
  void ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r' || s_[pos_] == '\n')) ++pos_;
  }
  std::string_view s_;
  size_t pos_ = 0;
  bool first_ = true;
  bool done_ = false;
  std::string error_;
};

// A string value's text, unescaped when needed (\uXXXX to UTF-8; lone surrogates become U+FFFD).
std::string unescape(const Value& v);
// A JSON number token ("-12.5", "1e-3") as std::from_chars reads it, the whole token or false.
// Plain decimals of up to 19 digits whose mantissa fits 2^53 and with at most 22 fraction digits
// are m / 10^k: both exact doubles, so one IEEE division is correctly rounded (Clinger's fast
// path) and the result is bit-identical to from_chars; up to 19 digits on x86-64 an 80-bit
// division with a halfway check (records_json.cpp); anything else goes to from_chars.
// Infinity and NaN spellings are accepted as from_chars accepts them: callers check finiteness.
bool parse_number(std::string_view s, double& out);
// A number from a number value, or from a string value that holds one (`as_string` set then).
std::optional<double> to_number(const Value& v, bool* as_string = nullptr);
// A flat array of numbers ("[0.1, 0.2]"); nullopt when any element is not a number.
std::optional<std::vector<double>> to_number_array(const Value& v);

}  // namespace llmtriage::ingest::json
