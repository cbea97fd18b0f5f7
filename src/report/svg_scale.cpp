#include "report/svg_scale.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace llmtriage::report {

double Scale::operator()(double v) const {
  double a = d0, b = d1, x = v;
  if (log) {
    a = std::log10(std::max(d0, 1e-300));
    b = std::log10(std::max(d1, 1e-300));
    x = v > 0 ? std::log10(v) : a;
  }
  if (b == a) return r0;
  return r0 + (x - a) / (b - a) * (r1 - r0);
}

namespace {

// The 1-2-5 step giving about `target` intervals over `span`.
double nice_step(double span, int target) {
  const double raw = span / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  const double m = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
  return m * mag;
}

// Rounds away float noise (0.30000000000000004 -> 0.3): to one decimal below the step's, by
// dividing an integer by a power of ten, which gives the double nearest the decimal value.
double clean(double v, double step) {
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(step))), 0, 15);
  const double p = std::pow(10.0, decimals);
  const double r = std::round(v * p) / p;
  return r == 0 ? 0.0 : r;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) return {lo};
  const double step = nice_step(hi - lo, target);
  const double eps = step * 1e-9;
  std::vector<double> t;
  for (double k = std::ceil((lo - eps) / step); k * step <= hi + eps; k += 1) t.push_back(clean(k * step, step));
  return t;
}

Range nice_range(double lo, double hi, int target) {
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) return lo == 0 ? Range{0, 1} : Range{std::min(0.0, lo * 2), std::max(0.0, hi * 2)};
  const double step = nice_step(hi - lo, target);
  return {clean(std::floor(lo / step + 1e-9) * step, step), clean(std::ceil(hi / step - 1e-9) * step, step)};
}

std::vector<double> log_ticks(double lo, double hi) {
  if (!(lo > 0) || !(hi > 0) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  const int e0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int e1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  const bool narrow = std::log10(hi) - std::log10(lo) < 2;
  std::vector<double> t;
  for (int e = e0; e <= e1; ++e) {
    const double p = std::pow(10.0, e);
    for (double m : {1.0, 2.0, 5.0}) {
      if (m != 1 && !narrow) continue;
      const double v = m * p;
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
    }
  }
  return t;
}

Range log_range(double lo, double hi) {
  assert(lo > 0 && hi > 0);
  if (lo > hi) std::swap(lo, hi);
  double a = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
  double b = std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
  if (a == b) b = a * 10;
  return {a, b};
}

namespace {

std::string svg_number(double v) {
  const double a = std::abs(v);
  if (a >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

}  // namespace

std::string tick_label(double v, const std::string& unit) {
  if (v == 0) return unit == "fraction" ? "0%" : unit == "s" ? "0 s" : "0";
  if (unit == "s") {
    const double a = std::abs(v);
    if (a < 1e-3) return fmt::format("{:g} µs", v * 1e6);
    if (a < 1) return fmt::format("{:g} ms", v * 1e3);
    return fmt::format("{:g} s", v);
  }
  if (unit == "fraction") return fmt::format("{:g}%", v * 100);
  if (unit.empty()) return svg_number(v);
  return svg_number(v) + " " + unit;
}

std::vector<size_t> decimate_minmax_indices(std::span<const Point> points) {
  std::vector<size_t> out;
  size_t i = 0;
  while (i < points.size()) {
    const double col = std::floor(points[i].x);
    size_t j = i, lo = i, hi = i;
    while (j < points.size() && std::floor(points[j].x) == col) {
      assert(j == i || points[j].x >= points[j - 1].x);
      if (points[j].y < points[lo].y) lo = j;
      if (points[j].y > points[hi].y) hi = j;
      ++j;
    }
    assert(j == points.size() || points[j].x >= points[j - 1].x);
    if (j - i <= 4) {
      for (size_t k = i; k < j; ++k) out.push_back(k);
    } else {
      // first, lowest/highest in x order, last; consecutive duplicates dropped
      for (size_t k : {i, std::min(lo, hi), std::max(lo, hi), j - 1})
        if (out.empty() || out.back() != k) out.push_back(k);
    }
    i = j;
  }
  return out;
}

std::vector<Point> decimate_minmax(std::span<const Point> points) {
  std::vector<Point> out;
  for (size_t k : decimate_minmax_indices(points)) out.push_back(points[k]);
  return out;
}

}  // namespace llmtriage::report
