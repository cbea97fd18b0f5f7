// Secrets never reach a snapshot: URL user info and secret query values, engine-args secrets.
#include "collect/redact.h"

#include <gtest/gtest.h>

using namespace llmtriage::collect;

TEST(Redact, UrlUserInfoAndSecretQueryValues) {
  EXPECT_EQ(redact_url_secrets("http://user:pw@h:8000/metrics?token=abc&x=1&api_key=k"),
            "http://h:8000/metrics?token=<redacted>&x=1&api_key=<redacted>");
  EXPECT_EQ(redact_url_secrets("http://h:8000/metrics"), "http://h:8000/metrics");
  EXPECT_EQ(redact_url_secrets("https://a@h"), "https://h");
}

TEST(Redact, EngineArgsSecretFlagsAndTokensButNotTokenCounts) {
  EXPECT_EQ(redact_args_secrets("vllm serve m --api-key sk-secret-123456789 --max-num-batched-tokens 8192"),
            "vllm serve m --api-key <redacted> --max-num-batched-tokens 8192");
  EXPECT_EQ(redact_args_secrets("--hf-token=hf_abcdefghijklmnopqrstuvwx --tokenizer t --max-model-len 4096"),
            "--hf-token=<redacted> --tokenizer t --max-model-len 4096");
  EXPECT_EQ(redact_args_secrets("HF_TOKEN=hf_abcdefghijklmnopqrstuvwx python -m sglang.launch_server"),
            "HF_TOKEN=<redacted> python -m sglang.launch_server");
  EXPECT_EQ(redact_args_secrets("-H 'Authorization: Bearer abcdef' x"), "-H 'Authorization: Bearer <redacted>' x");
  EXPECT_EQ(redact_args_secrets("--model m --served-model-name a"), "--model m --served-model-name a");
}

TEST(Redact, ContainsSecretSpotsBearerTokensAndTheGivenKey) {
  EXPECT_TRUE(contains_secret("Authorization: Bearer xyz"));
  EXPECT_TRUE(contains_secret("the key sk-12345 leaked", "sk-12345"));
  EXPECT_FALSE(contains_secret("Bearer <redacted>"));
  EXPECT_FALSE(contains_secret("vllm:num_requests_running 3"));
}
