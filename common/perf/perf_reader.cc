#include "common/perf/perf_reader.h"

namespace proftools {

bool PerfScriptReader::Next() {
  if (!lines_.Next(&line_)) return false;
  // A first pass skips the frames of a sample here, line after line, instead of returning each.
  while (headers_only_ && in_sample_ && !line_.empty() && line_[0] == '\t') {
    after_frame_ = true;
    if (!lines_.Next(&line_)) return false;
  }
  kind_ = Classify();
  return true;
}

PerfScriptReader::Kind PerfScriptReader::Classify() {
  if (headers_only_ && in_sample_ && !line_.empty() && line_[0] == '\t') {
    after_frame_ = true;
    return Kind::kFrame;
  }
  const std::string_view trimmed = TrimPerfLine(line_);
  if (trimmed.empty()) {
    in_sample_ = after_frame_ = false;
    return Kind::kBlank;
  }
  if (trimmed[0] == '#') return Kind::kComment;
  const bool indented = line_[0] == ' ' || line_[0] == '\t';
  if (in_sample_ && indented && IsPerfFrame(trimmed)) {
    frame_text_ = trimmed;
    after_frame_ = true;
    return Kind::kFrame;
  }
  if (after_frame_ && indented &&
      ParsePerfSrcline(trimmed, &src_file_, &src_line_, &src_inlined_)) {
    after_frame_ = false;
    return Kind::kSrcline;
  }
  if (ParsePerfHeader(trimmed, &header_)) {
    header_frame_ = IsPerfFrame(header_.rest);
    frame_text_ = header_.rest;
    // A sample printed on one line has no call chain after it, only maybe its srcline.
    in_sample_ = !header_frame_;
    after_frame_ = header_frame_;
    return Kind::kHeader;
  }
  if (in_sample_ && IsPerfFrame(trimmed)) {
    frame_text_ = trimmed;
    after_frame_ = true;
    return Kind::kFrame;
  }
  after_frame_ = false;
  if (MayBePerfRecord(trimmed) && ParsePerfRecord(trimmed, &record_)) {
    in_sample_ = false;  // perf prints no frames under a record
    return Kind::kRecord;
  }
  return Kind::kUnknown;
}

}  // namespace proftools
