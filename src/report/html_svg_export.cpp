// The page's charts as standalone SVG files. Drawn once, by the page (render_html): each
// `<svg class="chart ...">` of the page body is taken as it is and made a document of its own —
// namespace, XML declaration, a white background, and the style rules that apply to SVG copied
// from report.css with its custom properties replaced by their values (an image viewer or a
// document converter may not know CSS variables). Input text in the charts is already escaped
// for XML by the SVG writer.
#include <fmt/format.h>

#include <map>
#include <string_view>

#include "report/html_chart.h"
#include "report/html_report.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {
namespace svg_export {  // named: the module builds in unity batches

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// report.css's rules for SVG elements, custom properties resolved. Top-level rules only: an
// at-rule block (@media print) is skipped whole.
std::string svg_css() {
  const std::string_view css = page_css();
  std::map<std::string, std::string, std::less<>> vars;
  std::vector<std::pair<std::string_view, std::string_view>> rules;  // selector, declarations
  size_t i = 0;
  while (i < css.size()) {
    const size_t open = css.find('{', i);
    if (open == std::string_view::npos) break;
    std::string_view selector = css.substr(i, open - i);
    // Comments before the selector.
    while (true) {
      const size_t c = selector.find("/*");
      if (c == std::string_view::npos) break;
      const size_t e = selector.find("*/", c);
      selector = e == std::string_view::npos ? selector.substr(0, c) : selector.substr(e + 2);
    }
    selector = trim(selector);
    int depth = 1;
    size_t j = open + 1;
    for (; j < css.size() && depth > 0; ++j) {
      if (css[j] == '{') ++depth;
      if (css[j] == '}') --depth;
    }
    const std::string_view body = css.substr(open + 1, j - open - 2);
    i = j;
    if (selector.starts_with("@")) continue;
    if (selector == ":root") {
      for (size_t k = 0; k < body.size();) {
        const size_t semi = std::min(body.find(';', k), body.size());
        const std::string_view decl = trim(body.substr(k, semi - k));
        if (const size_t colon = decl.find(':'); decl.starts_with("--") && colon != std::string_view::npos)
          vars.emplace(std::string(trim(decl.substr(0, colon))), std::string(trim(decl.substr(colon + 1))));
        k = semi + 1;
      }
      continue;
    }
    if (selector.find("svg") != std::string_view::npos) rules.emplace_back(selector, body);
  }
  std::string out = "svg { font: 11px system-ui, -apple-system, \"Segoe UI\", Roboto, \"DejaVu Sans\", sans-serif; }\n";
  for (const auto& [sel, body] : rules) {
    std::string b(body);
    for (size_t p = b.find("var(--"); p != std::string::npos; p = b.find("var(--", p)) {
      const size_t close = b.find(')', p);
      if (close == std::string::npos) break;
      const auto it = vars.find(std::string_view(b).substr(p + 4, close - p - 4));
      const std::string value = it == vars.end() ? "currentColor" : it->second;
      b.replace(p, close + 1 - p, value);
      p += value.size();
    }
    out += fmt::format("{} {{ {} }}\n", sel, trim(b));
  }
  return out;
}

// The value of attribute `name` in the tag starting at `tag` ("" when absent).
std::string attribute(std::string_view tag, std::string_view name) {
  const std::string key = " " + std::string(name) + "=\"";
  const size_t a = tag.find(key);
  if (a == std::string_view::npos) return "";
  const size_t b = tag.find('"', a + key.size());
  return std::string(tag.substr(a + key.size(), b - a - key.size()));
}

// The legend entries (legend_item: a swatch of the series' class, then its name) in `html`.
std::vector<std::pair<std::string, std::string>> legend_entries(std::string_view html) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string_view open = "<span class=\"swatch ";
  for (size_t at = html.find(open); at != std::string_view::npos; at = html.find(open, at + 1)) {
    const size_t cls_end = html.find('"', at + open.size());
    const size_t label_at = html.find("</span>", cls_end), label_end = html.find("</button>", cls_end);
    if (label_at == std::string_view::npos || label_end == std::string_view::npos || label_at > label_end) continue;
    out.emplace_back(std::string(html.substr(at + open.size(), cls_end - at - open.size())),
                     std::string(html.substr(label_at + 7, label_end - label_at - 7)));  // already escaped
  }
  return out;
}

// A header above the chart: its name (the aria-label) and its legend, each entry drawn as the
// series is (a line of its class, or a dot for request dots); the page's HTML legend does not
// travel with a lone SVG.
std::string header(const std::string& label, const std::vector<std::pair<std::string, std::string>>& legend, double& height) {
  std::string h = fmt::format("<text x=\"8\" y=\"15\" class=\"chart-title\">{}</text>\n", label);
  height = 22;
  if (legend.empty()) return h;
  double x = 8;
  for (const auto& [cls, text] : legend) {
    if (cls == "req") h += fmt::format("<circle cx=\"{}\" cy=\"31\" r=\"2.5\" class=\"req-dot\"/>", px(x + 8));
    else h += fmt::format("<line x1=\"{}\" y1=\"31\" x2=\"{}\" y2=\"31\" class=\"line {}\"/>", px(x), px(x + 16), cls);
    h += fmt::format("<text x=\"{}\" y=\"35\" class=\"tick\">{}</text>\n", px(x + 21), text);
    x += 21 + 6.2 * static_cast<double>(text.size()) + 14;  // about 6 px per character at 11 px
  }
  height = 42;
  return h;
}

}  // namespace svg_export
}  // namespace

std::vector<StandaloneSvg> standalone_svgs(const HtmlReport& report) {
  using namespace svg_export;
  const std::string page = render_html(report);
  const size_t main_at = page.find("<main>"), main_end = page.find("</main>");
  if (main_at == std::string::npos || main_end == std::string::npos) return {};
  const std::string style = svg_css();
  std::vector<StandaloneSvg> out;
  std::map<std::string, int> used;
  for (size_t at = page.find("<svg class=\"chart ", main_at); at != std::string::npos && at < main_end;
       at = page.find("<svg class=\"chart ", at + 1)) {
    const size_t tag_end = page.find('>', at), end = page.find("</svg>", at);
    if (tag_end == std::string::npos || end == std::string::npos) break;
    const std::string_view tag = std::string_view(page).substr(at, tag_end - at);
    // The name: a lane of the timeline by its lane id, a CDF by its metric, else the chart's class.
    const std::string cls = attribute(tag, "class").substr(6);  // after "chart "
    std::string name = cls.substr(0, cls.find(' '));
    if (name == "lane") {
      const size_t lane = page.rfind("id=\"lane-", at);
      if (lane != std::string::npos) name = "timeline-" + page.substr(lane + 9, page.find('"', lane + 9) - lane - 9);
    } else if (const size_t sp = cls.find(' '); sp != std::string::npos && cls.substr(sp + 1).starts_with(name + "-")) {
      name = cls.substr(sp + 1, cls.find(' ', sp + 1) - sp - 1);
    }
    if (const int n = ++used[name]; n > 1) name += "-" + std::to_string(n);
    // The legend: a lane's own (its head, before its SVG), else its section's.
    const size_t lane_at = page.rfind("<div class=\"lane\"", at), section_at = page.rfind("<section", at);
    const size_t legend_from = cls.starts_with("lane") && lane_at != std::string::npos ? lane_at : section_at;
    const auto legend = legend_entries(std::string_view(page).substr(legend_from, at - legend_from));
    double head_h = 0;
    const std::string head = header(attribute(tag, "aria-label"), legend, head_h);
    // A lane above the last has its time labels hidden on the page: room for them here.
    const bool hidden_labels = page.find("x-labels-hidden", at) < end;
    const double w = std::stod(attribute(tag, "width")), h = std::stod(attribute(tag, "height")) + head_h + (hidden_labels ? 14 : 0);
    std::string text = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{}\" width=\"{}\" "
        "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
        attribute(tag, "class"), px(w), px(h), px(w), px(h), attribute(tag, "aria-label"));
    text += "<style><![CDATA[\n" + style + "]]></style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + head;
    text += fmt::format("<g transform=\"translate(0 {})\">", px(head_h));
    text += page.substr(tag_end + 1, end - tag_end - 1) + "</g>\n</svg>\n";
    out.push_back({name + ".svg", std::move(text)});
  }
  return out;
}

}  // namespace llmtriage::report
