#pragma once
// LineReader: a pull reader over plain or gzip-compressed text, one line at a time, with line
// numbers. Returned views are valid until the next call (Prometheus textparse style). Lines
// longer than the cap are not stored: they come back flagged `too_long` with the first
// `max_line_bytes` bytes, so a 10 MB line costs no more memory than the cap.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace llmtriage::ingest {

struct Line {
  std::string_view text;      // without the trailing '\n' (and '\r')
  int64_t number = 0;         // 1-based
  bool too_long = false;      // longer than max_line_bytes: `text` is its head only
  bool last_unterminated = false;  // the final line had no '\n' (a truncated write, often)
};

class LineReader {
 public:
  // Opens a file; gzip is detected by its magic bytes (1f 8b), not the name. "-" reads stdin.
  static core::Result<std::unique_ptr<LineReader>> open(const std::string& path,
                                                        size_t max_line_bytes = 1 << 20);
  // Reads from memory (no copy: `text` must outlive the reader).
  static std::unique_ptr<LineReader> from_string(std::string_view text,
                                                 size_t max_line_bytes = 1 << 20);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Next line, or false at the end (or on a read error: see error()).
  bool next(Line& line);
  // A read or decompression error met before the end ("corrupt gzip stream"), if any.
  const std::optional<core::Error>& error() const { return error_; }
  bool gzip() const { return gz_ != nullptr; }
  uint64_t bytes_read() const { return bytes_read_; }
  // Size of a plain file in bytes (0 for gzip, stdin or memory): lets callers reserve.
  uint64_t size_hint() const { return size_hint_; }

 private:
  LineReader() = default;
  bool fill();  // appends more input to buf_; false at EOF or error

  std::string source_;
  size_t max_line_ = 1 << 20;
  int fd_ = -1;
  void* gz_ = nullptr;        // gzFile
  std::string_view mem_;      // from_string input
  bool mem_mode_ = false;
  // Not zero-filled, and each read fills at most one chunk: the max-line reserve behind it is
  // only faulted in when a line that long arrives (16 MiB of page faults per file otherwise).
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0;
  size_t begin_ = 0, end_ = 0;  // unread bytes are buf_[begin_, end_)
  bool eof_ = false;
  int64_t number_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t size_hint_ = 0;
  std::string long_head_;     // head of an over-long line
  std::optional<core::Error> error_;
};

}  // namespace llmtriage::ingest
