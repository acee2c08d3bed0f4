#include "common/report/html_report.h"

#include "common/base/json_string.h"

#include <charconv>
#include <map>
#include <unordered_map>
#include <vector>

#include "common/filter/collapse_recursion.h"
#include "common/report/flame_svg.h"
#include "common/report/reports.h"
#include "common/report/web_assets.h"

namespace proftools {
namespace {

// Appends `value` in decimal: the timeline has about one number per sample, so no temporaries.
void AppendInteger(std::string* out, int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out->append(buffer, result.ptr);
}

const char* KindName(FrameKind kind) {
  switch (kind) {
    case FrameKind::kKernel:
      return "kernel";
    case FrameKind::kJit:
      return "jit";
    case FrameKind::kInlined:
      return "inlined";
    case FrameKind::kUser:
      break;
  }
  return "user";
}

// The profile as the page's script reads it: frames by name, stacks (root first) as frame
// indexes with their sums per type, identical frame sequences merged.
class DataWriter {
 public:
  DataWriter(const StackTotals& totals, const HtmlReportOptions& options)
      : totals_(totals), options_(options) {}

  std::string Json() {
    Collect();
    const ProfileHeader& header = totals_.header();
    std::string json = "{\"types\":[";
    for (size_t i = 0; i < header.types.size(); ++i) {
      json += (i ? "," : "") + std::string("{\"type\":") + PageJsonString(header.types[i].type) +
              ",\"unit\":" + PageJsonString(header.types[i].unit) + "}";
    }
    json += "],\"valueIndex\":" + std::to_string(options_.value_index) + ",\"totals\":[";
    for (size_t i = 0; i < totals_.total_values().size(); ++i) {
      json += (i ? "," : "") + std::to_string(totals_.total_values()[i]);
    }
    json += "],\"samples\":" + std::to_string(totals_.total_samples()) +
            ",\"filters\":" + PageJsonString(options_.filter_description) + ",\"sources\":[";
    for (size_t i = 0; i < header.sources.size(); ++i) {
      const Source& source = header.sources[i];
      json += (i ? "," : "") + std::string("[") + PageJsonString(source.type) + "," +
              PageJsonString(source.uri) + "," +
              (source.time_nanos ? std::to_string(*source.time_nanos) : "null") + "]";
    }
    json += "],\"meta\":[";
    for (size_t i = 0; i < header.meta.size(); ++i) {
      json += (i ? "," : "") + std::string("[") + PageJsonString(header.meta[i].key) + "," +
              PageJsonString(header.meta[i].value) + "]";
    }
    json += "],\"comments\":[";
    for (size_t i = 0; i < header.comments.size(); ++i) {
      json += (i ? "," : "") + PageJsonString(header.comments[i]);
    }
    json += "],\"frames\":[";
    for (size_t i = 0; i < names_.size(); ++i) {
      json += (i ? "," : "") + std::string("[") + PageJsonString(DisplayFrameName(names_[i])) +
              ",\"" + KindName(kinds_[i]) + "\"," + PageJsonString(DisplayFrameName(sources_[i])) +
              "]";
    }
    json += "],\"stacks\":[";
    for (size_t i = 0; i < stacks_.size(); ++i) {
      json += i ? ",[[" : "[[";
      for (size_t f = 0; f < stacks_[i].size(); ++f) {
        json += (f ? "," : "") + std::to_string(stacks_[i][f]);
      }
      json += "],[";
      for (size_t t = 0; t < values_[i].size(); ++t) {
        json += (t ? "," : "") + std::to_string(values_[i][t]);
      }
      json += "]";
      if (!collapsed_[i].empty()) {  // the sequence view's frames, when they differ
        json += ",[";
        for (size_t f = 0; f < collapsed_[i].size(); ++f) {
          json += (f ? "," : "") + std::to_string(collapsed_[i][f]);
        }
        json += "]";
      }
      json += "]";
    }
    json += "]";
    if (options_.timeline != nullptr && options_.timeline->timed_samples() > 0) json += Timeline();
    json += "}";
    return json;
  }

 private:
  // The timeline: bins from `origin` of `width` ns, rows by source and thread, and entries
  // [row, bin, stack, values...]. The origin (nanoseconds since 1970) is a string: past 2^53 a
  // JavaScript number is no longer exact, and the page shows the window's ends to the
  // nanosecond (BigInt).
  std::string Timeline() const {
    const SampleTimeline& timeline = *options_.timeline;
    std::string json = ",\"timeline\":{\"origin\":\"" + std::to_string(timeline.origin()) +
                       "\",\"width\":" + std::to_string(timeline.width()) +
                       ",\"bins\":" + std::to_string(timeline.bins()) +
                       ",\"samples\":" + std::to_string(timeline.timed_samples()) + ",\"rows\":[";
    for (size_t i = 0; i < timeline.rows().size(); ++i) {
      json += (i ? "," : "") + PageJsonString(timeline.rows()[i]);
    }
    json += "],\"entries\":[";
    bool first = true;
    const size_t types = totals_.header().types.size();
    for (const SampleTimeline::Entry& entry : timeline.Entries()) {
      auto stack = stack_of_id_.find(entry.stack_id);
      if (stack == stack_of_id_.end()) continue;
      json += first ? "[" : ",[";
      first = false;
      AppendInteger(&json, entry.row);
      json += ',';
      AppendInteger(&json, entry.bin);
      json += ',';
      AppendInteger(&json, static_cast<int64_t>(stack->second));
      for (size_t t = 0; t < types; ++t) {
        json += ',';
        AppendInteger(&json, entry.values[t]);
      }
      json += ']';
    }
    return json + "]}";
  }

  void Collect() {
    FrameExpander expander(totals_.defs(), options_.granularity);
    std::unordered_map<std::string, uint32_t> ids;
    std::map<std::vector<uint32_t>, size_t> stack_index;
    std::vector<const Frame*> frames;
    std::vector<uint32_t> path;
    std::vector<uint64_t> keys;
    for (const StackTotals::Entry& entry : totals_.entries()) {
      frames.clear();
      expander.StackFrames(entry.stack_id, &frames);  // leaf first
      path.clear();
      for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        auto [id, added] = ids.try_emplace((*it)->name, static_cast<uint32_t>(names_.size()));
        if (added) {
          names_.push_back((*it)->name);
          kinds_.push_back((*it)->kind);
          sources_.push_back((*it)->source);
        }
        path.push_back(id->second);
      }
      auto [at, added] = stack_index.try_emplace(path, stacks_.size());
      stack_of_id_[entry.stack_id] = at->second;
      if (added) {
        stacks_.push_back(path);
        values_.emplace_back(entry.values.size(), 0);
        // The sequence view reads stacks as prof-text's sequence reports do, with directly
        // repeated cycles collapsed (sequence_stacks.h); only recursive stacks differ.
        keys.assign(path.begin(), path.end());
        const std::vector<size_t> kept = CollapseRepeats(keys);
        collapsed_.emplace_back();
        if (kept.size() != path.size()) {
          for (size_t k : kept) collapsed_.back().push_back(path[k]);
        }
      }
      for (size_t t = 0; t < entry.values.size(); ++t) values_[at->second][t] += entry.values[t];
    }
  }

  const StackTotals& totals_;
  const HtmlReportOptions& options_;
  std::vector<std::string> names_, sources_;
  std::vector<FrameKind> kinds_;
  std::vector<std::vector<uint32_t>> stacks_;
  std::vector<std::vector<uint32_t>> collapsed_;  // per stack: empty when no cycle repeats
  std::vector<std::vector<int64_t>> values_;
  std::unordered_map<uint64_t, size_t> stack_of_id_;  // input stack id -> index in stacks_
};

}  // namespace

std::string PageJsonString(const std::string& text) {
  // As the page shows names: valid UTF-8, bytes that are not as \xHH, no control bytes.
  return JsonString(DisplayFrameName(text), /*html_safe=*/true);
}

void WriteHtmlReport(const StackTotals& totals, const HtmlReportOptions& options, ByteSink* out) {
  const std::string title = options.title.empty() ? "Profile" : options.title;
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // No request may leave the page: everything is inline, and the policy says so to the browser.
  page +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  page += "<title>" + EscapeXml(DisplayFrameName(title)) + "</title>\n<style>\n";
  page += kWebReportCss;
  page += "</style>\n</head>\n<body>\n";
  page += kWebReportHtml;
  page += "<script type=\"application/json\" id=\"profile-data\">";
  out->Write(page);
  out->Write(DataWriter(totals, options).Json());
  page = "</script>\n<script>\n";
  page += kWebReportJs;
  page += "</script>\n</body>\n</html>\n";
  out->Write(page);
}

}  // namespace proftools
