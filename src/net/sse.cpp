#include "net/sse.h"

namespace llmtriage::net {

void SseParser::reset() {
  partial_.clear();
  data_.clear();
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
      SseEvent ev{type_, data_, id_};
      on_event(ev);
    }
    data_.clear();
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
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
    if (data_.size() > max_event_bytes_) {
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
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t end = bytes.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) {
      partial_.append(bytes.substr(pos));
      if (partial_.size() > max_event_bytes_) {
        error_ = "an SSE line over " + std::to_string(max_event_bytes_) + " bytes";
        return false;
      }
      return true;
    }
    std::string_view l = bytes.substr(pos, end - pos);
    bool ok;
    if (!partial_.empty()) {
      partial_.append(l);
      std::string joined;
      joined.swap(partial_);
      ok = line(joined, on_event);
    } else {
      ok = line(l, on_event);
    }
    if (!ok) return false;
    pos = end + 1;
    if (bytes[end] == '\r') {
      if (pos < bytes.size()) {
        if (bytes[pos] == '\n') ++pos;
      } else {
        skip_lf_ = true;
      }
    }
  }
  return true;
}

}  // namespace llmtriage::net
