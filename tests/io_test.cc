// Byte streams, gzip, line splitting, input sniffing and atomic output.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <thread>

#include "common/base/diagnostics.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/io/output.h"
#include "common/io/spool.h"
#include "common/io/whole_input.h"

namespace proftools {
namespace io_test {  // a namespace of its own: the tests build as one unit
namespace {

std::string Gzip(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(&out[0]);
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string ReadAll(ByteStream* stream, size_t chunk = 7) {
  std::string out;
  std::vector<char> buffer(chunk);
  while (size_t n = stream->Read(buffer.data(), buffer.size())) out.append(buffer.data(), n);
  return out;
}

std::string Inflate(const std::string& compressed, uint64_t cap = 0) {
  GzipStream gzip(std::make_unique<MemoryStream>(compressed), "x.gz", cap);
  return ReadAll(&gzip);
}

TEST(Gzip, InflatesAndReadsConcatenatedMembersAsOne) {
  EXPECT_EQ(Inflate(Gzip("hello ")), "hello ");
  EXPECT_EQ(Inflate(Gzip("hello ") + Gzip("world")), "hello world");
  EXPECT_EQ(Inflate(Gzip("")), "");
}

TEST(Gzip, TruncatedAndCorruptDataAreErrorsNamingTheFile) {
  const std::string data = Gzip(std::string(10000, 'a') + "b");
  try {
    Inflate(data.substr(0, data.size() / 2));
    FAIL();
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(),
              "x.gz: gzip: unexpected end of data (the file is truncated)");
  }
  std::string corrupt = data;
  corrupt[12] ^= 0x55;
  EXPECT_THROW(Inflate(corrupt), ProfError);
  EXPECT_THROW(Inflate(Gzip("x") + "garbage after the member"), ProfError);
}

TEST(Gzip, SizeCapStopsBombs) {
  const std::string bomb = Gzip(std::string(10 << 20, '\0'));
  EXPECT_LT(bomb.size(), 20000u);
  EXPECT_THROW(Inflate(bomb, 1 << 20), ProfError);
  EXPECT_EQ(Inflate(bomb, 11 << 20).size(), 10u << 20);
}

std::vector<std::string> Lines(const std::string& data, size_t max_line = 1 << 20) {
  MemoryStream stream(data);
  LineReader reader(&stream, max_line);
  std::vector<std::string> lines;
  std::string_view line;
  while (reader.Next(&line)) lines.emplace_back(line);
  return lines;
}

TEST(LineReader, SplitsOnLfAndRemovesOnlyTheCrBeforeIt) {
  EXPECT_EQ(Lines("a\r\nb\rc\n\nd"), (std::vector<std::string>{"a", "b\rc", "", "d"}));
  EXPECT_TRUE(Lines("").empty());
  EXPECT_EQ(Lines("\n"), (std::vector<std::string>{""}));
}

TEST(LineReader, ReportsWhetherTheLastLineHadANewline) {
  MemoryStream stream("a\nb");
  LineReader reader(&stream);
  std::string_view line;
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_TRUE(reader.had_newline());
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_EQ(line, "b");
  EXPECT_FALSE(reader.had_newline());
  EXPECT_EQ(reader.line_number(), 2u);
  EXPECT_FALSE(reader.Next(&line));
}

TEST(LineReader, OverMemoryTheLinesAreViewsOfTheTextNumberedOn) {
  const std::string text = "a\r\nbb\n\nlast";
  LineReader reader(std::string_view(text), 40);
  std::string_view line;
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_EQ(line, "a");
  EXPECT_EQ(line.data(), text.data());  // not a copy
  EXPECT_EQ(reader.line_number(), 41u);
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_EQ(line, "bb");
  EXPECT_EQ(line.data(), text.data() + 3);
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_EQ(line, "last");
  EXPECT_FALSE(reader.had_newline());
  EXPECT_EQ(reader.line_number(), 44u);
  EXPECT_FALSE(reader.Next(&line));
  EXPECT_EQ(reader.buffer_capacity(), 0u);
  LineReader too_long(std::string_view("ok\nlonger than five\n"), 0, 5);
  ASSERT_TRUE(too_long.Next(&line));
  EXPECT_THROW(too_long.Next(&line), LineReader::LineTooLong);
}

TEST(LineReader, LinesLongerThanTheBufferAndAcrossReadsSurvive) {
  std::mt19937 random(3);
  std::string data;
  std::vector<std::string> expected;
  for (int i = 0; i < 300; ++i) {
    std::string line(random() % 9000, 'x');
    for (char& c : line) c = static_cast<char>('a' + random() % 26);
    expected.push_back(line);
    data += line + (random() % 2 ? "\n" : "\r\n");
  }
  // A stream that returns at most 13 bytes per read exercises refills mid-line.
  class Trickle : public ByteStream {
   public:
    explicit Trickle(std::string d) : data_(std::move(d)) {}
    size_t Read(char* buffer, size_t capacity) override {
      const size_t n = std::min({capacity, data_.size() - pos_, size_t{13}});
      std::memcpy(buffer, data_.data() + pos_, n);
      pos_ += n;
      return n;
    }

   private:
    std::string data_;
    size_t pos_ = 0;
  } trickle(data);
  LineReader reader(&trickle);
  std::string_view line;
  std::vector<std::string> got;
  while (reader.Next(&line)) got.emplace_back(line);
  EXPECT_EQ(got, expected);
}

TEST(LineReader, TooLongIsAProfErrorNamingFileAndLine) {
  MemoryStream stream("short\n" + std::string(5000, 'x') + "\n");
  LineReader reader(&stream, 4096, "in.txt");
  std::string_view line;
  ASSERT_TRUE(reader.Next(&line));
  try {
    reader.Next(&line);
    FAIL();
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(), "in.txt:2: line is longer than 4096 bytes [line-too-long]");
  }
}

// A short input costs a small buffer; a long one is read in large chunks.
TEST(LineReader, AllocatesAsTheInputNeeds) {
  MemoryStream nothing("");
  LineReader empty(&nothing);
  std::string_view line;
  EXPECT_FALSE(empty.Next(&line));
  EXPECT_LE(empty.buffer_capacity(), size_t{16} << 10);
  MemoryStream few("a\nb\n");
  LineReader short_reader(&few);
  while (short_reader.Next(&line)) {
  }
  EXPECT_LE(short_reader.buffer_capacity(), size_t{16} << 10);
  MemoryStream many(std::string(3 << 20, '\n'));
  LineReader long_reader(&many);
  while (long_reader.Next(&line)) {
  }
  EXPECT_EQ(long_reader.line_number(), 3u << 20);
  EXPECT_EQ(long_reader.buffer_capacity(), size_t{1} << 20);
}

TEST(LineReader, ThrowsAtALineLongerThanTheMaximum) {
  EXPECT_THROW(Lines("short\n" + std::string(5000, 'x') + "\n", 4096), LineReader::LineTooLong);
  EXPECT_EQ(Lines(std::string(4096, 'x') + "\n", 4096).size(), 1u);
}

TEST(LooksLikeText, OnlyTabCrAndLfAmongControlBytes) {
  EXPECT_TRUE(LooksLikeText("\nproftext 1.0\r\n\tx"));
  EXPECT_TRUE(LooksLikeText(""));
  EXPECT_FALSE(LooksLikeText(std::string("\xff\xfe\x00", 3)));
  EXPECT_FALSE(LooksLikeText("a\x01"));
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/proftools-io-test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    const std::string listing = dir_ + "/.listing";
    std::system(("ls -A '" + dir_ + "' > '" + listing + "'").c_str());
    std::ifstream in(listing);
    for (std::string name; std::getline(in, name);) {
      if (name != ".listing") names.push_back(name);
    }
    return names;
  }
  static std::string Contents(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string dir_;
};

using AtomicOutput = TempDir;

TEST_F(AtomicOutput, CommitRenamesIntoPlace) {
  {
    Output out(Path("result.prof"));
    out.Write("hello\n");
    EXPECT_EQ(Entries().size(), 1u);  // only the temporary file so far
    EXPECT_EQ(std::string(Entries()[0]).rfind(".result.prof.tmp-", 0), 0u);
    out.Commit();
  }
  EXPECT_EQ(Entries(), (std::vector<std::string>{"result.prof"}));
  EXPECT_EQ(Contents(Path("result.prof")), "hello\n");
}

TEST_F(AtomicOutput, WithoutCommitNothingIsLeftAndTheOldFileIsUntouched) {
  { std::ofstream(Path("result.prof")) << "old\n"; }
  {
    Output out(Path("result.prof"));
    out.Write(std::string(1 << 20, 'x'));  // larger than the buffer: really written
  }
  EXPECT_EQ(Entries(), (std::vector<std::string>{"result.prof"}));
  EXPECT_EQ(Contents(Path("result.prof")), "old\n");
}

TEST_F(AtomicOutput, KeepsTheModeOfTheFileItReplaces) {
  { std::ofstream(Path("x")) << "old"; }
  chmod(Path("x").c_str(), 0640);
  {
    Output out(Path("x"));
    out.Write("new");
    out.Commit();
  }
  struct stat st;
  ASSERT_EQ(stat(Path("x").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST_F(AtomicOutput, MissingDirectoryIsAClearError) {
  try {
    Output out(Path("no/such/dir/x"));
    FAIL();
  } catch (const ProfError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create a temporary file next to it"),
              std::string::npos);
  }
}

// A FIFO stands for every non-regular target (a device such as /dev/null is not tested
// directly: if the code regressed, running as root would replace the machine's /dev/null).
TEST_F(AtomicOutput, AFifoIsWrittenInPlace) {
  const std::string fifo = Path("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    received.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  {
    Output out(fifo);
    out.Write("through the pipe\n");
    out.Commit();
  }
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_EQ(Entries(), (std::vector<std::string>{"pipe"}));  // no temporary file beside it
}

// -o through a symbolic link writes the file it points to; the link stays a link.
using OutputThroughLinks = TempDir;

std::string LinkTarget(const std::string& link) {
  char target[4096];
  const ssize_t n = readlink(link.c_str(), target, sizeof target);
  return n < 0 ? "(not a link)" : std::string(target, static_cast<size_t>(n));
}

TEST_F(OutputThroughLinks, ALinkIsKeptAndItsTargetReplacedAtomically) {
  ASSERT_EQ(mkdir(Path("d").c_str(), 0755), 0);
  { std::ofstream(Path("d/real.prof")) << "old\n"; }
  chmod(Path("d/real.prof").c_str(), 0640);
  // Two levels, both relative: link -> d/middle -> real.prof (relative to d/).
  ASSERT_EQ(symlink("real.prof", Path("d/middle").c_str()), 0);
  ASSERT_EQ(symlink("d/middle", Path("link").c_str()), 0);
  {
    Output out(Path("link"));
    out.Write("new\n");
    // The temporary file sits next to the target, so that the rename is atomic.
    std::system(("ls -A '" + Path("d") + "' > '" + Path("listing") + "'").c_str());
    EXPECT_NE(Contents(Path("listing")).find(".real.prof.tmp-"), std::string::npos);
    EXPECT_EQ(Contents(Path("d/real.prof")), "old\n");  // untouched until Commit
    out.Commit();
  }
  EXPECT_EQ(LinkTarget(Path("link")), "d/middle");
  EXPECT_EQ(LinkTarget(Path("d/middle")), "real.prof");
  EXPECT_EQ(Contents(Path("d/real.prof")), "new\n");
  struct stat st;
  ASSERT_EQ(stat(Path("d/real.prof").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);  // the target's mode, kept
  std::remove(Path("listing").c_str());
  EXPECT_EQ(Entries(), (std::vector<std::string>{"d", "link"}));
}

TEST_F(OutputThroughLinks, ADanglingLinkCreatesItsTarget) {
  ASSERT_EQ(symlink(Path("made.prof").c_str(), Path("link").c_str()), 0);  // absolute
  {
    Output out(Path("link"));
    out.Write("made\n");
    out.Commit();
  }
  EXPECT_EQ(LinkTarget(Path("link")), Path("made.prof"));
  EXPECT_EQ(Contents(Path("made.prof")), "made\n");
}

TEST_F(OutputThroughLinks, AFailedRunLeavesTheTargetAndNoTemporaryFile) {
  { std::ofstream(Path("real.prof")) << "old\n"; }
  ASSERT_EQ(symlink("real.prof", Path("link").c_str()), 0);
  {
    Output out(Path("link"));
    out.Write(std::string(1 << 20, 'x'));
  }
  EXPECT_EQ(Entries(), (std::vector<std::string>{"link", "real.prof"}));
  EXPECT_EQ(Contents(Path("real.prof")), "old\n");
}

TEST_F(OutputThroughLinks, ALoopIsAnError) {
  ASSERT_EQ(symlink("b", Path("a").c_str()), 0);
  ASSERT_EQ(symlink("a", Path("b").c_str()), 0);
  try {
    Output out(Path("a"));
    FAIL();
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(), Path("a") + ": too many levels of symbolic links");
  }
  EXPECT_EQ(LinkTarget(Path("a")), "b");
}

TEST(WidenPipe, APipeGetsAOneMebibyteBufferAndAFileIsLeftAlone) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_LT(fcntl(fds[0], F_GETPIPE_SZ), 1 << 20);  // the kernel's default: 64 KiB
  WidenPipe(fds[1]);
  EXPECT_EQ(fcntl(fds[0], F_GETPIPE_SZ), 1 << 20);  // one buffer, seen from both ends
  close(fds[0]);
  close(fds[1]);
  WidenPipe(1000);  // not open: nothing happens, nothing is thrown
}

using Inputs = TempDir;

TEST_F(Inputs, OpenInputGunzipsAndSniffsTheInnerContent) {
  { std::ofstream(Path("p.gz"), std::ios::binary) << Gzip("proftext 1.0\nrest\n"); }
  Input input = OpenInput(Path("p.gz"));
  EXPECT_TRUE(input.gzipped);
  EXPECT_EQ(input.head, "proftext 1.0\nrest\n");
  EXPECT_EQ(input.reopen_path, Path("p.gz"));  // a regular file can be read again
  EXPECT_EQ(ReadAll(input.stream.get()), "proftext 1.0\nrest\n");
}

TEST(OpenInputStream, GunzipsAndSniffsBytesInMemory) {
  Input input =
      OpenInputStream(std::make_unique<MemoryStream>(Gzip("proftext 1.0\nrest\n")), "mem");
  EXPECT_EQ(input.name, "mem");
  EXPECT_TRUE(input.gzipped);
  EXPECT_EQ(input.head, "proftext 1.0\nrest\n");
  EXPECT_TRUE(input.text);
  EXPECT_EQ(input.reopen_path, "");  // bytes in memory cannot be opened again
  EXPECT_EQ(ReadAll(input.stream.get()), "proftext 1.0\nrest\n");
  Input plain = OpenInputStream(std::make_unique<MemoryStream>("sample.interval=20\n"), "r");
  EXPECT_FALSE(plain.gzipped);
  EXPECT_EQ(plain.head, "sample.interval=20\n");
  // The sniffing reads through gzip at once: a cut member is refused when opened.
  EXPECT_THROW(OpenInputStream(std::make_unique<MemoryStream>(Gzip("x").substr(0, 12)), "cut"),
               ProfError);
}

// ReadWholeInput on a gzipped file (inflated whole by libdeflate) and on the same bytes in memory
// (through the stream: zlib): the same content, or the same message.
std::string WholeOf(Input input, uint64_t cap) {
  WholeInput data;
  ReadWholeInput(input, cap, "pprof data", &data);
  return std::string(data.view());
}

std::string WholeOrError(Input input, uint64_t cap) {
  try {
    return WholeOf(std::move(input), cap);
  } catch (const ProfError& e) {
    return "error: " + e.diagnostic().message;
  }
}

TEST_F(Inputs, AGzippedFileIsInflatedWholeAsItsStreamWouldBe) {
  std::mt19937 random(7);
  std::string text;  // compresses about 2:1, longer than the first guess of room (64 KiB)
  while (text.size() < 300000) text += "frame_" + std::to_string(random() % 5000) + ";";
  const std::string zeros(3 << 20, '\0');  // 1000:1, past the guess from the file's size
  const std::vector<std::string> files = {
      Gzip(text),
      Gzip(text) + Gzip("tail"),  // the last member's size says nothing of the first's
      Gzip("") + Gzip(text) + Gzip(""),
      Gzip(zeros),
      Gzip(zeros) + Gzip(text),
      Gzip(text.substr(0, 5000)),
  };
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& file = files[i];
    { std::ofstream(Path("w.gz"), std::ios::binary) << file; }
    const auto from_file = [&] { return OpenInput(Path("w.gz")); };
    const auto in_memory = [&] {
      return OpenInputStream(std::make_unique<MemoryStream>(file), "m");
    };
    const std::string expected = WholeOf(in_memory(), 0);
    EXPECT_EQ(WholeOf(from_file(), 0), expected) << i;
    // Its head and its stream (what the sniffers and the streaming readers see) too.
    Input opened = from_file();
    EXPECT_EQ(opened.head, in_memory().head) << i;
    EXPECT_EQ(opened.text, in_memory().text) << i;
    EXPECT_EQ(ReadAll(opened.stream.get()), expected) << i;
    // The cap: exactly the size is allowed, a byte less is refused, as through the stream.
    EXPECT_EQ(WholeOf(from_file(), expected.size()), expected) << i;
    if (expected.size() > 4096) {
      const std::string refused = WholeOrError(from_file(), expected.size() - 1);
      EXPECT_EQ(refused, WholeOrError(in_memory(), expected.size() - 1)) << i;
      EXPECT_NE(refused.find("inflates to more than"), std::string::npos) << refused;
    }
  }
  // A small file (kSmallGzipFile) is inflated whole when it is opened: what is read is what was
  // sniffed, whatever the file holds later. A larger one is read again from its path (as the
  // two-pass readers read it), not through the stream: what it holds then is what is read.
  {
    { std::ofstream(Path("again.gz"), std::ios::binary) << Gzip("first"); }
    Input input = OpenInput(Path("again.gz"));
    EXPECT_NE(input.inflated, nullptr);
    EXPECT_EQ(input.head, "first");
    { std::ofstream(Path("again.gz"), std::ios::binary) << Gzip(text); }
    EXPECT_EQ(WholeOf(std::move(input), 0), "first");
    std::string noise;  // random bytes do not compress: a file larger than kSmallGzipFile
    while (noise.size() <= kSmallGzipFile) noise += static_cast<char>(random() & 0xff);
    { std::ofstream(Path("again.gz"), std::ios::binary) << Gzip(noise); }
    Input large = OpenInput(Path("again.gz"));
    EXPECT_EQ(large.inflated, nullptr);
    EXPECT_EQ(large.head, noise.substr(0, kSniffBytes));
    { std::ofstream(Path("again.gz"), std::ios::binary) << Gzip(text); }
    EXPECT_EQ(WholeOf(std::move(large), 0), text);
  }
  // Corrupt or cut short after the sniffed head: zlib's message, as through the stream.
  std::string corrupt = Gzip(text);
  corrupt[corrupt.size() / 2] ^= 0x55;
  const std::string cut = Gzip(text).substr(0, Gzip(text).size() / 2);
  for (const std::string& bad : {corrupt, cut, Gzip(text) + "garbage after the member"}) {
    { std::ofstream(Path("bad.gz"), std::ios::binary) << bad; }
    const std::string from_file = WholeOrError(OpenInput(Path("bad.gz")), 0);
    EXPECT_EQ(from_file.substr(0, 12), "error: gzip:") << from_file;
    EXPECT_EQ(from_file,
              WholeOrError(OpenInputStream(std::make_unique<MemoryStream>(bad), "m"), 0));
  }
}

TEST_F(Inputs, OpenInputExplainsMissingFilesAndDirectories) {
  EXPECT_THROW(OpenInput(Path("missing")), ProfError);
  try {
    OpenInput(dir_);
    FAIL();
  } catch (const ProfError& e) {
    EXPECT_EQ(e.diagnostic().Format(), dir_ + ": is a directory");
  }
}

// What stands before a spool (issue 47, item 8): exactly the cap passes, a byte more fails
// naming the option, and the largest cap is no cap (it once asked for 0 bytes: an empty input).
TEST(SpoolCappedStream, PassesTheCapAndRefusesOneByteMore) {
  auto read_all = [](uint64_t cap, size_t size) {
    SpoolCappedStream capped(std::make_unique<MemoryStream>(std::string(size, 'x')), cap,
                             "<stdin>");
    std::string got;
    char buffer[7];
    for (size_t n; (n = capped.Read(buffer, sizeof buffer)) > 0;) got.append(buffer, n);
    return got.size();
  };
  EXPECT_EQ(read_all(100, 100), 100u);
  EXPECT_EQ(read_all(UINT64_MAX, 100), 100u);
  EXPECT_EQ(read_all(UINT64_MAX - 1, 100), 100u);
  try {
    read_all(100, 101);
    FAIL() << "101 bytes passed a cap of 100";
  } catch (const ProfError& e) {
    EXPECT_NE(e.diagnostic().message.find("more than 100 bytes"), std::string::npos);
    EXPECT_NE(e.diagnostic().message.find("--max-input-size"), std::string::npos);
  }
}

}  // namespace
}  // namespace io_test
}  // namespace proftools
