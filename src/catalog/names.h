#pragma once
// Name matching shared by the GPU and model catalogs: normalization and "did you mean".
#include <string>
#include <vector>

namespace llmtriage::catalog {

// Lowercase; spaces, '_' and '-' collapse to one '-'; vendor words (nvidia, amd, geforce,
// tesla, instinct) and a trailing parenthesized note ("(80 GB)") are dropped.
std::string normalize_gpu_name(const std::string& name);

// Lowercase; '_' and ' ' become '-'. Keeps the org/ prefix.
std::string normalize_model_id(const std::string& id);

// Whether two model names denote the same model: ids compared normalized, and a local path or a
// served name compared by its last component ("/models/Llama-3.1-8B" == "meta-llama/Llama-3.1-8B").
bool same_model(const std::string& a, const std::string& b);

// Edit distance (Levenshtein), for "closest names" hints.
size_t edit_distance(const std::string& a, const std::string& b);

// Up to `n` candidates closest to `query` (both compared normalized by the caller), best first;
// candidates containing the query or contained in it rank first.
std::vector<std::string> closest(const std::string& query, const std::vector<std::string>& candidates,
                                 size_t n = 3);

}  // namespace llmtriage::catalog
