// Numeric / parameter layer (docs/rules.md, "Layer: numeric_parameter"): wrong content, not speed.
// Order of suspicion (ARCHITECTURE.md): truncation and template first, then sampling, then
// quantization compatibility. Content checks need sampled outputs; truncation is seen in logs
// and records without them.
#include "diagnose/analyzers.h"
#include "diagnose/rule_util.h"

namespace llmtriage::diagnose {

namespace {

Finding numeric_finding(const char* id, const Context& c) {
  Finding f;
  f.id = id;
  f.layer = Layer::numeric_parameter;
  f.symptom = Symptom::output_quality;
  f.severity = severity_for(c, Symptom::output_quality);
  return f;
}

void truncation(const Context& c, LayerResult& r) {
  auto events = c.ind.get("truncation_events");
  auto pinned = c.ind.get("inputs_at_max_model_len_share");
  const bool by_log = events && *events >= c.th.get("numeric.truncation_events");
  const bool by_records = pinned && *pinned >= c.th.get("numeric.pinned_input_share");
  if (!by_log && !by_records) return;
  Finding f = numeric_finding("prompt_truncated_silently", c);
  f.severity = Severity::warning;  // the model answers a prompt the user did not send
  f.confidence = by_log && by_records ? 0.9 : by_log ? 0.8 : 0.6;
  auto mml = c.ind.get("max_model_len");
  f.title = mml ? fmt::format("Prompts cut to the context size ({} tokens) without an error", num(*mml))
                : "Prompts cut to the context size without an error";
  f.explanation = "The engine (or the client) truncated prompts longer than the context window and answered the rest: the "
                  "system prompt or the start of the conversation is gone, and the answers look like a quality problem "
                  "(ignored instructions, lost context) although the model never saw the input.";
  if (by_log) f.evidence.push_back(c.ind.item("truncation_events", c.th.get("numeric.truncation_events"), ">="));
  if (by_records) f.evidence.push_back(c.ind.item("inputs_at_max_model_len_share", c.th.get("numeric.pinned_input_share"), ">="));
  if (c.ind.get("longest_input_tokens")) f.evidence.push_back(c.ind.item("longest_input_tokens"));
  const double to = mml ? *mml * 2 : 0;
  f.remedies.push_back({"max-model-len (llama.cpp --ctx-size, Ollama num_ctx)", mml ? num(*mml) : "current",
                        mml ? num(to) : "the longest prompt + max_tokens",
                        "prompts fit whole; KV per sequence grows accordingly (check with llmtriage ledger)", "qualitative"});
  f.remedies.push_back({"client-side truncation", "silent (server)", "explicit, with an error to the caller",
                        "over-long prompts are visible instead of silently degraded", "qualitative"});
  f.next_measurement = "prompt token counts of the bad answers vs the context size";
  r.findings.push_back(std::move(f));
}

void content(const Context& c, LayerResult& r) {
  if (auto s = c.ind.get("template_marker_share"); s && *s >= c.th.get("numeric.template_marker_share")) {
    Finding f = numeric_finding("chat_template_mismatch", c);
    f.confidence = 0.85;
    f.title = fmt::format("{:.0f}% of outputs contain raw chat-template markers", *s * 100);
    f.explanation = "Outputs contain the model's special tokens or role markers as text. The chat template applied to the "
                    "prompts is not the one the model was trained with (a base template on an instruct model, a "
                    "--chat-template override, or a served name mapped to another model), so the model continues the "
                    "conversation format instead of answering.";
    f.evidence.push_back(c.ind.item("template_marker_share", c.th.get("numeric.template_marker_share"), ">="));
    f.remedies.push_back({"chat-template", "current", "the model's own (tokenizer_config.json chat_template)",
                          "answers without role markers", "qualitative"});
    f.next_measurement = "render one prompt with the engine's /tokenize (or apply_chat_template) and compare with the model card";
    r.findings.push_back(std::move(f));
  }
  auto rep = c.ind.get("repetitive_output_share");
  auto garbled = c.ind.get("garbled_output_share");
  const bool repetitive = rep && *rep >= c.th.get("numeric.repetitive_output_share");
  const bool is_garbled = garbled && *garbled >= c.th.get("numeric.garbled_output_share");
  const bool quantized = c.ind.get("weights_quantized").value_or(0) > 0 || c.ind.get("kv_cache_quantized").value_or(0) > 0;
  if (quantized && (is_garbled || repetitive)) {
    Finding f = numeric_finding("quantization_mismatch", c);
    f.confidence = is_garbled ? 0.7 : 0.5;
    f.title = "Degraded outputs from a quantized model or KV cache";
    f.explanation = "The weights or the KV cache are quantized and the outputs are garbled or loop. A quantization the model "
                    "was not calibrated for, a kernel without support for this GPU, or a KV-cache fp8 scale missing from the "
                    "checkpoint degrade content before they affect speed.";
    if (is_garbled) f.evidence.push_back(c.ind.item("garbled_output_share", c.th.get("numeric.garbled_output_share"), ">="));
    if (repetitive) f.evidence.push_back(c.ind.item("repetitive_output_share", c.th.get("numeric.repetitive_output_share"), ">="));
    if (c.ind.get("weights_quantized").value_or(0) > 0) f.evidence.push_back(c.ind.item("weights_quantized"));
    if (c.ind.get("kv_cache_quantized").value_or(0) > 0) {
      f.evidence.push_back(c.ind.item("kv_cache_quantized"));
      f.remedies.push_back({"kv-cache-dtype", c.in.now.deployment.settings.kv_cache_dtype.value_or("fp8"), "auto",
                            "KV in the model's dtype; compare the same prompts", "qualitative"});
    }
    if (c.ind.get("weights_quantized").value_or(0) > 0)
      f.remedies.push_back({"quantization", c.in.now.deployment.settings.quantization.value_or("current"), "none (or the checkpoint's own)",
                            "outputs as the unquantized model gives them; compare the same prompts at temperature 0", "qualitative"});
    f.next_measurement = "the same prompts at temperature 0 on an unquantized replica";
    r.findings.push_back(std::move(f));
  } else if (repetitive) {
    Finding f = numeric_finding("repetitive_output", c);
    auto temp = c.ind.get("temperature_mean");
    f.confidence = 0.7;
    f.title = fmt::format("{:.0f}% of outputs loop on the same phrase", *rep * 100);
    f.explanation = "Answers repeat the same words or sentences. Greedy decoding (temperature 0) without a repetition penalty "
                    "is the usual cause; a wrong template or a broken quantization can look the same and are checked first.";
    f.evidence.push_back(c.ind.item("repetitive_output_share", c.th.get("numeric.repetitive_output_share"), ">="));
    if (temp) f.evidence.push_back(c.ind.item("temperature_mean"));
    if (temp && *temp <= 0.05)
      f.remedies.push_back({"repetition_penalty", "1.0", "1.1", "loops broken at little cost to content", "qualitative"});
    f.remedies.push_back({"temperature", temp ? num(*temp) : "current", "0.7", "sampling leaves the loop", "qualitative"});
    f.next_measurement = "the sampling parameters the clients send (temperature, repetition_penalty, frequency_penalty)";
    r.findings.push_back(std::move(f));
  }
}

}  // namespace

LayerResult analyze_numeric(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::numeric_parameter;
  truncation(c, r);
  const bool outputs = c.ind.get("outputs_count").value_or(0) > 0;
  if (outputs) content(c, r);
  if (!r.findings.empty()) {
    r.verdict.state = LayerVerdict::State::at_fault;
    if (!outputs) r.verdict.why = "no sampled outputs (--outputs): template, repetition and quantization checks not run";
    return r;
  }
  if (outputs) {
    r.verdict.state = LayerVerdict::State::cleared;
    for (const char* n : {"template_marker_share", "repetitive_output_share", "garbled_output_share", "truncation_events"})
      if (c.ind.get(n)) r.verdict.evidence.push_back(c.ind.item(n));
  } else {
    r.verdict.why = "no sampled outputs (--outputs FILE): content checks (template, repetition, quantization) not run";
    if (c.ind.get("truncation_events")) r.verdict.why += "; no truncation in the logs";
  }
  return r;
}

}  // namespace llmtriage::diagnose
