// `top --record` / `top --replay` files (collect/live_record.h).
#include "collect/live_record.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>
#include <nlohmann/json.hpp>

#include "collect/snapshot.h"

namespace llmtriage::collect {
namespace {

// One scrape as a snapshot of its own.
Snapshot scrape_snapshot(const LiveScrape& s) {
  Snapshot one;
  one.mode = "live";
  one.engine = s.engine;
  one.engine_detected_by = s.engine_detected_by;
  one.created_unix_s = s.metrics.t_s;
  one.scrapes.push_back(s.metrics);
  if (s.slots) one.slots.push_back(*s.slots);
  one.gpu_samples = s.gpus;
  one.gpu_source = s.gpu_source;
  one.gpu_note = s.gpu_note;
  one.failures = s.failures;
  return one;
}

LiveScrape scrape_of(const Snapshot& one) {
  LiveScrape s;
  if (!one.scrapes.empty()) s.metrics = one.scrapes.front();
  if (!one.slots.empty()) s.slots = one.slots.front();
  s.gpus = one.gpu_samples;
  s.gpu_source = one.gpu_source;
  s.gpu_note = one.gpu_note;
  s.failures = one.failures;
  s.engine = one.engine;
  s.engine_detected_by = one.engine_detected_by;
  return s;
}

}  // namespace

core::Result<std::unique_ptr<TopRecorder>> TopRecorder::open(const std::string& path, const Snapshot& base, const std::string& secret) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return core::make_error(core::ErrorKind::input, "--record " + path, "a file that can be written", std::strerror(errno));
  std::unique_ptr<TopRecorder> r(new TopRecorder(f, path, secret));
  nlohmann::json head = {{"format", kTopRecordingFormat}, {"version", 1}, {"base", to_json(base)}};
  if (auto st = r->write_line(head.dump()); !st.ok()) return st.error();
  return r;
}

TopRecorder::~TopRecorder() {
  if (f_) std::fclose(f_);
}

core::Status TopRecorder::write_line(std::string line) {
  if (secret_.size() >= 4)
    for (size_t pos = line.find(secret_); pos != std::string::npos; pos = line.find(secret_, pos))
      line.replace(pos, secret_.size(), "<redacted>");
  line += '\n';
  if (std::fwrite(line.data(), 1, line.size(), f_) != line.size() || std::fflush(f_) != 0)
    return core::make_error(core::ErrorKind::input, "--record " + path_, "a file that can be written", std::strerror(errno));
  return core::ok_status();
}

core::Status TopRecorder::add(const LiveScrape& s) { return write_line(nlohmann::json{{"scrape", to_json(scrape_snapshot(s))}}.dump()); }

RecordingPlayer::RecordingPlayer(TopRecording recording, double speed, bool paced, const core::Clock& clock)
    : rec_(std::move(recording)), speed_(speed > 0 ? speed : 1), paced_(paced), clock_(clock),
      t0_rec_(rec_.scrapes.empty() ? 0 : rec_.scrapes.front().metrics.t_s), t0_steady_(clock.now_s()) {}

double RecordingPlayer::now() const {
  if (rec_.scrapes.empty()) return t0_rec_;
  if (!paced_) return rec_.scrapes[std::max<size_t>(next_.load(), 1) - 1].metrics.t_s;
  return std::min(t0_rec_ + (clock_.now_s() - t0_steady_) * speed_, rec_.scrapes.back().metrics.t_s);
}

LiveScrape RecordingPlayer::take(const std::atomic<bool>* stop) {
  const size_t i = next_.load();
  LiveScrape s = rec_.scrapes[std::min(i, rec_.scrapes.size() - 1)];
  const double due = (s.metrics.t_s - t0_rec_) / speed_ + t0_steady_;
  if (paced_)
    while (clock_.now_s() < due && !(stop && stop->load()))
      std::this_thread::sleep_for(std::chrono::duration<double>(std::min(0.05, due - clock_.now_s())));
  next_.store(i + 1);
  return s;
}

core::Result<TopRecording> read_top_recording(const std::string& path, bool strict) {
  std::ifstream in(path);
  if (!in) return core::make_error(core::ErrorKind::input, path, "a recording written by `llmtriage top --record`", "a file that cannot be read");
  TopRecording r;
  std::string line;
  size_t n = 0;
  if (!std::getline(in, line))
    return core::make_error(core::ErrorKind::input, path, "a recording written by `llmtriage top --record`", "an empty file");
  ++n;
  const auto head = nlohmann::json::parse(line, nullptr, false);
  if (!head.is_object() || head.value("format", "") != kTopRecordingFormat || !head.contains("base"))
    return core::make_error(core::ErrorKind::input, path + ":1",
                            std::string("a header line with \"format\": \"") + kTopRecordingFormat + "\"",
                            head.is_object() ? "format " + head.value("format", std::string("(missing)")) : "not JSON",
                            "is this a `top --record` file? (a snapshot is read by `llmtriage snapshot show`)");
  if (head.value("version", 0) != 1)
    return core::make_error(core::ErrorKind::input, path + ":1", "recording version 1", std::to_string(head.value("version", 0)));
  auto base = snapshot_from_json(head["base"], path + ":1 base");
  if (!base) return std::move(base).error();
  r.base = std::move(*base);
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    std::string why;
    if (!j.is_object() || !j.contains("scrape")) why = j.is_discarded() ? "not JSON (a line cut short?)" : "no \"scrape\"";
    else if (auto one = snapshot_from_json(j["scrape"], path + ":" + std::to_string(n)); !one) why = one.error().message();
    else r.scrapes.push_back(scrape_of(*one));
    if (why.empty()) continue;
    if (strict) return core::make_error(core::ErrorKind::input, path + ":" + std::to_string(n), "one recorded scrape per line", why);
    ++r.malformed;
    if (r.errors.size() < 5) r.errors.push_back(path + ":" + std::to_string(n) + ": " + why);
  }
  return r;
}

}  // namespace llmtriage::collect
