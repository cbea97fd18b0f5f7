// The SVG writer: escaping, coordinates, and a golden small chart (axes, a line, a dot) so a
// change to the drawing shows up as a diff here.
#include <gtest/gtest.h>

#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

TEST(SvgWriter, EscapesTextAndAttributes) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  Svg s(10, 10, "chart \"x\"", "<label>");
  s.text(1, 2, "</svg><script>", "tick");
  const std::string out = s.finish();
  EXPECT_EQ(out.find("<script>"), std::string::npos);
  EXPECT_NE(out.find("&lt;/svg&gt;&lt;script&gt;"), std::string::npos);
  EXPECT_NE(out.find("class=\"chart &quot;x&quot;\""), std::string::npos);
}

TEST(SvgWriter, CoordinatesOneDecimal) {
  EXPECT_EQ(px(12.345), "12.3");
  EXPECT_EQ(px(12.35), "12.4");
  EXPECT_EQ(px(-0.04), "0");  // no "-0"
  EXPECT_EQ(px(100), "100");
  EXPECT_EQ(px(1.0 / 0.0), "0");  // a non-finite coordinate never reaches the file
}

TEST(SvgWriter, GroupsCloseAtFinish) {
  Svg s(10, 10, "c", "l");
  s.open_group("a");
  s.open_group("b");
  s.close_group();
  const std::string out = s.finish();
  EXPECT_EQ(out, "<svg class=\"c\" width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" role=\"img\" aria-label=\"l\">"
                 "<g class=\"a\"><g class=\"b\"></g></g></svg>");
}

TEST(SvgWriter, GoldenSmallChart) {
  Svg s(120, 60, "chart", "golden");
  const Frame f{20, 5, 90, 40};
  const Scale sx{0, 10, f.left, f.right()}, sy{0, 1, f.bottom(), f.top};
  const std::vector<double> xt = {0, 5, 10}, yt = {0, 1};
  y_axis(s, f, sy, yt, "fraction");
  x_axis(s, f, sx, xt, "s");
  const std::vector<Point> line = {{sx(0), sy(0.25)}, {sx(5), sy(0.5)}, {sx(10), sy(1)}};
  s.polyline(line, "line s0", "data-series=\"kv\"");
  s.circle(sx(5), sy(0.5), 2, "dot", {}, "KV usage 50% at 5 s");
  EXPECT_EQ(s.finish(),
            "<svg class=\"chart\" width=\"120\" height=\"60\" viewBox=\"0 0 120 60\" role=\"img\" aria-label=\"golden\">"
            "<line x1=\"20\" y1=\"5\" x2=\"20\" y2=\"45\" class=\"axis\"/>"
            "<line x1=\"20\" y1=\"45\" x2=\"110\" y2=\"45\" class=\"grid\"/>"
            "<line x1=\"16\" y1=\"45\" x2=\"20\" y2=\"45\" class=\"axis\"/>"
            "<text x=\"13\" y=\"49\" class=\"tick\" text-anchor=\"end\">0%</text>"
            "<line x1=\"20\" y1=\"5\" x2=\"110\" y2=\"5\" class=\"grid\"/>"
            "<line x1=\"16\" y1=\"5\" x2=\"20\" y2=\"5\" class=\"axis\"/>"
            "<text x=\"13\" y=\"9\" class=\"tick\" text-anchor=\"end\">100%</text>"
            "<line x1=\"20\" y1=\"45\" x2=\"110\" y2=\"45\" class=\"axis\"/>"
            "<line x1=\"20\" y1=\"5\" x2=\"20\" y2=\"45\" class=\"grid\"/>"
            "<line x1=\"20\" y1=\"45\" x2=\"20\" y2=\"49\" class=\"axis\"/>"
            "<text x=\"20\" y=\"61\" class=\"tick\" text-anchor=\"middle\">0 s</text>"
            "<line x1=\"65\" y1=\"5\" x2=\"65\" y2=\"45\" class=\"grid\"/>"
            "<line x1=\"65\" y1=\"45\" x2=\"65\" y2=\"49\" class=\"axis\"/>"
            "<text x=\"65\" y=\"61\" class=\"tick\" text-anchor=\"middle\">5 s</text>"
            "<line x1=\"110\" y1=\"5\" x2=\"110\" y2=\"45\" class=\"grid\"/>"
            "<line x1=\"110\" y1=\"45\" x2=\"110\" y2=\"49\" class=\"axis\"/>"
            "<text x=\"110\" y=\"61\" class=\"tick\" text-anchor=\"middle\">10 s</text>"
            "<polyline points=\"20,35 65,25 110,5\" class=\"line s0\" data-series=\"kv\"/>"
            "<circle cx=\"65\" cy=\"25\" r=\"2\" class=\"dot\"><title>KV usage 50% at 5 s</title></circle>"
            "</svg>");
}

}  // namespace
}  // namespace llmtriage::report
