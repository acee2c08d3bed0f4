// GzipSink: what goes in comes out of gunzip, the bytes do not depend on how writes were split
// (compression runs on another thread), and an error of the destination reaches the caller.
#include <gtest/gtest.h>

#include <zlib.h>

#include <cstring>
#include <random>
#include <stdexcept>

#include "common/base/diagnostics.h"
#include "common/io/block_deflater.h"
#include "common/io/byte_stream.h"
#include "common/io/gzip_sink.h"

namespace proftools {
namespace gzip_sink_test {  // a namespace of its own: the tests build as one unit
namespace {

std::string Gzip(const std::string& data, size_t piece, unsigned threads = 0) {
  StringSink out;
  GzipSink gzip(&out, 1, threads);
  for (size_t i = 0; i < data.size(); i += piece)
    gzip.Write(std::string_view(data).substr(i, piece));
  gzip.Finish();
  return out.text();
}

std::string Gunzip(const std::string& data) {
  GzipStream stream(std::make_unique<MemoryStream>(data), "test");
  std::string out;
  char buffer[4096];
  for (size_t n; (n = stream.Read(buffer, sizeof buffer)) > 0;) out.append(buffer, n);
  return out;
}

TEST(GzipSink, ManyChunksRoundTripAndSplittingDoesNotChangeTheBytes) {
  std::mt19937 random(1);
  std::string data(9 << 20, '\0');  // several of the compressing thread's chunks
  for (char& c : data) c = static_cast<char>(random() % 7);
  const std::string a = Gzip(data, 1 << 20);
  EXPECT_EQ(Gunzip(a), data);
  EXPECT_EQ(Gzip(data, 12345), a);
  EXPECT_EQ(Gzip(data, data.size()), a);
}

// Blocks are cut at fixed offsets and written in order, so neither the number of workers nor
// their timing shows in the bytes; and a block may refer back into the one before (its
// dictionary), so repetitive input still compresses across the 1 MiB boundaries.
TEST(GzipSink, BytesDoNotDependOnTheNumberOfThreads) {
  std::string data;
  std::mt19937 random(2);
  while (data.size() < (5u << 20) + 777) data += "frame_" + std::to_string(random() % 5000) + ";";
  const std::string one = Gzip(data, 65536, 1);
  EXPECT_EQ(Gunzip(one), data);
  EXPECT_EQ(Gzip(data, 4096, 2), one);
  EXPECT_EQ(Gzip(data, 1 << 20, 4), one);
  EXPECT_LT(one.size(), data.size() / 3);
}

// At level 6 (zlib's): igzip's level 1 keeps one position per hash in a small table, so on
// random bytes repeated at a 20 KB period it finds a share of the repeats only (the dictionary
// at level 1 is BlockDeflater.RefersBackIntoTheDictionary's).
TEST(GzipSink, RepeatsAcrossBlocksCompressAsInOneStream) {
  std::mt19937 random(3);
  std::string pattern(20000, '\0');
  for (char& c : pattern) c = static_cast<char>(random());
  std::string data;
  while (data.size() < (3u << 20)) data += pattern;  // incompressible but for the repeats
  StringSink out;
  GzipSink gzip(&out, 6);
  gzip.Write(data);
  gzip.Finish();
  EXPECT_EQ(Gunzip(out.text()), data);
  // One zlib stream makes about 66 KB of it (the first copy, then back-references); without the
  // dictionary each of the 3 block boundaries would cost another copy, about 126 KB in all.
  EXPECT_LT(out.text().size(), 4 * pattern.size());
}

// A block may refer back into the 32 KiB before it (its dictionary): a block that repeats its
// dictionary costs a fraction of one that does not have it, at every level.
TEST(BlockDeflater, RefersBackIntoTheDictionary) {
  std::mt19937 random(11);
  std::string dictionary(4000, '\0');
  for (char& c : dictionary) c = static_cast<char>(random());
  for (int level : {1, 6}) {
    const std::unique_ptr<BlockDeflater> deflater = BlockDeflater::ForLevel(level);
    std::string with, without;
    ASSERT_TRUE(deflater->Deflate(dictionary, dictionary, false, &with));
    ASSERT_TRUE(deflater->Deflate("", dictionary, false, &without));
    EXPECT_LT(with.size() * 4, without.size()) << "level " << level;
  }
}

// Raw deflate data after `dictionary`, inflated by zlib ("<bad>" when it does not inflate).
std::string Inflate(const std::string& dictionary, const std::string& deflated) {
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return "<bad>";
  if (!dictionary.empty()) {
    inflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()),
                         static_cast<uInt>(dictionary.size()));
  }
  std::string out(1 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
  z.avail_in = static_cast<uInt>(deflated.size());
  z.next_out = reinterpret_cast<Bytef*>(&out[0]);
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_SYNC_FLUSH);
  const bool ok = (rc == Z_OK || rc == Z_STREAM_END) && z.avail_in == 0;
  out.resize(out.size() - z.avail_out);
  inflateEnd(&z);
  return ok ? out : "<bad>";
}

// A deflater whose first `wrong` blocks are wrong as igzip's were now and then: valid deflate
// data of other bytes (one byte of the input changed), or data cut short; then zlib's level 2.
class WrongAtFirst : public BlockDeflater {
 public:
  WrongAtFirst(int wrong, int* calls) : wrong_(wrong), calls_(calls) {}
  bool Deflate(std::string_view dictionary, std::string_view input, bool last,
               std::string* output) override {
    const int call = (*calls_)++;
    if (call >= wrong_) return right_->Deflate(dictionary, input, last, output);
    std::string other(input);
    other[other.size() / 2] ^= 1;
    if (!right_->Deflate(dictionary, other, last, output)) return false;
    if (call % 2 == 1) output->resize(output->size() / 2);
    return true;
  }

 private:
  int wrong_;
  int* calls_;
  std::unique_ptr<BlockDeflater> right_ = BlockDeflater::ForLevel(2);
};

// The check on igzip's blocks, on demand: a wrong block is deflated again until right, and
// after three wrong ones by zlib; either way the block inflates to its input, and a block
// right the first time is the fast deflater's own bytes.
TEST(BlockDeflater, AWrongBlockIsDeflatedAgainAndAfterThreeByZlib) {
  std::mt19937 random(5);
  std::string dictionary(3000, '\0'), input;
  for (char& c : dictionary) c = static_cast<char>('a' + random() % 4);
  for (int i = 0; i < 2000; ++i) input += "word" + std::to_string(random() % 50) + " ";
  std::string expected;
  ASSERT_TRUE(BlockDeflater::ForLevel(2)->Deflate(dictionary, input, false, &expected));
  for (int wrong : {0, 1, 2, 3, 5}) {
    int calls = 0;
    const std::unique_ptr<BlockDeflater> checked =
        CheckedByInflating(std::make_unique<WrongAtFirst>(wrong, &calls));
    std::string output;
    ASSERT_TRUE(checked->Deflate(dictionary, input, false, &output)) << wrong;
    EXPECT_EQ(Inflate(dictionary, output), input) << wrong;
    EXPECT_EQ(calls, std::min(wrong, 2) + 1) << wrong;  // three tries at the most
    if (wrong < 3) {
      EXPECT_TRUE(output == expected) << wrong;  // the fast deflater's bytes, once right
    } else {
      EXPECT_FALSE(output == expected) << wrong;  // zlib's level 1, not level 2
    }
  }
}

// Location ids of stacks that never repeat, as prof2pprof writes them: varints of random ids.
std::string RandomVarints(size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string data;
  while (data.size() < size) {
    uint32_t id = 1 + random() % 20000;
    for (; id >= 0x80; id >>= 7) data.push_back(static_cast<char>((id & 0x7f) | 0x80));
    data.push_back(static_cast<char>(id));
  }
  data.resize(size);
  return data;
}

// Random-looking varints (location ids of stacks that never repeat) still shrink, and their
// blocks mixed with repetitive ones make one valid stream, the same bytes whatever the threads.
TEST(GzipSink, NoiseAndTextRoundTripAndStayDeterministic) {
  const std::string noise = RandomVarints(1 << 20, 7);
  EXPECT_LT(Gzip(noise, 1 << 20).size(), noise.size());
  std::string data = noise;
  while (data.size() < (2u << 20)) data += noise.substr(noise.size() - 2000);
  std::mt19937 random(8);
  while (data.size() < (4u << 20) + 99) data += "frame_" + std::to_string(random() % 5000) + ";";
  const std::string one = Gzip(data, 1 << 20, 1);
  EXPECT_EQ(Gunzip(one), data);
  EXPECT_EQ(Gzip(data, 7777, 2), one);
  EXPECT_EQ(Gzip(data, 1 << 16, 4), one);
}

// Levels 2 to 9 are zlib's, level 1 igzip's: every one gives a valid stream of the same bytes
// in, deterministic, and the higher levels are not larger on text.
TEST(GzipSink, EveryLevelRoundTrips) {
  std::string data = RandomVarints(300 << 10, 9);
  std::mt19937 random(10);
  while (data.size() < (3u << 20) + 5) data += "frame_" + std::to_string(random() % 5000) + ";";
  size_t level1_size = 0;
  for (int level : {1, 2, 6, 9}) {
    StringSink a, b;
    GzipSink one(&a, level, 1), two(&b, level, 3);
    one.Write(data);
    one.Finish();
    for (size_t i = 0; i < data.size(); i += 99999) {
      two.Write(std::string_view(data).substr(i, 99999));
    }
    two.Finish();
    EXPECT_EQ(Gunzip(a.text()), data) << "level " << level;
    EXPECT_EQ(a.text(), b.text()) << "level " << level;
    if (level == 1) level1_size = a.text().size();
    if (level == 9) {
      EXPECT_LE(a.text().size(), level1_size);
    }
  }
}

TEST(GzipSink, EmptyInputIsAValidEmptyStream) {
  EXPECT_EQ(Gunzip(Gzip("", 1)), "");
}

class FailingSink : public ByteSink {
 public:
  void Write(std::string_view) override { throw std::runtime_error("disk full"); }
};

TEST(GzipSink, ErrorOfTheDestinationIsRethrown) {
  FailingSink failing;
  GzipSink gzip(&failing);
  EXPECT_THROW(
      {
        for (int i = 0; i < 64; ++i) gzip.Write(std::string(1 << 20, static_cast<char>(i)));
        gzip.Finish();
      },
      std::runtime_error);
}

TEST(GzipSink, DestroyedWithoutFinishStopsCleanly) {
  StringSink out;
  {
    GzipSink gzip(&out);
    gzip.Write(std::string(3 << 20, 'x'));
  }
  // The thread was stopped and joined (no hang), and the stream was not finished: a reader
  // sees a truncated gzip, never a complete-looking one.
  EXPECT_THROW(Gunzip(out.text()), ProfError);
}

}  // namespace
}  // namespace gzip_sink_test
}  // namespace proftools
