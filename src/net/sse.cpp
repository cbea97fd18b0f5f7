#include "net/sse.h"

#include <cstring>

namespace llmtriage::net {

void SseParser::reset() {
  partial_.clear();
  data_.clear();
  data_in_view_ = false;
  type_.clear();
  id_.clear();
  error_.clear();
  has_data_ = has_fields_ = skip_lf_ = bom_checked_ = false;
  events_ = comments_ = 0;
}

bool SseParser::truncated() const {
  return !partial_.empty() || has_data_ || has_fields_;
}

bool SseParser::line(std::string_view l, const SseParser::Callback& on_event) {
  if (l.empty()) {
    if (has_data_) {
      ++events_;
      SseEvent ev{type_, data_in_view_ ? data_view_ : std::string_view(data_), id_};
      on_event(ev);
    }
    data_.clear();
    data_in_view_ = false;
    type_.clear();
    has_data_ = false;
    has_fields_ = false;
    return true;
  }
  has_fields_ = true;
  if (l[0] == ':') {
    ++comments_;
    return true;
  }
  auto colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = l.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (!has_data_ && line_is_view_) {
      data_view_ = value;
      data_in_view_ = true;
    } else {
      settle();
      if (has_data_) data_ += '\n';
      data_.append(value);
    }
    has_data_ = true;
    if ((data_in_view_ ? data_view_.size() : data_.size()) > max_event_bytes_) {
      error_ = "an SSE event over " + std::to_string(max_event_bytes_) + " bytes";
      return false;
    }
  } else if (field == "event") {
    type_.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) id_.assign(value);
  }
  // "retry" and unknown fields are ignored (spec).
  return true;
}

bool SseParser::feed(std::string_view bytes, const SseParser::Callback& on_event) {
  if (!error_.empty()) return false;
  if (skip_lf_ && !bytes.empty()) {
    if (bytes[0] == '\n') bytes.remove_prefix(1);
    skip_lf_ = false;
  }
  if (!bom_checked_ && !bytes.empty()) {
    // A UTF-8 BOM may start the stream; it can arrive split, so wait for 3 bytes.
    std::string_view start = partial_.empty() ? bytes : std::string_view(partial_);
    if (partial_.empty() && bytes.size() < 3 && std::string_view("\xEF\xBB\xBF").substr(0, bytes.size()) == bytes) {
      partial_.assign(bytes);
      return true;
    }
    if (!partial_.empty()) {
      partial_.append(bytes);
      bytes = {};
      start = partial_;
    }
    if (start.substr(0, 3) == "\xEF\xBB\xBF") {
      if (!partial_.empty()) partial_.erase(0, 3);
      else bytes.remove_prefix(3);
    } else if (start.size() < 3 && std::string_view("\xEF\xBB\xBF").substr(0, start.size()) == start) {
      return true;
    }
    bom_checked_ = true;
    if (!partial_.empty()) {
      std::string carried;
      carried.swap(partial_);
      return feed(carried, on_event);
    }
  }
  // Lines end at LF, CRLF or CR. memchr (vectorized) finds both; this loop is the client's
  // per-event hot path.
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  while (p < end) {
    auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    auto* cr = static_cast<const char*>(std::memchr(p, '\r', static_cast<size_t>(stop - p)));
    const char* eol;
    const char* next;
    if (cr) {
      eol = cr;
      if (cr + 1 < end) {
        next = cr + 1 + (cr[1] == '\n' ? 1 : 0);
      } else {
        next = end;
        skip_lf_ = true;  // a '\n' opening the next read belongs to this CR
      }
    } else if (nl) {
      eol = nl;
      next = nl + 1;
    } else {
      settle();
      partial_.append(p, static_cast<size_t>(end - p));
      if (partial_.size() > max_event_bytes_) {
        error_ = "an SSE line over " + std::to_string(max_event_bytes_) + " bytes";
        return false;
      }
      return true;
    }
    std::string_view l(p, static_cast<size_t>(eol - p));
    bool ok;
    if (!partial_.empty()) {
      partial_.append(l);
      std::string joined;
      joined.swap(partial_);
      line_is_view_ = false;
      ok = line(joined, on_event);
    } else {
      line_is_view_ = true;
      ok = line(l, on_event);
    }
    if (!ok) return false;
    p = next;
  }
  settle();
  return true;
}

}  // namespace llmtriage::net
