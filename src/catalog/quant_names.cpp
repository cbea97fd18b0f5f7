// Quantization names in model and file names (quant_names.h): the table and the reader.
#include "catalog/quant_names.h"

#include "catalog/name_text.h"

namespace llmtriage::catalog::name_guess_detail {
namespace {

constexpr QuantSpec kQuants[] = {
    {"q2_k", "Q2_K", 3.35, 2, true, ""},
    {"q2_k_s", "Q2_K_S", 2.97, 2, true, ""},
    {"q3_k_s", "Q3_K_S", 3.50, 2, true, ""},
    {"q3_k_m", "Q3_K_M", 3.91, 2, true, ""},
    {"q3_k", "Q3_K_M", 3.91, 2, true, "Q3_K is llama-quantize's alias of Q3_K_M"},
    {"q3_k_l", "Q3_K_L", 4.27, 2, true, ""},
    {"q4_0", "Q4_0", 4.5, 2, true, ""},
    {"q4_1", "Q4_1", 5.0, 2, true, ""},
    {"q4_k_s", "Q4_K_S", 4.58, 2, true, ""},
    {"q4_k_m", "Q4_K_M", 4.84, 2, true, ""},
    {"q4_k", "Q4_K_M", 4.84, 2, true, "Q4_K is llama-quantize's alias of Q4_K_M"},
    {"q5_0", "Q5_0", 5.5, 2, true, ""},
    {"q5_1", "Q5_1", 6.0, 2, true, ""},
    {"q5_k_s", "Q5_K_S", 5.52, 2, true, ""},
    {"q5_k_m", "Q5_K_M", 5.68, 2, true, ""},
    {"q5_k", "Q5_K_M", 5.68, 2, true, "Q5_K is llama-quantize's alias of Q5_K_M"},
    {"q6_k", "Q6_K", 6.56, 2, true, ""},
    {"q8_0", "Q8_0", 8.5, 2, true, ""},
    {"iq1_s", "IQ1_S", 2.00, 2, true, ""},
    {"iq1_m", "IQ1_M", 2.15, 2, true, ""},
    {"iq2_xxs", "IQ2_XXS", 2.38, 2, true, ""},
    {"iq2_xs", "IQ2_XS", 2.59, 2, true, ""},
    {"iq2_s", "IQ2_S", 2.74, 2, true, ""},
    {"iq2_m", "IQ2_M", 2.93, 2, true, ""},
    {"iq3_xxs", "IQ3_XXS", 3.25, 2, true, ""},
    {"iq3_xs", "IQ3_XS", 3.50, 2, true, ""},
    {"iq3_s", "IQ3_S", 3.66, 2, true, ""},
    {"iq3_m", "IQ3_M", 3.76, 2, true, ""},
    {"iq4_xs", "IQ4_XS", 4.46, 2, true, ""},
    {"iq4_nl", "IQ4_NL", 4.68, 2, true, ""},
    {"awq", "AWQ", 4.15625, 2, false, "AWQ without a bit width: 4-bit, group 128 assumed"},
    {"awq_int4", "AWQ-INT4", 4.15625, 2, false, ""},
    {"awq_4bit", "AWQ-INT4", 4.15625, 2, false, ""},
    {"gptq", "GPTQ", 4.15625, 2, false, "GPTQ without a bit width: 4-bit, group 128 assumed"},
    {"gptq_int4", "GPTQ-INT4", 4.15625, 2, false, ""},
    {"gptq_4bit", "GPTQ-INT4", 4.15625, 2, false, ""},
    {"gptq_int8", "GPTQ-INT8", 8.15625, 2, false, ""},
    {"gptq_8bit", "GPTQ-INT8", 8.15625, 2, false, ""},
    {"fp8", "FP8", 8, 2, false, ""},
    {"fp8_dynamic", "FP8", 8, 2, false, ""},
    {"fp8_static", "FP8", 8, 2, false, ""},
    {"f8", "FP8", 8, 2, false, ""},
    {"nvfp4", "NVFP4", 4.5, 2, false, ""},
    {"mxfp4", "MXFP4", 4.25, 2, false, ""},
    {"bnb_4bit", "BNB-4BIT", 4.25, 2, false, ""},
    {"bnb_nf4", "BNB-4BIT", 4.25, 2, false, ""},
    {"nf4", "BNB-4BIT", 4.25, 2, false, ""},
    {"bnb_8bit", "BNB-8BIT", 8, 2, false, ""},
    {"int8", "INT8", 8, 1, false, ""},
    {"w8a8", "W8A8", 8, 1, false, ""},
    {"w8a16", "W8A16", 8, 1, false, ""},
    {"8bit", "INT8", 8, 1, false, ""},
    {"int4", "INT4", 4.125, 1, false, "int4 without a method: symmetric, group 128 assumed"},
    {"w4a16", "W4A16", 4.125, 1, false, "w4a16: symmetric int4, group 128 assumed"},
    {"4bit", "INT4", 4.25, 1, false, "a bare '4bit': one 2-byte scale per 64 weights assumed"},
    {"f16", "F16", 16, 0, false, ""},
    {"fp16", "F16", 16, 0, false, ""},
    {"float16", "F16", 16, 0, false, ""},
    {"half", "F16", 16, 0, false, ""},
    {"bf16", "BF16", 16, 0, false, ""},
    {"bfloat16", "BF16", 16, 0, false, ""},
    {"f32", "F32", 32, 0, false, ""},
    {"fp32", "F32", 32, 0, false, ""},
    {"float32", "F32", 32, 0, false, ""},
};

}  // namespace

// The quant a name states: every spelling above at word boundaries, longest first, left to
// right without overlaps; the highest rank wins, the rightmost among equals.
std::optional<QuantHit> find_quant(const std::string& low) {
  std::string q = low;
  for (auto& c : q)
    if (!is_alnum(c)) c = '_';
  auto boundary_after = [&](size_t p) { return p >= q.size() || !is_alnum(q[p]); };
  std::optional<QuantHit> best;
  for (size_t i = 0; i < q.size();) {
    if (i > 0 && is_alnum(q[i - 1])) { ++i; continue; }
    QuantHit hit;
    for (const auto& s : kQuants) {
      size_t n = std::char_traits<char>::length(s.key);
      if (n > hit.len && q.compare(i, n, s.key) == 0 && boundary_after(i + n)) {
        hit.spec = &s;
        hit.pos = i;
        hit.len = n;
      }
    }
    // "4.65bpw", "8.0bpw" (exllamav2): bits stated outright.
    if (!hit.spec && is_digit(low[i])) {
      size_t j = i;
      while (j < low.size() && (is_digit(low[j]) || low[j] == '.')) ++j;
      if (low.compare(j, 3, "bpw") == 0 && boundary_after(j + 3)) {
        auto v = parse_number(low.substr(i, j - i));
        if (v && *v >= 1 && *v <= 32) {
          static constexpr QuantSpec kBpw{"bpw", "EXL2", 0, 2, false, ""};
          hit.spec = &kBpw;
          hit.pos = i;
          hit.len = j + 3 - i;
          hit.bpw = *v;
        }
      }
    }
    if (hit.spec) {
      if (!best || hit.spec->rank >= best->spec->rank) best = hit;
      i += hit.len;
    } else {
      ++i;
    }
  }
  return best;
}

}  // namespace llmtriage::catalog::name_guess_detail
