// The canonical writer of the prof text format (formats/prof-text.md §7).
//
// It is a sink: records go in, canonical text comes out. Definitions are held back until the
// first sample that uses them, ids are renumbered in order of appearance, and definitions no
// sample uses are written at the end (model/canonical_order.h), then each record becomes a
// line. Memory is bounded by definitions not yet written plus the id maps; samples are written
// as they arrive.
#ifndef PROFTOOLS_COMMON_TEXT_TEXT_WRITER_H_
#define PROFTOOLS_COMMON_TEXT_TEXT_WRITER_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/io/byte_stream.h"
#include "common/model/canonical_order.h"
#include "common/model/sink.h"

namespace proftools {

class CanonicalWriter : public ProfileSink {
 public:
  explicit CanonicalWriter(ByteSink* out);
  // For tests: location ids from `cached_ids` on are converted to decimal in each stack line
  // (the default, kCachedIds, is reached only by profiles of ten million locations).
  CanonicalWriter(ByteSink* out, uint64_t cached_ids);
  void OnHeader(const ProfileHeader& header) override { order_.OnHeader(header); }
  void OnMapping(const Mapping& mapping) override { order_.OnMapping(mapping); }
  void OnFunction(const Function& function) override { order_.OnFunction(function); }
  void OnLocation(const Location& location) override { order_.OnLocation(location); }
  void OnStack(const Stack& stack) override { order_.OnStack(stack); }
  void OnSample(const Sample& sample) override { order_.OnSample(sample); }
  // Writes the unused definitions and flushes everything to the ByteSink.
  void OnEnd() override { order_.OnEnd(); }

 private:
  // Formats records as they come, already in canonical order with canonical ids.
  class Lines : public ProfileSink {
   public:
    Lines(ByteSink* out, uint64_t cached_ids) : out_(out), cached_ids_(cached_ids) {}
    void OnHeader(const ProfileHeader& header) override;
    void OnMapping(const Mapping& mapping) override;
    void OnFunction(const Function& function) override;
    void OnLocation(const Location& location) override;
    void OnStack(const Stack& stack) override;
    void OnSample(const Sample& sample) override;
    void OnEnd() override;

   private:
    void MaybeFlush();

    ByteSink* out_;
    std::string buffer_;
    std::vector<char> sample_line_;  // OnSample's scratch line, sized for its longest numbers
    uint64_t locations_ = 0;         // written so far: the largest location id
    // For each location id below cached_ids_, " ID" as it appears in stack lines, in the
    // first bytes of 8 (padding after), and its length: a stack line is then one 8-byte copy
    // per location instead of a decimal conversion (they are most of a large profile's bytes).
    uint64_t cached_ids_;
    struct LocationText {
      std::array<char, 8> bytes;
      uint8_t size;
    };
    std::vector<LocationText> location_text_;
    // The labels of the last sample and their text: runs of samples share them (a thread's).
    std::vector<Label> last_labels_;
    std::string last_labels_text_;
    // The text of numbered label sets (Sample::labels_id), by id modulo kLabelTexts: a perf
    // recording's threads take turns sample by sample, each with its own set.
    static constexpr size_t kLabelTexts = 64;
    struct LabelsText {
      uint64_t id = 0;
      std::string text;
    };
    std::array<LabelsText, kLabelTexts> labels_texts_;
  };

  static constexpr uint64_t kCachedIds = 10000000;  // " " and 7 digits fill the 8 bytes
  Lines lines_;
  CanonicalOrder order_;
};

// The canonical text of a whole profile.
std::string ToCanonicalText(const Profile& profile);

// The column comment block the writer puts after the header, naming `types` in the sample line.
std::string ColumnComments(const std::vector<ValueType>& types);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_TEXT_TEXT_WRITER_H_
