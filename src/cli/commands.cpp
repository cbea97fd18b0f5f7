#include "cli/commands.h"

namespace llmtriage::cli {

// Declarations of the make_*_command() factories, one per <name>_cmd.cpp.
Command make_sim_run_command();
Command make_sim_serve_command();
Command make_sim_calibrate_command();
Command make_ledger_command();
Command make_snapshot_command();
Command make_snapshot_show_command();
Command make_records_summary_command();
Command make_bench_command();
Command make_capacity_command();
Command make_ab_command();
Command make_diagnose_command();
Command make_drill_command();
Command make_rules_command();
Command make_fleet_command();
Command make_report_command();
Command make_top_command();

std::vector<Command> all_commands() {
  std::vector<Command> c;
  c.push_back(make_sim_run_command());
  c.push_back(make_sim_serve_command());
  c.push_back(make_sim_calibrate_command());
  c.push_back(make_ledger_command());
  c.push_back(make_snapshot_command());
  c.push_back(make_snapshot_show_command());
  c.push_back(make_records_summary_command());
  c.push_back(make_bench_command());
  c.push_back(make_capacity_command());
  c.push_back(make_ab_command());
  c.push_back(make_diagnose_command());
  c.push_back(make_drill_command());
  c.push_back(make_rules_command());
  c.push_back(make_fleet_command());
  c.push_back(make_report_command());
  c.push_back(make_top_command());
  return c;
}

}  // namespace llmtriage::cli
