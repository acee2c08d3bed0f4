#include "common/model/writer_kit.h"

#include <vector>

#include "common/base/text_syntax.h"
#include "common/model/producer_kit.h"

namespace proftools {

int ValueTypeIndex(const ProfileHeader& header, const std::string& value) {
  if (value.empty()) return header.DefaultTypeIndex();
  if (header.types.empty()) {
    throw UsageError("--value " + Printable(value) + ": the profile declares no value type");
  }
  const int index = header.TypeIndex(value);
  if (index >= 0) return index;
  if (value.find_first_not_of("0123456789") == std::string::npos && value.size() < 10 &&
      std::stoul(value) < header.types.size()) {
    return static_cast<int>(std::stoul(value));
  }
  std::string known;
  for (const ValueType& type : header.types) known += (known.empty() ? "" : ", ") + type.type;
  throw UsageError("--value " + Printable(value) +
                   ": the profile has no such type (it has: " + known +
                   "; or give an index from 0 to " + std::to_string(header.types.size() - 1) + ")");
}

ThreadLabels ThreadLabelsOf(const Sample& sample) {
  ThreadLabels labels;
  for (const Label& label : sample.labels) {
    if (label.key == kPidLabel && !labels.pid) {
      labels.pid = LabelNumber(label);
    } else if (label.key == kTidLabel && !labels.tid) {
      labels.tid = LabelNumber(label);
    } else if (label.key == kThreadLabel && !label.is_num && labels.thread == nullptr) {
      labels.thread = &label.str;
    } else if (label.key == kCommLabel && !label.is_num && labels.comm == nullptr) {
      labels.comm = &label.str;
    } else if (label.key == kProcessLabel && !label.is_num && labels.process == nullptr) {
      labels.process = &label.str;
    } else {
      labels.others = true;
    }
  }
  return labels;
}

namespace {

// A string of a key that no other string, or absence, shares: its length first.
void AppendPart(std::string* key, const std::string* text) {
  if (text == nullptr) {
    *key += "|-";
    return;
  }
  *key += '|' + std::to_string(text->size()) + '=';
  *key += *text;
}

}  // namespace

std::string ThreadKey(uint64_t source_id, const ThreadLabels& labels, bool with_comm) {
  std::string key = std::to_string(source_id);
  key += labels.pid ? "|" + std::to_string(*labels.pid) : "|-";
  key += labels.tid ? "|" + std::to_string(*labels.tid) : "|-";
  AppendPart(&key, labels.thread);
  if (with_comm) AppendPart(&key, labels.comm);
  return key;
}

void WriterWarnings::operator()(const std::string& message) const {
  if (warnings_ != nullptr) warnings_->Warning(Diagnostic{Rule::kInput, file_, 0, message});
}

void BufferedOutput::Flush() {
  out_.Write(buffer_);
  buffer_.clear();
}

void BufferedOutput::FlushAndCopy(ByteStream& stream) {
  Flush();
  std::vector<char> chunk(kBlockBytes);
  for (size_t n; (n = stream.Read(chunk.data(), chunk.size())) > 0;) {
    out_.Write(std::string_view(chunk.data(), n));
  }
}

}  // namespace proftools
