#pragma once
// Input text quoted back to a person (error excerpts, unknown lines, log lines in a report):
// control bytes and bytes that are not valid UTF-8 become visible escapes, so an excerpt of a
// binary or hostile file cannot move the cursor, switch colours or garble the terminal. Every
// place that echoes input goes through printable(); valid UTF-8 ("→", "é") passes unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace llmtriage::core {

// `s` with \n \r \t as "\n" "\r" "\t", other C0 controls, DEL, C1 controls and every byte
// outside well-formed UTF-8 as "\xNN"; a backslash stays as it is (C:\models reads as written).
// With max_bytes > 0 the input is cut at a character boundary after that many input bytes and
// "..." marks the cut.
std::string printable(std::string_view s, size_t max_bytes = 0);

// The share of bytes in `head` that are not text: NUL, C0 controls other than tab, newline,
// carriage return, form feed and ESC (ANSI colours in logs), and bytes of invalid UTF-8.
double non_text_share(std::string_view head);

// A head of a file that is not text: any NUL byte, or more than 10% non-text bytes (a text file
// with a stray bad byte still reads; /dev/urandom, a gzip member or an ELF binary does not).
bool looks_like_binary(std::string_view head);

// The same judgement over a stream's first lines, for readers that cannot rewind (gzip, stdin):
// add() each line as it comes; binary() is decided after 4 KiB (or at judge(), at the end of a
// smaller input). A stray NUL or bad byte in a text file (a torn write) does not make it binary:
// more than 10% non-text bytes, or NULs over 1% of the head (and at least 16), do.
class BinaryHead {
 public:
  static constexpr uint64_t kBytes = 4096;
  void add(std::string_view line);
  void judge();
  bool binary() const { return binary_; }
  // "binary data (55% of the first 4096 bytes are not text)"
  std::string describe() const;

 private:
  uint64_t total_ = 0, nul_ = 0;
  double non_text_ = 0;
  bool judged_ = false, binary_ = false;
};

}  // namespace llmtriage::core
