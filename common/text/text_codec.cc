#include "common/text/text_codec.h"

#include "common/text/text_reader.h"
#include "common/text/text_writer.h"

namespace proftools {
namespace {

// A header line further down is a prof text file with something before its header (a
// comment, a blank line), and a misspelt header is one too: the text reader says what is wrong.
int SniffProfText(std::string_view head, bool text) {
  if (head.substr(0, 9) == "proftext ") return kCertain;
  // A misspelt header ("proftext\t1.0") or one after other lines is still ours to refuse.
  if (head.substr(0, 8) == "proftext") return kLikely;
  return text && head.find("\nproftext ") != std::string_view::npos ? kLikely : kNotMine;
}

// The text reader checks every rule itself (with the handler, it reports them all).
void ReadProfTextInput(Input& input, const ReadContext& context, ProfileSink* sink) {
  ReadText(input.stream.get(), input.name, sink, context.violations);
}

void WriteProfText(ProfileSource& profile, ByteSink* out, const WriteContext&) {
  CanonicalWriter writer(out);
  profile.Read(&writer);
}

}  // namespace

const ReaderSpec kProfTextReader{"prof",
                                 "prof text",
                                 ReaderShape::kStreaming,
                                 nullptr,
                                 SniffProfText,
                                 ReadProfTextInput,
                                 /*checks_itself=*/true};

const WriterSpec kProfTextWriter{"prof",
                                 "prof-text --canonical",
                                 "prof text",
                                 /*binary=*/false,
                                 /*gzip=*/false,
                                 ".prof",
                                 {},
                                 WriteProfText};

}  // namespace proftools
