// Stored mode (RecordReadResult::records): the record vector's memory, and what a read reports
// once all records are in (relative time base, fields no record had).
#include <sys/mman.h>

#include <cstdint>
#include <utility>

#include "ingest/records_detail.h"

namespace llmtriage::ingest::detail {

namespace {
// One bit per optional field finalize_stored() reports as unavailable when no record has it.
enum PresentBit : uint32_t {
  p_send = 1u << 0, p_input = 1u << 1, p_output = 1u << 2, p_ttft = 1u << 3, p_e2e = 1u << 4,
  p_chunks = 1u << 5, p_itl = 1u << 6, p_model = 1u << 7, p_max_tokens = 1u << 8,
  p_temperature = 1u << 9, p_top_p = 1u << 10, p_n = 1u << 11, p_ignore_eos = 1u << 12,
  p_queue = 1u << 13,
};
}  // namespace

uint32_t present_fields(const core::RequestRecord& r) {
  return (r.send_s ? p_send : 0u) | (r.input_tokens ? p_input : 0u) |
         (r.output_tokens ? p_output : 0u) | (r.ttft_s ? p_ttft : 0u) | (r.e2e_s ? p_e2e : 0u) |
         (!r.chunk_times_s.empty() ? p_chunks : 0u) | (!r.itl_s.empty() ? p_itl : 0u) |
         (!r.model.empty() ? p_model : 0u) | (r.max_tokens ? p_max_tokens : 0u) |
         (r.temperature ? p_temperature : 0u) | (r.top_p ? p_top_p : 0u) | (r.n ? p_n : 0u) |
         (r.ignore_eos ? p_ignore_eos : 0u) | (r.queue_s ? p_queue : 0u);
}

void reserve_records(std::vector<core::RequestRecord>& records, size_t n) {
  records.reserve(n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Millions of records are hundreds of MB written once into fresh pages: with 4 KiB pages the
  // first-touch faults cost more than the parsing (half the stored-mode profile on a VM). Ask for
  // transparent huge pages where the kernel grants them on request ("madvise" mode); advice
  // only, so a refusal changes nothing but speed.
  constexpr uintptr_t k2m = uintptr_t{2} << 20;
  auto begin = reinterpret_cast<uintptr_t>(records.data() + records.size());
  auto end = reinterpret_cast<uintptr_t>(records.data() + records.capacity());
  begin = (begin + k2m - 1) & ~(k2m - 1);
  end &= ~(k2m - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

void finalize_stored(RecordReadResult& res, const RecordSink& sink) {
  // Absolute clocks (unix seconds) become seconds since the first request.
  if (!res.records.empty()) {
    double t0 = sink.min_arrival;
    if (t0 > 1e8) {
      res.time_base = "relative";
      for (auto& r : res.records) {
        r.arrival_s -= t0;
        if (r.send_s) *r.send_s -= t0;
      }
    }
  }
  res.unavailable.clear();
  if (!sink.arrival_known) res.unavailable.push_back("arrival_s");
  static constexpr std::pair<uint32_t, const char*> fields[] = {
      {p_send, "send_s"}, {p_input, "input_tokens"},
      {p_output, "output_tokens"}, {p_ttft, "ttft_s"}, {p_e2e, "e2e_s"},
      {p_chunks, "chunk_times_s"}, {p_itl, "itl_s"}, {p_model, "model"},
      {p_max_tokens, "max_tokens"}, {p_temperature, "temperature"},
      {p_top_p, "top_p"}, {p_n, "n"}, {p_ignore_eos, "ignore_eos"},
      {p_queue, "queue_s"}};
  for (const auto& [bit, name] : fields)
    if ((sink.present & bit) == 0) res.unavailable.push_back(name);
}

}  // namespace llmtriage::ingest::detail
