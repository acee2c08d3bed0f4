#include "common/merge/merge_spool.h"

#include <errno.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/base/diagnostics.h"
#include "common/base/varint.h"

namespace proftools {
namespace {

constexpr size_t kBlock = size_t{1} << 20;

// Appended in one step: byte by byte, push_back was a tenth of a large merge's time.
void PutVarint(std::string* out, uint64_t value) {
  if (value < 0x80) {  // most ids, flags and counts: one byte, without a call into libstdc++
    out->push_back(static_cast<char>(value));
    return;
  }
  char bytes[kMaxVarintBytes];
  out->append(bytes, static_cast<size_t>(WriteVarint(bytes, value) - bytes));
}

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

void PutString(std::string* out, const std::string& s) {
  PutVarint(out, s.size());
  out->append(s);
}

[[noreturn]] void SpoolError(const char* what) {
  throw ProfError("(spool file)", std::string(what) + ": " + std::strerror(errno));
}

// Flag bits of a sample record, and of a label.
constexpr uint64_t kHasTime = 1;
constexpr uint64_t kHasDuration = 2;

// How many varints follow a sample's flags: its times, its values, its label set.
size_t VarintsAfterFlags(uint64_t flags, size_t value_count) {
  return (flags & kHasTime ? 1 : 0) + (flags & kHasDuration ? 1 : 0) + value_count + 1;
}
constexpr uint64_t kNumeric = 1;

// Reads from a string_view that holds whole records (no refills).
class ViewReader {
 public:
  explicit ViewReader(std::string_view data) : data_(data) {}
  uint64_t Varint() {
    uint64_t value = 0;
    for (int shift = 0; pos_ < data_.size(); shift += 7) {
      const unsigned char byte = static_cast<unsigned char>(data_[pos_++]);
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80u) == 0 || shift >= 63) return value;
    }
    Corrupt();
  }
  bool AtEnd() const { return pos_ == data_.size(); }
  void String(std::string* out) {
    const size_t size = static_cast<size_t>(Varint());
    if (size > data_.size() - pos_) Corrupt();
    out->assign(data_.data() + pos_, size);
    pos_ += size;
  }

 private:
  [[noreturn]] static void Corrupt() {
    throw ProfError("(spool file)", "internal error: a record is cut short");
  }
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

void EncodeLabels(const std::vector<Label>& labels, std::string* out) {
  PutVarint(out, labels.size());
  for (const Label& label : labels) {
    PutString(out, label.key);
    PutVarint(out, label.is_num ? kNumeric : 0);
    if (label.is_num) {
      PutVarint(out, ZigZag(label.num));
      PutString(out, label.unit);
    } else {
      PutString(out, label.str);
    }
  }
}

void DecodeLabels(std::string_view encoded, std::vector<Label>* labels) {
  ViewReader in(encoded);
  labels->resize(static_cast<size_t>(in.Varint()));
  for (Label& label : *labels) {
    in.String(&label.key);
    label.is_num = (in.Varint() & kNumeric) != 0;
    if (label.is_num) {
      label.num = UnZigZag(in.Varint());
      in.String(&label.unit);
      label.str.clear();
    } else {
      in.String(&label.str);
      label.num = 0;
      label.unit.clear();
    }
  }
}

void MergeSpool::Put(SpoolRecord kind) {
  if (run_ != 0) PutRun();
  buffer_.push_back(static_cast<char>(kind));
}

void MergeSpool::PutRun() {
  if (run_ == 0) return;
  buffer_.push_back(static_cast<char>(SpoolRecord::kSampleRun));
  PutVarint(&buffer_, run_);
  run_ = 0;
  MaybeFlush();
}

void MergeSpool::MaybeFlush() {
  if (buffer_.size() >= kBlock) Flush();
}

void MergeSpool::WriteInput(uint64_t index) {
  Put(SpoolRecord::kInput);
  PutVarint(&buffer_, index);
  MaybeFlush();
}

void MergeSpool::WriteMapping(const Mapping& m) {
  std::string& b = buffer_;
  Put(SpoolRecord::kMapping);
  PutVarint(&b, m.id);
  PutVarint(&b, m.start);
  PutVarint(&b, m.limit);
  PutVarint(&b, m.offset);
  PutString(&b, m.file);
  PutString(&b, m.build_id);
  PutVarint(&b, (m.has_functions ? 1u : 0u) | (m.has_filenames ? 2u : 0u) |
                    (m.has_line_numbers ? 4u : 0u) | (m.has_inline_frames ? 8u : 0u));
  MaybeFlush();
}

void MergeSpool::WriteFunction(const Function& f) {
  std::string& b = buffer_;
  Put(SpoolRecord::kFunction);
  PutVarint(&b, f.id);
  PutString(&b, f.name);
  PutString(&b, f.system_name);
  PutString(&b, f.file);
  PutVarint(&b, ZigZag(f.start_line));
  MaybeFlush();
}

void MergeSpool::WriteLocation(const Location& l) {
  std::string& b = buffer_;
  Put(SpoolRecord::kLocation);
  PutVarint(&b, l.id);
  PutVarint(&b, l.mapping_id);
  PutVarint(&b, l.address);
  PutVarint(&b, l.is_folded ? 1 : 0);
  PutVarint(&b, l.lines.size());
  for (const Line& line : l.lines) {
    PutVarint(&b, line.function_id);
    PutVarint(&b, ZigZag(line.line));
    PutVarint(&b, ZigZag(line.column));
  }
  MaybeFlush();
}

void MergeSpool::WriteStack(uint64_t id, const std::vector<uint64_t>& location_ids) {
  // Encoded in place, into room for the longest ids, then trimmed.
  labels_.resize(location_ids.size() * kMaxVarintBytes);
  char* at = labels_.data();
  for (uint64_t location : location_ids) at = WriteVarint(at, location);
  labels_.resize(static_cast<size_t>(at - labels_.data()));
  WriteEncodedStack(id, labels_);
}

void MergeSpool::WriteEncodedStack(uint64_t id, std::string_view encoded_ids) {
  std::string& b = buffer_;
  Put(SpoolRecord::kStack);
  PutVarint(&b, id);
  // The ids as one length-prefixed run, so that a pass that needs only samples skips them.
  PutVarint(&b, encoded_ids.size());
  b.append(encoded_ids);
  MaybeFlush();
}

void MergeSpool::WriteSample(uint64_t source_id, uint64_t stack_id, const Sample& s,
                             uint64_t label_set) {
  std::string& b = buffer_;
  Put(SpoolRecord::kSample);
  PutVarint(&b, source_id);
  PutVarint(&b, stack_id);
  PutVarint(&b, (s.time_nanos ? kHasTime : 0) | (s.duration_nanos ? kHasDuration : 0));
  if (s.time_nanos) PutVarint(&b, ZigZag(*s.time_nanos));
  if (s.duration_nanos) PutVarint(&b, ZigZag(*s.duration_nanos));
  for (int64_t value : s.values) PutVarint(&b, ZigZag(value));
  PutVarint(&b, label_set);
  MaybeFlush();
}

uint64_t MergeSpool::LabelSetId(const std::vector<Label>& labels) {
  if (labels.empty()) return 0;
  if (last_label_set_ != 0 && labels == last_labels_) return last_label_set_;
  labels_.clear();
  EncodeLabels(labels, &labels_);
  const auto inserted = label_set_ids_.emplace(labels_, label_sets_.size() + 1);
  if (inserted.second) label_sets_.push_back(labels);
  last_labels_ = labels;
  last_label_set_ = inserted.first->second;
  return last_label_set_;
}

void MergeSpool::Flush() {
  AwaitWrite();
  writing_.swap(buffer_);
  buffer_.clear();
  flushed_ += writing_.size();
  if (writing_.empty()) return;
  write_ = std::async(std::launch::async, [this] {
    size_t done = 0;
    while (done < writing_.size()) {
      const ssize_t n = write(file_.fd(), writing_.data() + done, writing_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n < 0 ? errno : EIO;
      done += static_cast<size_t>(n);
    }
    return 0;
  });
}

void MergeSpool::AwaitWrite() {
  if (!write_.valid()) return;
  const int error = write_.get();
  if (error != 0) {
    errno = error;
    SpoolError("cannot write the spool file");
  }
}

void MergeSpool::TruncateTo(uint64_t mark) {
  run_ = 0;  // counted after the mark
  AwaitWrite();
  if (mark >= flushed_) {
    buffer_.resize(mark - flushed_);
    return;
  }
  buffer_.clear();
  if (ftruncate(file_.fd(), static_cast<off_t>(mark)) != 0 ||
      lseek(file_.fd(), static_cast<off_t>(mark), SEEK_SET) < 0) {
    SpoolError("cannot truncate the spool file");
  }
  flushed_ = mark;
}

void MergeSpool::Rewind() {
  PutRun();
  Flush();
  AwaitWrite();
  if (lseek(file_.fd(), 0, SEEK_SET) != 0) SpoolError("cannot rewind the spool file");
  read_pos_ = 0;
  read_from_file_ = 0;
}

bool MergeSpool::Fill(size_t need) {
  if (buffer_.size() - read_pos_ >= need) return true;
  buffer_.erase(0, read_pos_);
  read_pos_ = 0;
  while (buffer_.size() < need) {
    // Never more than the file still holds: a small merge allocates a small buffer.
    const size_t want =
        static_cast<size_t>(std::min<uint64_t>(std::max(need, kBlock), flushed_ - read_from_file_));
    if (want == 0) return false;
    const size_t have = buffer_.size();
    buffer_.resize(have + want);
    const ssize_t n = read(file_.fd(), &buffer_[have], want);
    buffer_.resize(have + static_cast<size_t>(std::max<ssize_t>(n, 0)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) SpoolError("cannot read the spool file");
    if (n == 0)
      throw ProfError("(spool file)", "internal error: the spool file is shorter than written");
    read_from_file_ += static_cast<uint64_t>(n);
  }
  return true;
}

uint64_t MergeSpool::ReadVarint() {
  // Fast path: a whole varint (at most 10 bytes) is in the buffer.
  if (buffer_.size() - read_pos_ >= 10) {
    const char* p = buffer_.data() + read_pos_;
    uint64_t value = 0;
    for (int i = 0; i < 10; ++i) {
      const unsigned char byte = static_cast<unsigned char>(p[i]);
      value |= uint64_t{byte & 0x7fu} << (7 * i);
      if ((byte & 0x80u) == 0) {
        read_pos_ += i + 1;
        return value;
      }
    }
    read_pos_ += 10;
    return value;
  }
  uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    if (!Fill(1)) throw ProfError("(spool file)", "internal error: the spool file ends early");
    const unsigned char byte = static_cast<unsigned char>(buffer_[read_pos_++]);
    value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80u) == 0 || shift >= 63) return value;
  }
}

std::string_view MergeSpool::ReadBytes() {
  const size_t size = static_cast<size_t>(ReadVarint());
  if (!Fill(size)) throw ProfError("(spool file)", "internal error: the spool file ends early");
  const std::string_view bytes(buffer_.data() + read_pos_, size);
  read_pos_ += size;
  return bytes;
}

void MergeSpool::ReadString(std::string* out) {
  const std::string_view bytes = ReadBytes();
  out->assign(bytes.data(), bytes.size());
}

SpoolRecord MergeSpool::Next() {
  if (!Fill(1)) return SpoolRecord::kEnd;
  return static_cast<SpoolRecord>(buffer_[read_pos_++]);
}

void MergeSpool::ReadMapping(Mapping* m) {
  m->id = ReadVarint();
  m->start = ReadVarint();
  m->limit = ReadVarint();
  m->offset = ReadVarint();
  ReadString(&m->file);
  ReadString(&m->build_id);
  const uint64_t flags = ReadVarint();
  m->has_functions = flags & 1;
  m->has_filenames = flags & 2;
  m->has_line_numbers = flags & 4;
  m->has_inline_frames = flags & 8;
}

void MergeSpool::ReadFunction(Function* f) {
  f->id = ReadVarint();
  ReadString(&f->name);
  ReadString(&f->system_name);
  ReadString(&f->file);
  f->start_line = UnZigZag(ReadVarint());
}

void MergeSpool::ReadLocation(Location* l) {
  l->id = ReadVarint();
  l->mapping_id = ReadVarint();
  l->address = ReadVarint();
  l->is_folded = ReadVarint() != 0;
  l->lines.resize(static_cast<size_t>(ReadVarint()));
  for (Line& line : l->lines) {
    line.function_id = ReadVarint();
    line.line = UnZigZag(ReadVarint());
    line.column = UnZigZag(ReadVarint());
  }
}

void MergeSpool::ReadStack(Stack* s) {
  s->id = ReadVarint();
  ViewReader ids(ReadBytes());
  s->location_ids.clear();
  while (!ids.AtEnd()) s->location_ids.push_back(ids.Varint());
}

void MergeSpool::SkipStack() {
  ReadVarint();
  ReadBytes();
}

void MergeSpool::ReadSample(size_t value_count, Sample* s) {
  LabelsOf(ReadSampleExceptLabels(value_count, s), &s->labels);
}

void MergeSpool::LabelsOf(uint64_t label_set, std::vector<Label>* labels) const {
  if (label_set == 0) {
    labels->clear();
  } else if (label_set <= label_sets_.size()) {
    *labels = label_sets_[label_set - 1];
  } else {
    throw ProfError("(spool file)", "internal error: a sample names an unknown label set");
  }
}

void MergeSpool::SkipSample(size_t value_count) {
  // The source, the stack, the flags, the times, the values and the label set: at most
  // value_count + 6 varints of at most 10 bytes. When they are surely in the buffer, they are
  // passed over byte by byte here (ReadVarint's checks per varint were most of the work of a
  // merge's last pass, which only counts the samples).
  const size_t most = (value_count + 6) * 10;
  if (buffer_.size() - read_pos_ >= most) {
    const char* p = buffer_.data() + read_pos_;
    const auto skip = [&p](size_t varints) {
      for (; varints > 0; --varints) {
        while (static_cast<unsigned char>(*p++) & 0x80u) {
        }
      }
    };
    skip(2);
    const unsigned char flags = static_cast<unsigned char>(*p);  // under 0x80: one byte
    skip(1);
    skip(VarintsAfterFlags(flags, value_count));
    read_pos_ = static_cast<size_t>(p - buffer_.data());
    return;
  }
  ReadVarint();  // source
  ReadVarint();  // stack
  const uint64_t flags = ReadVarint();
  for (size_t rest = VarintsAfterFlags(flags, value_count); rest > 0; --rest) ReadVarint();
}

uint64_t MergeSpool::ReadSampleExceptLabels(size_t value_count, Sample* s) {
  s->source_id = ReadVarint();
  s->stack_id = ReadVarint();
  const uint64_t flags = ReadVarint();
  s->time_nanos.reset();
  s->duration_nanos.reset();
  if (flags & kHasTime) s->time_nanos = UnZigZag(ReadVarint());
  if (flags & kHasDuration) s->duration_nanos = UnZigZag(ReadVarint());
  s->values.resize(value_count);
  for (int64_t& value : s->values) value = UnZigZag(ReadVarint());
  return ReadVarint();
}

}  // namespace proftools
