#include "common/report/html/html_graphs.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "common/base/json_string.h"
#include "common/io/byte_stream.h"
#include "common/report/graph/graph_layout.h"
#include "common/report/graph/graph_svg.h"
#include "common/report/graph/pprof_graph.h"

namespace proftools {

struct HtmlGraphs::State {
  std::vector<std::string> type_names;  // "TYPE/UNIT"
  // Per type: its element of the JSON array, Graphviz's warnings, why it is not drawn (or ""),
  // or its failure to build.
  std::vector<std::string> parts;
  std::vector<std::vector<std::string>> layout_warnings;
  std::vector<std::string> notes;
  std::vector<std::exception_ptr> failed;
  std::atomic<size_t> next{0};
  std::vector<std::thread> helpers;
  // Which graphs are laid out (or failed): each is as soon as it is built, by the thread that
  // built it, while the others are still being built.
  std::mutex mutex;
  std::condition_variable built;
  std::vector<bool> done;
  // Graphviz has process-wide state: one layout at a time, whichever thread asks.
  std::mutex graphviz;
  // The graphs' stacks, collected once for the types with values in the same entries.
  PprofGraphStacksShare stacks;
};

HtmlGraphs::HtmlGraphs(const StackTotals& totals, const ReportOptions& options)
    : totals_(totals), options_(options), state_(std::make_unique<State>()) {
  const size_t types = totals.header().types.size();
  for (const ValueType& type : totals.header().types) {
    state_->type_names.push_back(type.type + "/" + type.unit);
  }
  state_->parts.resize(types);
  state_->layout_warnings.resize(types);
  state_->notes.resize(types);
  state_->failed.resize(types);
  state_->done.resize(types, false);
  // As many threads as cores, this one among them once it has written the rest of the page.
  const size_t threads = std::min<size_t>(types, std::max(1u, std::thread::hardware_concurrency()));
  for (size_t i = 1; i < threads; ++i) {
    try {
      state_->helpers.emplace_back([this] { Build(); });
    } catch (const std::system_error&) {
      break;  // no thread to be had: Json() builds the rest
    }
  }
}

HtmlGraphs::~HtmlGraphs() {
  Join();
}

void HtmlGraphs::Join() {
  for (std::thread& helper : state_->helpers) {
    if (helper.joinable()) helper.join();
  }
}

void HtmlGraphs::Build() {
  const size_t types = state_->parts.size();
  for (size_t t; (t = state_->next++) < types;) {
    try {
      ReportOptions graph_options = options_;
      graph_options.value_index = static_cast<int>(t);
      StringSink dot;
      WriteDotReport(totals_, graph_options, &dot, &state_->stacks);
      Layout(t, dot.text());
    } catch (...) {
      state_->failed[t] = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->done[t] = true;
    }
    state_->built.notify_all();
  }
}

void HtmlGraphs::Layout(size_t t, const std::string& dot) {
  try {
    GraphLayout layout;
    {
      std::lock_guard<std::mutex> lock(state_->graphviz);
      layout = LayoutDotToSvg(dot, kMaxGraphNodes);
    }
    const GraphDrawing drawing = SplitGraphvizSvg(layout.svg);
    state_->layout_warnings[t] = layout.warnings;
    state_->parts[t] = "{\"viewBox\":" + JsonString(drawing.view_box, /*html_safe=*/true) +
                       ",\"svg\":" + JsonString(drawing.body, /*html_safe=*/true) + "}";
  } catch (const std::exception& error) {
    // One graph that cannot be drawn (too large with --no-trim) must not cost the page.
    const std::string note =
        "the call graph of " + state_->type_names[t] + " is not drawn: " + error.what();
    state_->notes[t] = note;
    state_->parts[t] = "{\"note\":" + JsonString(note, /*html_safe=*/true) + "}";
  }
}

std::string HtmlGraphs::Json(std::vector<std::string>* warnings) {
  Build();  // the graphs no thread has begun
  std::string json = "[";
  // A warning of Graphviz's is said once, with the first type whose graph gave it: Graphviz
  // says some once per graph object, which the next layout may or may not reuse (an address
  // that depends on the thread).
  std::set<std::string> said;
  for (size_t t = 0; t < state_->parts.size(); ++t) {
    {
      std::unique_lock<std::mutex> lock(state_->mutex);
      state_->built.wait(lock, [&] { return state_->done[t]; });
    }
    if (state_->failed[t]) std::rethrow_exception(state_->failed[t]);
    for (const std::string& warning : state_->layout_warnings[t]) {
      if (said.insert(warning).second) {
        warnings->push_back("the call graph of " + state_->type_names[t] + ": " + warning);
      }
    }
    if (!state_->notes[t].empty()) warnings->push_back(state_->notes[t]);
    json += (t ? "," : "") + state_->parts[t];
    state_->parts[t] = std::string();
  }
  return json + "]";
}

}  // namespace proftools
