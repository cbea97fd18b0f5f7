#include "fleet/picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace llmtriage::fleet {
namespace {
namespace picture {  // named: the module builds in unity batches

using Column = report::FleetPicture::Column;
using Cell = report::FleetPicture::Cell;

// One replica's readings at one step: gauges and counters summed over models and data-parallel
// engines, KV usage the fullest engine's; GPUs: the mean SM clock ratio (or MHz) and the power summed.
struct Step {
  std::optional<double> running, waiting, kv, finished, gen, clock_ratio, clock_mhz, power;
};

void add(std::optional<double>& into, const std::optional<double>& v) {
  if (v && std::isfinite(*v)) into = into.value_or(0) + *v;
}

std::map<double, Step> steps_of(const core::Evidence& ev) {
  std::map<double, Step> out;
  for (const auto& s : ev.engine_samples) {
    Step& st = out[s.t_s];
    add(st.running, s.running);
    add(st.waiting, s.waiting);
    if (s.kv_usage) st.kv = std::max(st.kv.value_or(0), *s.kv_usage);
    add(st.finished, s.requests_finished_total);
    add(st.gen, s.generation_tokens_total);
  }
  std::map<double, std::pair<int, int>> gpus;  // t -> (GPUs with a clock ratio, GPUs with a clock)
  for (const auto& g : ev.gpu_samples) {
    Step& st = out[g.t_s];
    auto& [nr, nm] = gpus[g.t_s];
    if (g.sm_clock_mhz && g.max_sm_clock_mhz && *g.max_sm_clock_mhz > 0) {
      add(st.clock_ratio, *g.sm_clock_mhz / *g.max_sm_clock_mhz);
      ++nr;
    }
    if (g.sm_clock_mhz) {
      add(st.clock_mhz, g.sm_clock_mhz);
      ++nm;
    }
    add(st.power, g.power_w);
  }
  for (auto& [t, n] : gpus) {
    Step& st = out[t];
    if (st.clock_ratio) *st.clock_ratio /= n.first;
    if (st.clock_mhz) *st.clock_mhz /= n.second;
  }
  return out;
}

double median_of(std::vector<double> v) { return robust_stats(std::move(v)).median; }

// Which column an outlier's indicator is drawn in.
std::string column_of(const std::string& indicator, bool clock_as_ratio) {
  if (indicator == "clock_ratio" || indicator == "sm_clock_mhz" || indicator.rfind("throttle_", 0) == 0)
    return clock_as_ratio ? "sm_clock_ratio" : "sm_clock_mhz";
  if (indicator == "power_ratio") return "power_w";
  if (indicator == "ttft_p99_s") return "ttft_p99";
  if (indicator == "tpot_p50_s") return "tpot_p50";
  if (indicator == "prefix_cache_hit_rate") return "prefix_hit";
  return indicator;  // waiting, kv_usage, request_rate
}

// The smallest difference from the median that matters in the column's unit: the spread a
// replica's distance is measured in never falls below it, so identical siblings (MAD 0) do not
// turn noise into distance. The same gaps as the fleet's outlier rules (analyze.cpp, kWatched);
// rates and power, which have none there, use fleet.outlier_min_rel's 25% of the median.
double floor_of(const std::string& id, double median) {
  if (id == "running") return 2;
  if (id == "waiting") return 5;
  if (id == "kv_usage" || id == "prefix_hit") return 0.1;
  if (id == "sm_clock_ratio") return 0.08;
  if (id == "sm_clock_mhz") return 100;
  if (id == "ttft_p99") return 0.2;
  if (id == "tpot_p50") return 0.005;
  return std::max(0.25 * std::fabs(median), 1e-9);  // request_rate, generation_tok_s, power_w
}

std::string z_text(double z) {
  return std::isinf(z) ? std::string(z > 0 ? "+inf" : "-inf") : fmt::format("{:+.1f}", z);
}

}  // namespace picture
}  // namespace

report::FleetPicture fleet_picture(const FleetEvidence& fe, const FleetDiagnosis& d) {
  using namespace picture;
  report::FleetPicture p;
  p.t0_unix_s = fe.start_s;
  p.t1_s = fe.end_s - fe.start_s;
  p.step_s = fe.step_s;

  std::vector<std::map<double, Step>> steps;
  bool any_ratio = false, all_ratio = true, any_mhz = false;
  for (const auto& r : fe.replicas) {
    steps.push_back(steps_of(r.now));
    for (const auto& [t, s] : steps.back()) {
      any_ratio = any_ratio || s.clock_ratio.has_value();
      any_mhz = any_mhz || s.clock_mhz.has_value();
      if (s.clock_mhz && !s.clock_ratio) all_ratio = false;
    }
  }
  // The clock as a share of the GPU's maximum when every GPU reports its maximum (GPUs of
  // different models then compare); dcgm-exporter's default counters lack it: MHz.
  const bool clock_ratio = any_ratio && all_ratio;

  // Columns: what the window holds per step, then what it holds only for the whole window.
  struct Spec {
    Column col;
    std::optional<double> (*at)(const Step&, const Step*, double dt);
  };
  std::vector<Spec> specs = {
      {{"running", "running", "requests", true, "num_requests_running (summed over models and engines) at each step"},
       [](const Step& s, const Step*, double) { return s.running; }},
      {{"waiting", "waiting", "requests", true, "num_requests_waiting at each step"},
       [](const Step& s, const Step*, double) { return s.waiting; }},
      {{"kv_usage", "KV usage", "fraction", true, "KV cache usage (the fullest engine) at each step"},
       [](const Step& s, const Step*, double) { return s.kv; }},
      {{"request_rate", "finished", "req/s", true,
        "increase of the finished-requests counter between steps / the step (none across a reset)"},
       [](const Step& s, const Step* p, double dt) -> std::optional<double> {
         if (!p || !s.finished || !p->finished || dt <= 0 || *s.finished < *p->finished) return std::nullopt;
         return (*s.finished - *p->finished) / dt;
       }},
      {{"generation_tok_s", "generated", "tok/s", true,
        "increase of the generation-tokens counter between steps / the step (none across a reset)"},
       [](const Step& s, const Step* p, double dt) -> std::optional<double> {
         if (!p || !s.gen || !p->gen || dt <= 0 || *s.gen < *p->gen) return std::nullopt;
         return (*s.gen - *p->gen) / dt;
       }},
  };
  if (clock_ratio)
    specs.push_back({{"sm_clock_ratio", "SM clock/max", "fraction", true, "DCGM SM clock / max SM clock, mean over the replica's GPUs"},
                     [](const Step& s, const Step*, double) { return s.clock_ratio; }});
  else if (any_mhz)
    specs.push_back({{"sm_clock_mhz", "SM clock", "MHz", true,
                      "DCGM SM clock, mean over the replica's GPUs (the store has no max clock: not a ratio)"},
                     [](const Step& s, const Step*, double) { return s.clock_mhz; }});
  specs.push_back({{"power_w", "GPU power", "W", true, "DCGM power, summed over the replica's GPUs"},
                   [](const Step& s, const Step*, double) { return s.power; }});
  const std::vector<std::pair<Column, std::string>> window_cols = {
      {{"ttft_p99", "TTFT p99", "s", false, "the TTFT histogram's difference over the window (its two ends), p99"}, "ttft_p99_s"},
      {{"tpot_p50", "TPOT p50", "s", false, "the per-request TPOT histogram's difference over the window, p50"}, "tpot_p50_s"},
      {{"prefix_hit", "prefix hit", "fraction", false, "prefix-cache hits / queries over the window"}, "prefix_cache_hit_rate"},
  };

  std::map<std::string, const ReplicaDiagnosis*> diag;
  for (const auto& r : d.replicas) diag[r.replica] = &r;
  // Rows, cells by spec, then the window columns.
  std::vector<report::FleetPicture::Row> rows(fe.replicas.size());
  std::vector<bool> spec_has(specs.size(), false), win_has(window_cols.size(), false);
  for (size_t i = 0; i < fe.replicas.size(); ++i) {
    auto& row = rows[i];
    row.replica = fe.replicas[i].replica;
    for (size_t c = 0; c < specs.size(); ++c) {
      Cell cell;
      const Step* prev = nullptr;
      double prev_t = 0, sum = 0;
      for (const auto& [t, s] : steps[i]) {
        if (auto v = specs[c].at(s, prev, t - prev_t); v && std::isfinite(*v)) {
          cell.t_s.push_back(t - p.t0_unix_s);
          cell.v.push_back(*v);
          sum += *v;
        }
        prev = &s;
        prev_t = t;
      }
      if (!cell.v.empty()) {
        cell.value = sum / static_cast<double>(cell.v.size());
        spec_has[c] = true;
      }
      row.cells.push_back(std::move(cell));
    }
    const auto it = diag.find(row.replica);
    for (size_t c = 0; c < window_cols.size(); ++c) {
      Cell cell;
      if (it != diag.end())
        if (auto v = it->second->indicators.get(window_cols[c].second)) {
          cell.value = *v;
          win_has[c] = true;
        }
      row.cells.push_back(std::move(cell));
    }
    if (it != diag.end()) row.differs = it->second->differs;
  }
  // Keep the columns some replica has a reading for.
  std::vector<size_t> keep;
  for (size_t c = 0; c < specs.size(); ++c)
    if (spec_has[c]) keep.push_back(c), p.columns.push_back(specs[c].col);
  for (size_t c = 0; c < window_cols.size(); ++c)
    if (win_has[c]) keep.push_back(specs.size() + c), p.columns.push_back(window_cols[c].first);
  for (auto& row : rows) {
    std::vector<Cell> cells;
    for (size_t k : keep) cells.push_back(std::move(row.cells[k]));
    row.cells = std::move(cells);
  }
  for (size_t c = 0; c < specs.size(); ++c)
    if (!spec_has[c]) p.notes.push_back("no " + specs[c].col.label + " column: no replica has " + specs[c].col.from);
  if (!win_has[0])
    p.notes.push_back("no TTFT p99 column: the store returned no TTFT histogram for the window's two ends");
  p.notes.push_back(
      "latency quantiles are one number per replica for the whole window: the store is asked for the histograms at the "
      "window's two ends only (docs/fleet.md), so no latency sparkline is drawn");

  auto col_index = [&](const std::string& id) -> std::optional<size_t> {
    for (size_t c = 0; c < p.columns.size(); ++c)
      if (p.columns[c].id == id) return c;
    return std::nullopt;
  };
  // The fleet analysis' outliers in their cells.
  for (const auto& o : d.outliers)
    for (auto& row : rows)
      if (row.replica == o.replica)
        if (auto c = col_index(column_of(o.indicator, clock_ratio))) {
          Cell& cell = row.cells[*c];
          cell.outlier = true;
          cell.outlier_text += (cell.outlier_text.empty() ? "" : "; ") +
                               fmt::format("outlier: {} {:.4g} {} vs fleet median {:.4g} (robust z {})", o.indicator, o.value,
                                           o.unit, o.median, z_text(o.robust_z));
          row.differs = true;
        }
  // Fleet findings that name a replica (their evidence comes from "<replica>: ..."): the row lists
  // them; imbalance and lost affinity also mark the cell of the reading they rest on.
  // A fleet-wide pattern (most replicas share it) is said once with the first replica's evidence:
  // it names no replica in particular.
  for (const auto& f : d.verdict.findings) {
    if (std::find(d.fleet_wide_ids.begin(), d.fleet_wide_ids.end(), f.id) != d.fleet_wide_ids.end()) continue;
    for (auto& row : rows) {
      bool named = false;
      for (const auto& e : f.evidence)
        if (e.source.rfind(row.replica + ": ", 0) == 0) {
          named = true;
          const std::string id = f.id == "load_imbalance" && e.indicator == "request_rate" ? "request_rate"
                                 : f.id == "prefix_affinity_lost" && e.indicator == "prefix_cache_hit_rate" ? "prefix_hit"
                                                                                                             : "";
          if (auto c = id.empty() ? std::nullopt : col_index(id); c && !row.cells[*c].outlier) {
            row.cells[*c].outlier = true;
            row.cells[*c].outlier_text = f.id + ": " + f.title;
          }
        }
      if (named && std::find(row.findings.begin(), row.findings.end(), f.id) == row.findings.end()) {
        row.findings.push_back(f.id);
        row.differs = true;
      }
    }
  }

  // The fleet median per column: at each step (sparklines), and of the window values (distance).
  p.median.resize(p.columns.size());
  for (size_t c = 0; c < p.columns.size(); ++c) {
    if (p.columns[c].sparkline) {
      std::map<double, std::vector<double>> at;
      for (const auto& row : rows)
        for (size_t k = 0; k < row.cells[c].t_s.size(); ++k) at[row.cells[c].t_s[k]].push_back(row.cells[c].v[k]);
      for (auto& [t, vs] : at) {
        p.median[c].t_s.push_back(t);
        p.median[c].v.push_back(median_of(std::move(vs)));
      }
    }
    std::vector<double> vals;
    for (const auto& row : rows)
      if (row.cells[c].value) vals.push_back(*row.cells[c].value);
    if (vals.empty()) continue;
    const RobustStats s = robust_stats(vals);
    p.median[c].value = s.median;
    // Distance in robust standard deviations (1.4826 MAD estimates sigma for normal data), the
    // spread floored at the smallest difference that matters.
    const double spread = std::max(1.4826 * s.mad, floor_of(p.columns[c].id, s.median));
    for (auto& row : rows)
      if (row.cells[c].value) {
        const double z = std::fabs(*row.cells[c].value - s.median) / spread;
        if (z > row.distance + 1e-12) row.distance = z, row.farthest = p.columns[c].id;
      }
  }
  // A distance below 1 is within the fleet's own spread: said as "at the median".
  for (auto& row : rows)
    if (row.distance < 1) row.farthest.clear();
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.differs != b.differs) return a.differs;
    if (a.distance != b.distance) return a.distance > b.distance;
    return a.replica < b.replica;
  });
  p.rows = std::move(rows);
  return p;
}

}  // namespace llmtriage::fleet
