// Plain-text inputs (inputs/text_files.h): sampled outputs in every shape, NAME=VALUE readings.
#include "inputs/text_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
namespace in = llmtriage::inputs;

namespace {

const std::string kCliData = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/diagnose_cli";

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("llmtriage-inputs-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST(InputsTextFiles, OutputsInEveryShapeAreRead) {
  auto texts = in::read_outputs_file(kCliData + "/outputs.jsonl");
  ASSERT_TRUE(texts.ok()) << texts.error().message();
  ASSERT_EQ(texts->size(), 4u);
  EXPECT_EQ((*texts)[0], "Paris is the capital of France.<|im_end|>\n<|im_start|>user\nWhat about Spain?");
  EXPECT_EQ((*texts)[1], "<|im_start|>assistant\nMadrid.<|im_end|>");
  EXPECT_EQ((*texts)[2], "The answer is 42.<|im_end|><|im_start|>user");
  EXPECT_EQ((*texts)[3], "a plain line of text, not JSON");
}

TEST(InputsTextFiles, OutputsFileMissingIsAnErrorNamingIt) {
  auto texts = in::read_outputs_file("/nonexistent/outputs.txt");
  ASSERT_FALSE(texts.ok());
  EXPECT_NE(texts.error().message().find("/nonexistent/outputs.txt"), std::string::npos) << texts.error().message();
}

TEST(InputsTextFiles, ReadingsKeepFileAndLineAndDropComments) {
  const fs::path a = write_temp("a.txt", "# dashboard at 03:10\n\n  gateway_timeout_s=30  # nginx\r\nttft_p99_s=45\n");
  const fs::path b = write_temp("b.txt", "# nothing but a comment\n");
  std::vector<llmtriage::core::InputNote> notes;
  const auto r = in::read_readings_files({a.string(), b.string(), "/nonexistent/readings.txt"}, notes);
  fs::remove(a);
  fs::remove(b);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].where, a.string() + ":3");
  EXPECT_EQ(r[0].text, "gateway_timeout_s=30");
  EXPECT_EQ(r[1].where, a.string() + ":4");
  EXPECT_EQ(r[1].text, "ttft_p99_s=45");
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_TRUE(notes[0].ok);
  EXPECT_EQ(notes[0].note, "2 readings");
  EXPECT_FALSE(notes[1].ok);
  EXPECT_EQ(notes[1].note, "no NAME=VALUE line in it");
  EXPECT_FALSE(notes[2].ok);
  EXPECT_EQ(notes[2].source, "/nonexistent/readings.txt");
  EXPECT_EQ(notes[2].note.find("/nonexistent/readings.txt: "), std::string::npos) << "the path is not repeated: " << notes[2].note;
}
