#include "common/report/html/html_graphs.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "common/base/json_string.h"
#include "common/io/byte_stream.h"
#include "common/report/graph/graph_layout.h"
#include "common/report/graph/graph_svg.h"
#include "common/report/graph/pprof_graph.h"

namespace proftools {

struct HtmlGraphs::State {
  std::vector<StringSink> dots;
  std::vector<std::exception_ptr> failed;
  std::atomic<size_t> next{0};
  std::vector<std::thread> helpers;
  // Which graphs are built (or failed): Json lays each out as soon as it is, while the others
  // are still being built.
  std::mutex mutex;
  std::condition_variable built;
  std::vector<bool> done;
  // The graphs' stacks, collected once for the types with values in the same entries.
  PprofGraphStacksShare stacks;
};

HtmlGraphs::HtmlGraphs(const StackTotals& totals, const ReportOptions& options)
    : totals_(totals), options_(options), state_(std::make_unique<State>()) {
  const size_t types = totals.header().types.size();
  state_->dots.resize(types);
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
  const size_t types = state_->dots.size();
  for (size_t t; (t = state_->next++) < types;) {
    try {
      ReportOptions graph_options = options_;
      graph_options.value_index = static_cast<int>(t);
      WriteDotReport(totals_, graph_options, &state_->dots[t], &state_->stacks);
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

std::string HtmlGraphs::Json(std::vector<std::string>* warnings) {
  Build();  // the graphs no thread has begun
  const std::vector<ValueType>& types = totals_.header().types;
  std::vector<StringSink>& dots = state_->dots;
  std::vector<std::exception_ptr>& failed = state_->failed;
  std::string json = "[";
  for (size_t t = 0; t < types.size(); ++t) {
    {
      std::unique_lock<std::mutex> lock(state_->mutex);
      state_->built.wait(lock, [&] { return state_->done[t]; });
    }
    if (failed[t]) std::rethrow_exception(failed[t]);
    const std::string type_name = types[t].type + "/" + types[t].unit;
    json += t ? ",{" : "{";
    try {
      GraphLayout layout = LayoutDotToSvg(dots[t].text(), kMaxGraphNodes);
      dots[t] = StringSink();  // freed once laid out
      const GraphDrawing drawing = SplitGraphvizSvg(layout.svg);
      for (const std::string& warning : layout.warnings) {
        warnings->push_back("the call graph of " + type_name + ": " + warning);
      }
      json += "\"viewBox\":" + JsonString(drawing.view_box, /*html_safe=*/true) +
              ",\"svg\":" + JsonString(drawing.body, /*html_safe=*/true) + "}";
    } catch (const std::exception& error) {
      // One graph that cannot be drawn (too large with --no-trim) must not cost the page.
      const std::string note = "the call graph of " + type_name + " is not drawn: " + error.what();
      warnings->push_back(note);
      json += "\"note\":" + JsonString(note, /*html_safe=*/true) + "}";
    }
  }
  return json + "]";
}

}  // namespace proftools
