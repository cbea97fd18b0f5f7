#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace llmtriage::core {

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorKind::input, path, "a readable file",
                      std::strerror(errno));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return make_error(ErrorKind::input, path, "a readable file", "a read error");
  return ss.str();
}

Status write_file_atomic(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    return make_error(ErrorKind::input, path, "a writable folder", std::strerror(errno));
  }
  size_t off = 0;
  while (off < content.size()) {
    ssize_t n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      return make_error(ErrorKind::input, path, "room to write", std::strerror(e));
    }
    off += static_cast<size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int e = errno;
    ::unlink(tmpl.c_str());
    return make_error(ErrorKind::input, path, "a durable write", std::strerror(e));
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmpl.c_str());
    return make_error(ErrorKind::input, path, "a successful rename", std::strerror(e));
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return ok_status();
}

std::string data_dir() {
  if (const char* env = std::getenv("LLMTRIAGE_DATA_DIR"); env && *env) return env;
#ifdef LLMTRIAGE_DATA_DIR
  if (std::filesystem::exists(LLMTRIAGE_DATA_DIR)) return LLMTRIAGE_DATA_DIR;
#endif
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto share = exe.parent_path().parent_path() / "share" / "llmtriage" / "data";
    if (std::filesystem::exists(share)) return share.string();
  }
  return "data";
}

}  // namespace llmtriage::core
