#pragma once
// Axes for the HTML report's charts: a scale from data to pixels (linear or log10), "nice" tick
// values (1-2-5 steps; decades on a log axis), tick labels in the data's unit, and min/max
// decimation per pixel column so a chart of 100k requests stays a few KB of SVG.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace llmtriage::report {

// Data value -> pixel. A log scale maps log10(v); values <= 0 there are clamped to the domain's
// lower end (callers leave them out and say so). A degenerate domain (d0 == d1) maps to r0.
struct Scale {
  double d0 = 0, d1 = 1;  // domain (data units)
  double r0 = 0, r1 = 1;  // range (pixels; r0 > r1 for a y axis pointing up)
  bool log = false;
  double operator()(double v) const;
};

// Linear ticks: multiples of a step in {1, 2, 5} x 10^k, the step chosen so that about `target`
// ticks fall in [lo, hi]; every tick lies within [lo, hi] (endpoints included when they are
// multiples). lo > hi is swapped; lo == hi gives {lo}. Non-finite input gives {}.
std::vector<double> nice_ticks(double lo, double hi, int target = 5);

// [lo, hi] widened to the enclosing multiples of the nice step (an axis that ends on a tick).
// lo == hi widens to a unit around it (0 -> [0, 1]).
struct Range {
  double lo = 0, hi = 1;
};
Range nice_range(double lo, double hi, int target = 5);

// Log ticks for 0 < lo < hi: every power of ten within [lo, hi]; over fewer than two decades also
// 2x and 5x each power (a narrow axis still gets a few labels). Empty when lo <= 0.
std::vector<double> log_ticks(double lo, double hi);
// [lo, hi] widened outwards to powers of ten (lo == hi: one decade around it). lo must be > 0.
Range log_range(double lo, double hi);

// A tick label in the unit: "s" -> "250 ms" / "1.5 s" / "2 min"; "fraction" -> "40%";
// "MHz", "W", "tok/s", "requests" -> "1.2k tok/s"-style short numbers with the unit; "" -> number.
std::string tick_label(double value, const std::string& unit);

struct Point {
  double x = 0, y = 0;
};

// Min/max decimation (M4): points in pixel space, sorted by x, are grouped by pixel column
// (floor(x)); each column keeps its first, lowest, highest and last point, in x order, so a line
// through them has the same envelope on screen as a line through all of them. A column of at most
// four points is kept whole. Unsorted input is a programming error (asserted).
std::vector<Point> decimate_minmax(std::span<const Point> points);
// The same, as the indices of the points kept (ascending): for callers that keep data values.
std::vector<size_t> decimate_minmax_indices(std::span<const Point> points);

}  // namespace llmtriage::report
