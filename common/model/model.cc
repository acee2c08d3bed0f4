#include "common/model/model.h"

#include <utility>

namespace proftools {

int ProfileHeader::DefaultTypeIndex() const {
  if (!default_type.empty()) {
    int index = TypeIndex(default_type);
    if (index >= 0) return index;
  }
  return static_cast<int>(types.size()) - 1;
}

int ProfileHeader::TypeIndex(const std::string& name) const {
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].type == name) return static_cast<int>(i);
  }
  return -1;
}

const Source* ProfileHeader::FindSource(uint64_t id) const {
  for (const Source& source : sources) {
    if (source.id == id) return &source;
  }
  return nullptr;
}

bool ProfileHeader::operator==(const ProfileHeader& o) const {
  return meta == o.meta && comments == o.comments && time_nanos == o.time_nanos &&
         duration_nanos == o.duration_nanos && period == o.period && doc_url == o.doc_url &&
         drop_frames == o.drop_frames && keep_frames == o.keep_frames && sources == o.sources &&
         types == o.types && default_type == o.default_type;
}

bool Mapping::operator==(const Mapping& o) const {
  return id == o.id && start == o.start && limit == o.limit && offset == o.offset &&
         file == o.file && build_id == o.build_id && has_functions == o.has_functions &&
         has_filenames == o.has_filenames && has_line_numbers == o.has_line_numbers &&
         has_inline_frames == o.has_inline_frames;
}

Label Label::String(std::string key, std::string value) {
  Label label;
  label.key = std::move(key);
  label.str = std::move(value);
  return label;
}

Label Label::Number(std::string key, int64_t value, std::string unit) {
  Label label;
  label.key = std::move(key);
  label.is_num = true;
  label.num = value;
  label.unit = std::move(unit);
  return label;
}

}  // namespace proftools
