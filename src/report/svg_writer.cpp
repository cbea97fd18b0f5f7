#include "report/svg_writer.h"

#include <fmt/format.h>

#include <cassert>
#include <cmath>

namespace llmtriage::report {

std::string xml_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string px(double v) {
  if (!std::isfinite(v)) v = 0;
  const double r = std::round(v * 10) / 10;
  return fmt::format("{:g}", r == 0 ? 0.0 : r);
}

namespace {
std::string extra(std::string_view attrs) { return attrs.empty() ? std::string() : " " + std::string(attrs); }
}  // namespace

Svg::Svg(double width, double height, std::string_view cls, std::string_view label) {
  out_ = fmt::format(
      "<svg class=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "role=\"img\" aria-label=\"{}\">",
      xml_escape(cls), px(width), px(height), px(width), px(height), xml_escape(label));
}

void Svg::rect(double x, double y, double w, double h, std::string_view cls, std::string_view attrs) {
  out_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"{}\"{}/>", px(x), px(y),
                      px(std::max(0.0, w)), px(std::max(0.0, h)), xml_escape(cls), extra(attrs));
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view cls, std::string_view attrs) {
  out_ += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{}\"{}/>", px(x1), px(y1), px(x2),
                      px(y2), xml_escape(cls), extra(attrs));
}

void Svg::text(double x, double y, std::string_view s, std::string_view cls, std::string_view anchor) {
  out_ += fmt::format("<text x=\"{}\" y=\"{}\" class=\"{}\" text-anchor=\"{}\">{}</text>", px(x), px(y),
                      xml_escape(cls), xml_escape(anchor), xml_escape(s));
}

void Svg::polyline(std::span<const Point> points, std::string_view cls, std::string_view attrs) {
  if (points.empty()) return;
  std::string pts;
  pts.reserve(points.size() * 12);
  for (const auto& p : points) {
    if (!pts.empty()) pts += ' ';
    pts += px(p.x);
    pts += ',';
    pts += px(p.y);
  }
  out_ += fmt::format("<polyline points=\"{}\" class=\"{}\"{}/>", pts, xml_escape(cls), extra(attrs));
}

void Svg::circle(double cx, double cy, double r, std::string_view cls, std::string_view attrs, std::string_view title) {
  out_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" class=\"{}\"{}", px(cx), px(cy), px(r), xml_escape(cls),
                      extra(attrs));
  if (title.empty()) {
    out_ += "/>";
  } else {
    out_ += fmt::format("><title>{}</title></circle>", xml_escape(title));
  }
}

void Svg::open_group(std::string_view cls, std::string_view attrs) {
  out_ += fmt::format("<g class=\"{}\"{}>", xml_escape(cls), extra(attrs));
  ++open_groups_;
}

void Svg::close_group() {
  assert(open_groups_ > 0);
  out_ += "</g>";
  --open_groups_;
}

void Svg::title(std::string_view s) { out_ += fmt::format("<title>{}</title>", xml_escape(s)); }

void Svg::open_defs() { out_ += "<defs>"; }
void Svg::close_defs() { out_ += "</defs>"; }

void Svg::use(std::string_view id, double dx, double dy, std::string_view cls) {
  out_ += fmt::format("<use href=\"#{}\" x=\"{}\" y=\"{}\" class=\"{}\"/>", xml_escape(id), px(dx), px(dy), xml_escape(cls));
}

void Svg::clip_rect(std::string_view id, double x, double y, double w, double h) {
  out_ += fmt::format("<clipPath id=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>", xml_escape(id), px(x),
                      px(y), px(w), px(h));
}

std::string Svg::finish() {
  while (open_groups_ > 0) close_group();
  out_ += "</svg>";
  return std::move(out_);
}

void x_axis(Svg& svg, const Frame& f, const Scale& sx, std::span<const double> ticks, const std::string& unit) {
  svg.line(f.left, f.bottom(), f.right(), f.bottom(), "axis");
  for (double t : ticks) {
    const double x = sx(t);
    svg.line(x, f.top, x, f.bottom(), "grid");
    svg.line(x, f.bottom(), x, f.bottom() + 4, "axis");
    svg.text(x, f.bottom() + 16, tick_label(t, unit), "tick", "middle");
  }
}

void y_axis(Svg& svg, const Frame& f, const Scale& sy, std::span<const double> ticks, const std::string& unit) {
  svg.line(f.left, f.top, f.left, f.bottom(), "axis");
  for (double t : ticks) {
    const double y = sy(t);
    svg.line(f.left, y, f.right(), y, "grid");
    svg.line(f.left - 4, y, f.left, y, "axis");
    svg.text(f.left - 7, y + 4, tick_label(t, unit), "tick", "end");
  }
}

}  // namespace llmtriage::report
