#pragma once
// Reasoning from thin evidence (docs/rules.md, "Suspected causes"): when the operator has only a
// symptom, a few pasted log lines, the launch flags, the model and GPU as they named them and a
// few dashboard readings, the diagnosis still names the most likely causes, ranked.
//
// Each cause of data/diagnose/causes.jsonl has a prior per symptom (the checklist's row). Every
// piece of evidence present moves it: a log signature (data/diagnose/signatures.jsonl), a launch
// flag, one reading, the engine, the model's size against the GPU, the sampled outputs. Scores
// are log-odds: score = ln(prior) + the sum of the clues' weights; the confidence is the share of
// the score's exponential among all causes and an "unlisted cause" remainder. A cause that an
// engine's own line states outright (a signature of weight >= 3) with confidence >= 0.6 is
// `located`; everything else is `suspected`, with the one measurement that would settle it.
#include <string>
#include <vector>

#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "diagnose/indicators.h"

namespace llmtriage::ingest {
struct LaunchSettings;  // ingest/launch_text.h
}

namespace llmtriage::diagnose {

struct Cause {
  std::string id;
  Layer layer = Layer::load;
  std::string title, explanation, confirm, source;
  Remedy remedy;
  std::map<std::string, std::string> by_engine;  // engine -> its own name for the variable
  std::map<std::string, double> prior;           // symptom name (or "none") -> prior probability
};

// The bundled cause table (<data_dir>/diagnose/causes.jsonl), loaded once; empty when it cannot
// be read, and then cause_table_problem() says why.
const std::vector<Cause>& causes();
const std::string& cause_table_problem();
core::Result<std::vector<Cause>> parse_causes(const std::string& text, const std::string& where);

// One piece of evidence for (weight > 0) or against (weight < 0) a cause.
struct Clue {
  std::string cause;
  double weight = 0;
  EvidenceItem item;
  bool decisive = false;  // an engine's own line that states the cause
};

// Everything the evidence says, as clues (suspect_clues.cpp), and the engine family it names
// ("vllm", "sglang", "tgi", "llamacpp", "ollama", "trtllm", "lmdeploy"; "" unknown), which picks
// the remedy's flag name.
struct ClueSet {
  std::vector<Clue> clues;
  std::string engine;
};
ClueSet gather_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms);
// suspect_readings.cpp: dashboard readings (GPU utilisation and memory, clocks, timeouts against
// latencies, queue and throughput readings).
std::vector<Clue> reading_clues(const Indicators& ind, const std::vector<Symptom>& symptoms, const std::string& engine);
// suspect_signature_fields.cpp: the numbers and text the log signatures captured.
std::vector<Clue> signature_field_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms,
                                        const ingest::LaunchSettings& ls);
// suspect_queue.cpp: the running-request cap and the concurrency in front of it (launch settings
// against the running / waiting readings).
std::vector<Clue> queue_clues(const ingest::LaunchSettings& ls, const Indicators& ind, const std::vector<Symptom>& symptoms);
// suspect_reservation.cpp: a full GPU that is the KV pool reserved at startup, by design.
std::vector<Clue> reservation_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms);
// suspect_capacity.cpp: scheduling/capacity read off single readings (a first token slower than
// any prefill, the running batch's KV against the pool, a full pool while tokens crawl, a batch
// yielding a few percent of the expected, TensorRT-LLM's MAX_UTILIZATION policy).
std::vector<Clue> capacity_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms,
                                 const std::string& engine, const ingest::LaunchSettings& ls);

struct SuspectOptions {
  size_t max_suspects = 3;
  double min_confidence = 0.05;  // below this a cause is not listed (the first is always listed)
};

// Ranked causes for the symptoms (the first always present when a symptom is given or any clue
// exists); each a Finding with status "located" or "suspected".
std::vector<Finding> suspect(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms,
                             const SuspectOptions& opt = {});

}  // namespace llmtriage::diagnose
