#pragma once
// Runs a shell command line to completion (popen, so /bin/sh: quote paths; redirections such as
// 2>&1 or 2>FILE work) and returns its exit status and everything it wrote to stdout. The CLI
// black-box tests build `LLMTRIAGE_BINARY + " " + args` command lines with it.
#include <string>

namespace llmtriage::shell_test {

struct ShellRun {
  int code = -1;  // exit status; -1 if it could not be started or did not exit normally
  std::string out;
};

ShellRun run_shell(const std::string& command);

}  // namespace llmtriage::shell_test
