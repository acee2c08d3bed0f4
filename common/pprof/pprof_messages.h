// The small messages of profile.proto that come by the thousand in every profile (Location with
// its Lines, Function, Label), decoded as libprotobuf's generated parser decodes them, but
// without its set-up per message and its allocation per Line (a tenth of a fleet merge, which
// decodes every location and function of every input). The common form (one-byte tags of the
// message's own fields with their wire types, well-formed varints and lengths) is decoded here;
// anything else (unknown fields, long tags, wrong wire types, malformed bytes) is handed to the
// generated parser, so that every message reads as it would. tests/pprof_messages_test.cc holds
// the two to the same results.
#ifndef PROFTOOLS_COMMON_PPROF_PPROF_MESSAGES_H_
#define PROFTOOLS_COMMON_PPROF_PPROF_MESSAGES_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace proftools {

struct PbLine {
  uint64_t function_id = 0;
  int64_t line = 0, column = 0;
};

struct PbLocation {
  uint64_t id = 0, mapping_id = 0, address = 0;
  bool is_folded = false;
  std::vector<PbLine> lines;  // kept from call to call: cleared, not freed
};

struct PbFunction {
  uint64_t id = 0;
  int64_t name = 0, system_name = 0, filename = 0, start_line = 0;
};

struct PbLabel {
  int64_t key = 0, str = 0, num = 0, num_unit = 0;
  bool has_num = false;  // num is `optional`: present, even as 0
  bool operator==(const PbLabel& o) const {
    return key == o.key && str == o.str && num == o.num && num_unit == o.num_unit &&
           has_num == o.has_num;
  }
};

// Each decodes `bytes` into `*out` (every field reset first); false when they are not a
// well-formed message of the type.
bool DecodeLocation(std::string_view bytes, PbLocation* out);
bool DecodeFunction(std::string_view bytes, PbFunction* out);
bool DecodeLabel(std::string_view bytes, PbLabel* out);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_PPROF_PPROF_MESSAGES_H_
