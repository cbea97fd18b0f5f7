// Per-request records of `sim serve` (see records_writer.h).
#include "serve/records_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "core/clock.h"
#include "core/evidence.h"
#include "ingest/records.h"

namespace llmtriage::serve {

namespace {

// Batches are written at least this often, so a reader tailing the file lags by about this.
constexpr auto kFlushEvery = std::chrono::milliseconds(200);

bool set(SteadyTime t) { return t != SteadyTime{}; }

// JSON string body of printable ASCII (usable_request_id's alphabet).
std::string escaped(const std::string& v) {
  std::string o;
  for (char c : v) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}
double secs(SteadyTime a, SteadyTime b) { return std::chrono::duration<double>(b - a).count(); }

}  // namespace

std::string usable_request_id(const std::string* h) {
  if (!h || h->empty() || h->size() > 256) return {};
  for (char c : *h)
    if (c < 0x20 || c > 0x7e) return {};
  return *h;
}

core::Result<std::shared_ptr<RecordsWriter>> RecordsWriter::open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f)
    return core::make_error(core::ErrorKind::input, "--records", "a writable file", path, std::strerror(errno));
  return std::shared_ptr<RecordsWriter>(new RecordsWriter(f, path));
}

RecordsWriter::RecordsWriter(std::FILE* f, std::string path)
    : f_(f), path_(std::move(path)), unix0_(core::unix_now_s()), steady0_(std::chrono::steady_clock::now()) {
  thread_ = std::thread([this] { run(); });
}

RecordsWriter::~RecordsWriter() {
  close();
  if (f_) std::fclose(f_);
}

void RecordsWriter::push(ServedRecord r) {
  std::unique_lock lk(mu_);
  if (!stop_) {
    queue_.push_back(std::move(r));
    return;
  }
  // After close (a stream destroyed late in shutdown): write it here rather than lose it.
  std::vector<ServedRecord> one;
  one.push_back(std::move(r));
  count(write_batch(one), 1);
}

void RecordsWriter::run() {
  std::vector<ServedRecord> batch;
  std::unique_lock lk(mu_);
  while (!stop_) {
    cv_.wait_for(lk, kFlushEvery, [this] { return stop_; });
    batch.swap(queue_);
    lk.unlock();
    const bool ok = write_batch(batch);  // formatting happens here, off the mutex
    lk.lock();
    count(ok, batch.size());
    batch.clear();
  }
}

bool RecordsWriter::write_batch(const std::vector<ServedRecord>& batch) {
  if (batch.empty()) return true;
  std::string buf;
  buf.reserve(batch.size() * 400);
  for (const auto& r : batch) {
    buf += to_line(r, unix0_, steady0_);
    buf += '\n';
  }
  // One write per batch: a reader tailing the file sees whole lines (it tolerates a cut last one).
  return std::fwrite(buf.data(), 1, buf.size(), f_) == buf.size() && std::fflush(f_) == 0;
}

void RecordsWriter::count(bool ok, size_t n) {
  if (ok) written_ += n;
  else ++errors_;
}

void RecordsWriter::close() {
  {
    std::lock_guard lk(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lk(mu_);
  count(write_batch(queue_), queue_.size());  // pushed between the thread's last swap and stop_
  queue_.clear();
}

uint64_t RecordsWriter::written() const {
  std::lock_guard lk(mu_);
  return written_;
}
uint64_t RecordsWriter::write_errors() const {
  std::lock_guard lk(mu_);
  return errors_;
}

std::string RecordsWriter::to_line(const ServedRecord& r, double unix_at, SteadyTime steady_at) {
  core::RequestRecord o;
  o.id = r.id;
  const SteadyTime t0 = set(r.received) ? r.received : r.end_engine;
  o.arrival_s = unix_at + secs(steady_at, t0);
  o.input_tokens = r.input_tokens;
  o.output_tokens = r.output_tokens;
  // The first token as the client can see it: handed to the socket; the engine's instant when no
  // socket stamp came back (non-streaming responses send no bytes before the end).
  const bool first_socket = set(r.first_token_socket);
  const SteadyTime first = first_socket ? r.first_token_socket : r.first_token_engine;
  if (set(first) && r.output_tokens > 0) o.ttft_s = secs(t0, first);
  const SteadyTime end = set(r.end_socket) ? r.end_socket : r.end_engine;
  if (r.error_category.empty()) {
    o.status = core::RequestStatus::ok;
    if (set(end)) o.e2e_s = secs(t0, end);
  } else {
    o.status = core::RequestStatus::error;
    o.error_category = r.error_category;
  }
  o.model = r.model;
  o.max_tokens = r.max_tokens;
  o.n = r.n;
  o.temperature = r.temperature;
  o.top_p = r.top_p;
  if (r.ignore_eos) o.ignore_eos = true;
  std::string s = ingest::to_bench_jsonl(o);
  s.pop_back();  // extras follow; readers skip keys they do not know
  s += fmt::format(",\"source\":\"sim_serve\",\"response_id\":\"{}\",\"stream\":{}", escaped(r.response_id),
                   r.stream ? "true" : "false");
  if (!r.finish_reason.empty()) s += fmt::format(",\"finish_reason\":\"{}\"", r.finish_reason);
  if (o.ttft_s) s += fmt::format(",\"ttft_stamp\":\"{}\"", first_socket ? "socket" : "engine");
  if (!r.error_category.empty() && set(r.end_engine)) s += fmt::format(",\"ended_after_s\":{}", secs(t0, r.end_engine));
  if (r.sim_ttft_s && r.time_scale != 1) s += fmt::format(",\"sim_ttft_s\":{},\"time_scale\":{}", *r.sim_ttft_s, r.time_scale);
  s += '}';
  return s;
}

}  // namespace llmtriage::serve
