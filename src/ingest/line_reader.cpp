#include "ingest/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace llmtriage::ingest {

namespace {
constexpr size_t kChunk = 4 << 20;  // read size; large reads keep syscalls off the profile

// Strips the '\r' of CRLF files.
std::string_view chomp(std::string_view s) {
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}
}  // namespace

core::Result<std::unique_ptr<LineReader>> LineReader::open(const std::string& path,
                                                           size_t max_line_bytes) {
  std::unique_ptr<LineReader> r(new LineReader());
  r->source_ = path;
  r->max_line_ = max_line_bytes < 64 ? 64 : max_line_bytes;
  int fd = path == "-" ? dup(0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return core::make_error(errno == ENOENT ? core::ErrorKind::not_found : core::ErrorKind::input,
                            path, "a readable file", std::strerror(errno));
  }
  unsigned char magic[2] = {0, 0};
  ssize_t n = path == "-" ? 0 : ::pread(fd, magic, 2, 0);
  if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    gzFile gz = gzdopen(fd, "rb");
    if (gz == nullptr) {
      ::close(fd);
      return core::make_error(core::ErrorKind::input, path, "a gzip stream", "gzdopen failed");
    }
    gzbuffer(gz, 1 << 20);
    r->gz_ = gz;
  } else {
    r->fd_ = fd;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) r->size_hint_ = static_cast<uint64_t>(st.st_size);
  }
  r->cap_ = kChunk + r->max_line_ + 1;
  r->buf_ = std::make_unique_for_overwrite<char[]>(r->cap_);
  return r;
}

std::unique_ptr<LineReader> LineReader::from_string(std::string_view text, size_t max_line_bytes) {
  std::unique_ptr<LineReader> r(new LineReader());
  r->source_ = "<string>";
  r->max_line_ = max_line_bytes < 64 ? 64 : max_line_bytes;
  r->mem_ = text;
  r->mem_mode_ = true;
  r->bytes_read_ = text.size();
  return r;
}

LineReader::~LineReader() {
  if (gz_ != nullptr) gzclose(static_cast<gzFile>(gz_));
  if (fd_ >= 0) ::close(fd_);
}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {  // compact: keep the unread tail at the front
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  size_t room = std::min(cap_ - end_, kChunk);
  if (room == 0) return false;
  ssize_t n;
  if (gz_ != nullptr) {
    n = gzread(static_cast<gzFile>(gz_), buf_.get() + end_, static_cast<unsigned>(room));
    if (n < 0) {
      int errnum = 0;
      const char* msg = gzerror(static_cast<gzFile>(gz_), &errnum);
      error_ = core::make_error(core::ErrorKind::input, source_, "a complete gzip stream",
                                msg ? msg : "a decompression error",
                                "lines before the damage were read");
      eof_ = true;
      return false;
    }
  } else {
    do {
      n = ::read(fd_, buf_.get() + end_, room);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      error_ = core::make_error(core::ErrorKind::input, source_, "a readable file",
                                std::strerror(errno));
      eof_ = true;
      return false;
    }
  }
  if (n == 0) {
    // A gzip file cut short reads as a clean EOF from gzread; gzerror tells.
    if (gz_ != nullptr) {
      int errnum = 0;
      const char* msg = gzerror(static_cast<gzFile>(gz_), &errnum);
      if (errnum != Z_OK && errnum != Z_STREAM_END) {
        error_ = core::make_error(core::ErrorKind::input, source_, "a complete gzip stream",
                                  msg ? msg : "a truncated stream",
                                  "lines before the damage were read");
      }
    }
    eof_ = true;
    return false;
  }
  end_ += static_cast<size_t>(n);
  bytes_read_ += static_cast<uint64_t>(n);
  return true;
}

bool LineReader::next(Line& line) {
  line = Line{};
  if (mem_mode_) {
    if (begin_ >= mem_.size()) return false;
    const char* start = mem_.data() + begin_;
    size_t left = mem_.size() - begin_;
    const void* nl = std::memchr(start, '\n', left);
    size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : left;
    begin_ += len + (nl ? 1 : 0);
    line.number = ++number_;
    line.last_unterminated = nl == nullptr;
    if (len > max_line_) {
      line.too_long = true;
      len = max_line_;
    }
    line.text = chomp(std::string_view(start, len));
    return true;
  }
  for (;;) {
    const char* start = buf_.get() + begin_;
    size_t avail = end_ - begin_;
    const void* nl = std::memchr(start, '\n', avail);
    if (nl != nullptr) {
      size_t len = static_cast<size_t>(static_cast<const char*>(nl) - start);
      begin_ += len + 1;
      line.number = ++number_;
      line.text = chomp(std::string_view(start, len));
      return true;
    }
    if (avail > max_line_) {
      // Over-long line: keep its head, skip to the next newline without buffering the rest.
      long_head_.assign(start, max_line_);
      begin_ = end_ = 0;
      bool found = false;
      while (!found && fill()) {
        const void* p = std::memchr(buf_.get(), '\n', end_);
        if (p != nullptr) {
          begin_ = static_cast<size_t>(static_cast<const char*>(p) - buf_.get()) + 1;
          found = true;
        } else {
          begin_ = end_ = 0;
        }
      }
      line.number = ++number_;
      line.too_long = true;
      line.last_unterminated = !found;
      line.text = chomp(long_head_);
      return true;
    }
    if (!fill()) {
      if (end_ > begin_) {
        size_t len = end_ - begin_;
        line.number = ++number_;
        line.last_unterminated = true;
        line.text = chomp(std::string_view(buf_.get() + begin_, len));
        begin_ = end_;
        return true;
      }
      return false;
    }
  }
}

}  // namespace llmtriage::ingest
