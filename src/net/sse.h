#pragma once
// Server-Sent Events parser (WHATWG HTML "event stream" format): "data:" lines joined with
// "\n", "event:" and "id:" fields, ":" comments, events ended by a blank line, lines ended by
// CRLF, LF or CR. Accepts any split of the stream across reads and many events per read.
// OpenAI-style streams end with the event "data: [DONE]" (SseEvent::is_done()).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace llmtriage::net {

// Views valid only during the callback.
struct SseEvent {
  std::string_view type;  // "event:" field; empty means "message"
  std::string_view data;  // data lines joined by '\n'
  std::string_view id;    // last "id:" seen in this event
  bool is_done() const { return data == "[DONE]"; }
};

class SseParser {
 public:
  using Callback = std::function<void(const SseEvent&)>;
  explicit SseParser(size_t max_event_bytes = 16u << 20) : max_event_bytes_(max_event_bytes) {}

  // Parses bytes and calls on_event for every complete event. Returns false when an event
  // grows over max_event_bytes (the stream should be abandoned); error() says so.
  bool feed(std::string_view bytes, const Callback& on_event);
  // At end of stream: true when bytes of an unfinished event were pending (they are dropped,
  // as the spec says, and the caller reports Failure::sse_truncated).
  bool truncated() const;
  void reset();

  std::uint64_t events() const { return events_; }
  std::uint64_t comments() const { return comments_; }
  const std::string& error() const { return error_; }

 private:
  bool line(std::string_view l, const Callback& on_event);
  size_t max_event_bytes_;
  std::string partial_;  // an unterminated line carried to the next feed
  std::string data_;
  // A single data line still inside the caller's buffer is not copied (the common case); it is
  // copied into data_ before feed() returns.
  std::string_view data_view_;
  bool data_in_view_ = false;
  bool line_is_view_ = false;
  void settle() {
    if (data_in_view_) data_.assign(data_view_);
    data_in_view_ = false;
  }
  std::string type_;
  std::string id_;
  std::string error_;
  bool has_data_ = false;
  bool has_fields_ = false;  // a field or comment line seen since the last dispatch
  bool skip_lf_ = false;     // last feed ended on '\r': a leading '\n' belongs to it
  bool bom_checked_ = false;
  std::uint64_t events_ = 0;
  std::uint64_t comments_ = 0;
};

}  // namespace llmtriage::net
