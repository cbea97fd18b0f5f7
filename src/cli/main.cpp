#include <iostream>

#include "cli/app.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return llmtriage::cli::run_app(llmtriage::cli::all_commands(), argc, argv, std::cout, std::cerr);
}
