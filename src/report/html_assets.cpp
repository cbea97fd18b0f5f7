// The template, CSS and JS of the HTML report live as files in src/report/html/ (edited as HTML,
// CSS and JS); cmake/embed_assets.cmake turns them into byte arrays at build time.
#include "report/html_assets_data.h"
#include "report/html_chart.h"

namespace llmtriage::report {

std::string_view page_template() { return {kAsset_page_html, kAsset_page_html_size}; }
std::string_view page_css() { return {kAsset_report_css, kAsset_report_css_size}; }
std::string_view page_js() { return {kAsset_report_js, kAsset_report_js_size}; }

}  // namespace llmtriage::report
