// The web assets of the project (common/report/web/), embedded at build time: the Makefile runs
// common/report/web/embed.sh, which writes each file as a raw string literal named after it
// (flame-svg.js -> kWebFlameSvgJs) into build/gen/web/web_assets.cc.
#ifndef PROFTOOLS_COMMON_REPORT_WEB_WEB_ASSETS_H_
#define PROFTOOLS_COMMON_REPORT_WEB_WEB_ASSETS_H_

namespace proftools {

extern const char kWebFitNameJs[];       // names cut to a width (both documents embed it)
extern const char kWebFlameSvgJs[];      // prof-svg's script: details, zoom, search, reset
extern const char kWebFlameSvgCss[];     // prof-svg's style sheet
extern const char kWebGraphPanZoomJs[];  // the call graph's pan, zoom and hover (both embed it)
extern const char kWebGraphSvgJs[];      // prof-svg --graph's script: the page around it
extern const char kWebGraphSvgCss[];     // prof-svg --graph's style sheet
extern const char kWebReportHtml[];      // prof-html's page body
extern const char kWebReportCss[];       // prof-html's style sheet
extern const char kWebReportJs[];        // prof-html's script: lists, flame graph, sequences

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_REPORT_WEB_WEB_ASSETS_H_
