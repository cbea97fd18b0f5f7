#pragma once
// A small SVG writer for the HTML report's charts: elements appended as text, every attribute
// and text escaped, numbers written with one decimal (pixels), and the axes every chart shares
// (ticks from svg_scale.h, gridlines, labels). Styling is by class (src/report/html/report.css),
// so the same SVG reads in print and with JS off.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "report/svg_scale.h"

namespace llmtriage::report {

// & < > " ' escaped for text and attribute values.
std::string xml_escape(std::string_view s);

// The plot area inside a chart, in pixels.
struct Frame {
  double left = 0, top = 0, width = 0, height = 0;
  double right() const { return left + width; }
  double bottom() const { return top + height; }
};

class Svg {
 public:
  // `cls` is the class of the root element ("chart timeline-lane"); `label` its accessible name.
  Svg(double width, double height, std::string_view cls, std::string_view label);
  // Raw attributes are written as given ("data-series=\"kv\""): callers escape values they take
  // from input.
  void rect(double x, double y, double w, double h, std::string_view cls, std::string_view attrs = {});
  void line(double x1, double y1, double x2, double y2, std::string_view cls, std::string_view attrs = {});
  // anchor: "start", "middle", "end".
  void text(double x, double y, std::string_view s, std::string_view cls, std::string_view anchor = "start");
  // A polyline through the points (pixel space); nothing for fewer than one point.
  void polyline(std::span<const Point> points, std::string_view cls, std::string_view attrs = {});
  void circle(double cx, double cy, double r, std::string_view cls, std::string_view attrs = {},
              std::string_view title = {});
  void open_group(std::string_view cls, std::string_view attrs = {});
  void close_group();
  void title(std::string_view s);  // a <title> child: the tooltip without JS
  // <defs>: what is drawn inside is only referenced (by `use`), not drawn.
  void open_defs();
  void close_defs();
  // <use href="#id" x y>: the element with that id drawn again, moved by (dx, dy).
  void use(std::string_view id, double dx, double dy, std::string_view cls);
  // <clipPath id="id"><rect/></clipPath>: a group with clip-path="url(#id)" draws only inside it.
  void clip_rect(std::string_view id, double x, double y, double w, double h);
  std::string finish();            // closes the root element

 private:
  std::string out_;
  int open_groups_ = 0;
};

// A value written as an SVG coordinate ("12.5").
std::string px(double v);

// Axes: the x axis along the frame's bottom with labels under it, the y axis along the left with
// labels before it; each tick also draws a light gridline across the frame.
void x_axis(Svg& svg, const Frame& f, const Scale& sx, std::span<const double> ticks, const std::string& unit);
void y_axis(Svg& svg, const Frame& f, const Scale& sy, std::span<const double> ticks, const std::string& unit);

}  // namespace llmtriage::report
