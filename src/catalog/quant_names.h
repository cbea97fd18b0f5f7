#pragma once
// Internal to the model-name guesser (model_name_guess.cpp): quantization names as they appear in
// model and file names, with their effective bits per weight. Not part of the catalog API.
#include <optional>
#include <string>

namespace llmtriage::catalog::name_guess_detail {

// Quantization names and their effective bits per weight (scales included).
//  llama.cpp types: tools/quantize/README.md of ggml-org/llama.cpp. The k-quant mixes (Q2_K ...
//   Q6_K) use its "Llama 2 7B" bits-per-weight table (Q2_K 3.35, Q3_K_S 3.50, Q3_K_M 3.91,
//   Q3_K_L 4.27, Q4_K_S 4.58, Q4_K_M 4.84, Q5_K_S 5.52, Q5_K_M 5.68, Q6_K 6.56); Q2_K_S and the
//   i-quants its "meta-llama/Llama-3.1-8B" table (which runs higher: that model's embeddings are
//   a larger share). Q2_K is a 2.5625-bit block type, but the Q2_K mix keeps some tensors at 3-4
//   bits, so a Q2_K file averages ~3.3 bits. Legacy blocks of 32 weights with an fp16 scale:
//   Q4_0 18 B -> 4.5, Q4_1 20 B -> 5.0, Q5_0 22 B -> 5.5, Q5_1 24 B -> 6.0, Q8_0 34 B -> 8.5.
//   "Q4_K" / "Q3_K" / "Q5_K" are llama-quantize's aliases of the _M mixes.
//  GPTQ / AWQ: 4-bit weights, one fp16 scale and one 4-bit zero point per group of 128:
//   4 + (16 + 4) / 128 = 4.156 (the convention of src/catalog/weights.cpp). Symmetric int4
//   (w4a16, no zero point): 4.125. bitsandbytes 4-bit: one 2-byte scale per 64 -> 4.25.
//  MXFP4: e8m0 scale per 32 -> 4.25; NVFP4: fp8 scale per 16 -> 4.5. FP8 / int8: 8 (per-tensor
//   or per-channel scales are negligible). fp16 / bf16: 16.
struct QuantSpec {
  const char* key;        // lowercase, '_' for any separator
  const char* canonical;
  double bits;
  int rank;               // 2 method or llama.cpp type, 1 bare bit width, 0 dtype: the highest wins
  bool gguf_type;         // a llama.cpp type name: the file is GGUF/GGML
  const char* note;       // "" or an assumption to report
};

struct QuantHit {
  const QuantSpec* spec = nullptr;
  size_t pos = 0, len = 0;
  std::optional<double> bpw;  // "4.65bpw" (exllamav2 naming)
};

// The quant a name states (the name lower-cased), or none.
std::optional<QuantHit> find_quant(const std::string& low);

}  // namespace llmtriage::catalog::name_guess_detail
