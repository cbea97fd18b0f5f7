#pragma once
// Writers for a run's evidence: request records and engine samples as JSONL (field names are
// those of core::RequestRecord / core::EngineSample; documented in docs/sim.md), the engine log,
// the events and the summary. Files are written atomically.
#include <string>

#include <nlohmann/json.hpp>

#include "core/evidence.h"
#include "core/result.h"
#include "sim/simulation.h"

namespace llmtriage::sim {

nlohmann::json record_to_json(const core::RequestRecord& r);
nlohmann::json sample_to_json(const core::EngineSample& s);
nlohmann::json event_to_json(const core::Event& e);

// Reads records written by write_outputs (or any JSONL with the same field names) for trace
// replay: arrival_s, input_tokens, output_tokens (required), max_tokens (optional). Malformed
// lines are counted and the first few reported in `skipped` (line numbers), not fatal.
struct RecordsRead {
  std::vector<core::RequestRecord> records;
  size_t malformed = 0;
  std::vector<std::string> first_errors;  // "file:12: ..."
};
core::Result<RecordsRead> read_records_jsonl(const std::string& path);

// Writes DIR/records.jsonl, DIR/engine_samples.jsonl, DIR/engine.log, DIR/events.jsonl,
// DIR/summary.json (creating DIR).
core::Status write_outputs(const std::string& dir, const SimResult& r, const nlohmann::json& summary);

}  // namespace llmtriage::sim
