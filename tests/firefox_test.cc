// The Firefox Profiler's formats (common/firefox/): the reader of Gecko and processed profiles
// (what each becomes: labels, locations with file, line and column, mappings and addresses, value
// types; the versions it reads; its errors for broken tables), and prof2firefox's writer: its
// output keeps the invariants of the processed format (checked here by a validator written from
// the format's documentation, src/types/profile.ts and CHANGELOG-formats.md of
// firefox-devtools/profiler, as version 48 has them), reads back with the same stacks, weights and
// times (a property over random profiles), splits long samples as background 003_ describes, and
// gives the same bytes twice.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/base/json_string.h"
#include "common/base/quantity.h"
#include "common/firefox/firefox_codec.h"
#include "common/firefox/firefox_writer.h"
#include "common/firefox/fx_tables.h"
#include "common/io/byte_stream.h"
#include "common/io/input.h"
#include "common/load/read_profile.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace firefox_test {  // a namespace of its own: the tests build as one unit
namespace {

using testing::CollectingHandler;
using testing::Parse;
using testing::Preamble;

Profile Read(const std::string& json, bool allow_empty = false) {
  Input input = OpenInputStream(std::make_unique<MemoryStream>(json), "in.json");
  ProfileBuilder builder;
  ReadOptions options;
  options.allow_empty = allow_empty;
  ReadProfile(input, &builder, options);
  return builder.Take();
}

// The message of the error reading `json` gives ("" when it reads).
std::string ErrorOf(const std::string& json) {
  try {
    Read(json);
  } catch (const ProfError& e) {
    return e.diagnostic().message;
  }
  return "";
}

std::string Write(const Profile& profile, CollectingHandler* warnings,
                  const std::string& value = "") {
  testing::MemorySource source(profile);
  StringSink out;
  WriteContext context;
  if (!value.empty()) context.options["value"] = value;
  context.warnings = warnings;
  kFirefoxWriter.write(source, &out, context);
  return out.text();
}

const Function* FunctionOf(const Profile& p, uint64_t id) {
  return p.defs.functions.Find(id);
}
const Location* LocationOf(const Profile& p, uint64_t id) {
  return p.defs.locations.Find(id);
}

// A stack as names, leaf first (inlined lines innermost first); "<bare>" for a location without
// lines.
std::vector<std::string> Names(const Profile& p, uint64_t stack_id) {
  std::vector<std::string> names;
  for (uint64_t id : p.defs.stacks.Find(stack_id)->location_ids) {
    const Location* l = LocationOf(p, id);
    if (l->lines.empty()) names.push_back("<bare>");
    for (const Line& line : l->lines) names.push_back(FunctionOf(p, line.function_id)->name);
  }
  return names;
}

std::string LabelOf(const Sample& s, const std::string& key) {
  for (const Label& l : s.labels) {
    if (l.key == key) return l.is_num ? std::to_string(l.num) : l.str;
  }
  return "-";
}

const char* kGecko =
    R"j({"libs":[{"start":4096,"end":8192,"offset":0,"path":"/lib/liba.so","name":"liba.so",)j"
    R"j("debugName":"liba.so","breakpadId":"AB12","codeId":"ab12"}],)j"
    R"j("meta":{"version":27,"startTime":1000.5,"interval":1,"product":"Firefox",)j"
    R"j("categories":[{"name":"Other"},{"name":"JavaScript"}],)j"
    R"j("sampleUnits":{"time":"ms","eventDelay":"ms","threadCPUDelta":"µs"}},)j"
    R"j("threads":[{"name":"GeckoMain","processName":"Parent","pid":10,"tid":10,)j"
    R"j("stringTable":["(root)","f (https://a.test/a.js:3:5)[2]","0x1010"],)j"
    R"j("samples":{"schema":{"stack":0,"time":1,"threadCPUDelta":2},)j"
    R"j("data":[[1,0.5],[2,1.5,700],[null,2.5,0]]},)j"
    R"j("stackTable":{"data":[[null,0],[0,1],[1,2]],"schema":{"prefix":0,"frame":1}},)j"
    R"j("frameTable":{"schema":{"location":0,"relevantForJS":1,"line":2,"column":3,)j"
    R"j("category":4},"data":[[0,false,null,null,0],[1,false,4,7,1],[2]]}}],)j"
    R"j("processes":[{"meta":{"version":27,"startTime":1001.5},"libs":[],"threads":[{)j"
    R"j("name":"DOM Worker","pid":11,"tid":12,"stringTable":["w"],)j"
    R"j("samples":{"schema":{"stack":0,"time":1},"data":[[0,1]]},)j"
    R"j("stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0]]},)j"
    R"j("frameTable":{"schema":{"location":0},"data":[[0]]}}],"processes":[]}]})j";

TEST(FirefoxReaderTest, GeckoProfile) {
  EXPECT_EQ(SniffFirefoxProfile(kGecko, true), kCertain);
  // Libs first, as Firefox writes them, and meta beyond the head: likely.
  EXPECT_EQ(SniffFirefoxProfile(std::string(kGecko, 180), true), kLikely);
  // Pretty-printed (jq, json.tool), before version 4 (libs as JSON text), in a DevTools
  // recording: likely too; another object's first key is not.
  EXPECT_EQ(
      SniffFirefoxProfile("{\n  \"libs\" : [\n {\"breakpadId\": \"A\", \"debugName\": \"a\"", true),
      kLikely);
  EXPECT_EQ(SniffFirefoxProfile(R"({"libs":"[{\"breakpadId\":\"F1D9\"}]")", true), kLikely);
  EXPECT_EQ(SniffFirefoxProfile(R"({"label":"Recording #1","duration":5.5,"markers":[])", true),
            kLikely);
  EXPECT_EQ(SniffFirefoxProfile(R"({"label":"x","duration":5.5})", true), kNotMine);
  EXPECT_EQ(SniffFirefoxProfile(R"({"libs":[{"path":"/a"}]})", true), kNotMine);
  const Profile p = Read(kGecko);
  ASSERT_EQ(p.header.types.size(), 2u);
  EXPECT_EQ(p.header.types[0], (ValueType{"samples", "count"}));
  EXPECT_EQ(p.header.types[1], (ValueType{"cpu", "microseconds"}));
  EXPECT_EQ(p.header.default_type, "samples");
  EXPECT_EQ(p.header.time_nanos, 1000500000);
  ASSERT_EQ(p.samples.size(), 4u);
  // Times from each process's own startTime.
  EXPECT_EQ(p.samples[0].time_nanos, 1001000000);
  EXPECT_EQ(p.samples[1].time_nanos, 1002000000);
  EXPECT_EQ(p.samples[3].time_nanos, 1002500000);
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{1, 700}));
  EXPECT_EQ(p.samples[0].values, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(LabelOf(p.samples[0], "pid"), "10");
  EXPECT_EQ(LabelOf(p.samples[0], "tid"), "10");
  EXPECT_EQ(LabelOf(p.samples[0], "thread"), "GeckoMain");
  EXPECT_EQ(LabelOf(p.samples[0], "process"), "Parent");
  EXPECT_EQ(LabelOf(p.samples[0], "category"), "JavaScript");
  EXPECT_EQ(LabelOf(p.samples[1], "category"), "JavaScript");  // inherited from its prefix
  EXPECT_EQ(LabelOf(p.samples[3], "thread"), "DOM Worker");
  EXPECT_EQ(LabelOf(p.samples[3], "pid"), "11");
  EXPECT_EQ(Names(p, p.samples[0].stack_id), (std::vector<std::string>{"f", "(root)"}));
  EXPECT_EQ(Names(p, p.samples[1].stack_id), (std::vector<std::string>{"<bare>", "f", "(root)"}));
  EXPECT_TRUE(Names(p, p.samples[2].stack_id).empty());  // a null stack
  // The JS frame: its file, its function's line from the location string, the frame's line and
  // column from the table.
  const Location* js = nullptr;
  const Location* native = nullptr;
  for (const Location& l : p.defs.locations.items()) {
    if (!l.lines.empty() && FunctionOf(p, l.lines[0].function_id)->name == "f") js = &l;
    if (l.lines.empty()) native = &l;
  }
  ASSERT_NE(js, nullptr);
  EXPECT_EQ(js->lines[0].line, 4);
  EXPECT_EQ(js->lines[0].column, 7);
  const Function* f = FunctionOf(p, js->lines[0].function_id);
  EXPECT_EQ(f->file, "https://a.test/a.js");
  EXPECT_EQ(f->start_line, 3);
  // The native frame: its address, in a mapping of its lib.
  ASSERT_NE(native, nullptr);
  EXPECT_EQ(native->address, 0x1010u);
  ASSERT_EQ(p.defs.mappings.items().size(), 1u);
  const Mapping& m = p.defs.mappings.items()[0];
  EXPECT_EQ(native->mapping_id, m.id);
  EXPECT_EQ(m.file, "/lib/liba.so");
  EXPECT_EQ(m.build_id, "ab12");
  EXPECT_EQ(m.start, 4096u);
  EXPECT_EQ(m.limit, 8192u);
}

const char* kProcessed70 =
    R"j({"meta":{"preprocessedProfileVersion":70,"startTime":2000,"interval":0.5,)j"
    R"j("categories":[{"name":"Other","color":"grey","subcategories":["Other"]},)j"
    R"j({"name":"Idle","color":"transparent","subcategories":["Other"]}]},)j"
    R"j("libs":[{"arch":"","name":"liba.so","path":"/lib/liba.so","debugName":"liba.so",)j"
    R"j("debugPath":"/lib/liba.so","breakpadId":"AB","codeId":null}],)j"
    R"j("shared":{"stringArray":["main","f","a.js","0x10"],)j"
    R"j("sources":{"id":[null],"filename":[2],"length":1},)j"
    R"j("funcTable":{"name":[0,1,3],"isJS":[false,true,false],"source":[null,0,null],)j"
    R"j("lineNumber":[null,3,null],"resource":[-1,-1,-1],"length":3},)j"
    R"j("frameTable":{"func":[0,1,2],"address":[-1,-1,16],"line":[null,4,null],)j"
    R"j("column":[null,2,null],"category":[0,1,null],"lib":[-1,-1,0],"length":3},)j"
    R"j("stackTable":{"frame":[0,1,2],"prefixOffset":[0,1,1],"length":3}},)j"
    R"j("threads":[{"name":"T","processName":"app","pid":"7","tid":8,)j"
    R"j("samples":{"stack":[1,2,null],"timeDeltas":[1,1,2.5],"weight":[1,3,1],)j"
    R"j("threadCPUDelta":[null,40,2],"weightType":"samples","length":3}}]})j";

TEST(FirefoxReaderTest, ProcessedProfileOfToday) {
  EXPECT_EQ(SniffFirefoxProfile(kProcessed70, true), kCertain);
  const Profile p = Read(kProcessed70);
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_EQ(p.samples[0].time_nanos, 2001000000);  // timeDeltas summed
  EXPECT_EQ(p.samples[1].time_nanos, 2002000000);
  EXPECT_EQ(p.samples[2].time_nanos, 2004500000);
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{3, 40}));
  EXPECT_EQ(LabelOf(p.samples[0], "pid"), "7");
  EXPECT_EQ(LabelOf(p.samples[0], "tid"), "8");
  EXPECT_EQ(LabelOf(p.samples[0], "process"), "app");
  EXPECT_EQ(LabelOf(p.samples[0], "category"), "Idle");
  EXPECT_EQ(LabelOf(p.samples[1], "category"), "Idle");  // inherited
  EXPECT_EQ(Names(p, p.samples[0].stack_id), (std::vector<std::string>{"f", "main"}));
  // The unsymbolicated frame (named by its address): a bare address in a mapping of its lib.
  EXPECT_EQ(Names(p, p.samples[1].stack_id), (std::vector<std::string>{"<bare>", "f", "main"}));
  for (const Location& l : p.defs.locations.items()) {
    if (!l.lines.empty()) continue;
    EXPECT_EQ(l.address, 16u);
    ASSERT_EQ(p.defs.mappings.items().size(), 1u);
    EXPECT_EQ(p.defs.mappings.items()[0].file, "/lib/liba.so");
    EXPECT_EQ(p.defs.mappings.items()[0].build_id, "AB");
  }
  for (const Function& f : p.defs.functions.items()) {
    if (f.name == "f") {
      EXPECT_EQ(f.file, "a.js");
      EXPECT_EQ(f.start_line, 3);
    }
  }
}

TEST(FirefoxReaderTest, WeightTypes) {
  std::string json = kProcessed70;
  json.replace(json.find("\"weightType\":\"samples\""), 22, "\"weightType\":\"tracing-ms\"");
  json.replace(json.find("\"weight\":[1,3,1]"), 16, "\"weight\":[1,3,0.25]");
  Profile p = Read(json);
  ASSERT_EQ(p.header.types.size(), 3u);
  EXPECT_EQ(p.header.types[1], (ValueType{"wall", "microseconds"}));
  EXPECT_EQ(p.samples[2].values, (std::vector<int64_t>{1, 250, 2}));
  json.replace(json.find("\"weightType\":\"tracing-ms\""), 25, "\"weightType\":\"bytes\"");
  p = Read(json);
  EXPECT_EQ(p.header.types[1], (ValueType{"bytes", "bytes"}));
  EXPECT_EQ(p.samples[1].values, (std::vector<int64_t>{1, 3, 40}));
  json.replace(json.find("\"weightType\":\"bytes\""), 20, "\"weightType\":\"grams\"");
  EXPECT_NE(ErrorOf(json).find("weightType grams: not a weight type"), std::string::npos);
}

// Replaces the first `from` in `text` by `to`.
std::string With(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(FirefoxReaderTest, VersionsOutsideTheRangeAreRefusedNamingBoth) {
  EXPECT_EQ(ErrorOf(With(kGecko, "\"version\":27", "\"version\":37")),
            "byte 165: Gecko profile version 37 is newer than proftools reads (3 to 36)");
  EXPECT_NE(ErrorOf(With(kGecko, "\"version\":27", "\"version\":2")).find("is older"),
            std::string::npos);
  EXPECT_NE(ErrorOf(With(kProcessed70, ":70,", ":71,"))
                .find("processed profile version 71 is newer than proftools reads (18 to 70)"),
            std::string::npos);
  EXPECT_NE(ErrorOf(With(kProcessed70, ":70,", ":17,")).find("is older"), std::string::npos);
  EXPECT_NE(ErrorOf(With(kGecko, "\"version\":27,", "")).find("meta.version: missing"),
            std::string::npos);
}

TEST(FirefoxReaderTest, BrokenTablesAreErrorsNotHangs) {
  const auto error = [](const std::string& json, const std::string& expected) {
    const std::string message = ErrorOf(json);
    EXPECT_NE(message.find(expected), std::string::npos) << message << "\nexpected: " << expected;
  };
  // A prefix pointing at itself or forward: a cycle's start, refused.
  error(With(kGecko, "[[null,0],[0,1],[1,2]]", "[[null,0],[1,1],[1,2]]"),
        "threads[0].stackTable: prefix[1]: 1 is not a stack before it");
  error(With(kGecko, "[[null,0],[0,1],[1,2]]", "[[2,0],[0,1],[1,2]]"),
        "threads[0].stackTable: prefix[0]: 2 is not a stack before it");
  error(With(kProcessed70, "\"prefixOffset\":[0,1,1]", "\"prefix\":[null,1,0]"),
        "shared.stackTable: prefix[1]: 1 is not a stack before it");
  error(With(kProcessed70, "\"prefixOffset\":[0,1,1]", "\"prefixOffset\":[0,5,1]"),
        "prefixOffset[1]: 5 is out of range");
  // Indexes past a table's end; string indexes out of range.
  error(With(kGecko, "[[1,0.5],", "[[3,0.5],"),
        "threads[0].samples: stack[0]: 3 is out of range (expected an integer from 0 to 2)");
  error(With(kGecko, "[[0,false,null,null,0],", "[[9,false,null,null,0],"),
        "threads[0].frameTable: location[0]: 9 is out of range");
  error(With(kProcessed70, "\"name\":[0,1,3]", "\"name\":[0,1,4]"),
        "shared.funcTable: name[2]: 4 is out of range");
  error(With(kProcessed70, "\"func\":[0,1,2]", "\"func\":[0,1,-1]"),
        "shared.frameTable: func[2]: -1 is out of range");
  error(With(kProcessed70, "\"stack\":[1,2,null]", "\"stack\":[1,2.5,null]"),
        "stack[1]: 2.5 is out of range");
  // Schema keys missing, a repeated index; column lengths: shorter than `length` reads as
  // nulls past the end (as the profiler reads them, undefined), an error where a value belongs;
  // longer is an error.
  error(With(kGecko, "\"schema\":{\"prefix\":0,\"frame\":1}", "\"schem\":{}"),
        "threads[0].stackTable: no `schema`");
  error(With(kGecko, "\"schema\":{\"prefix\":0,\"frame\":1}", "\"schema\":{\"prefix\":0}"),
        "threads[0].stackTable: no column `frame`");
  error(With(kGecko, "{\"prefix\":0,\"frame\":1}", "{\"prefix\":1,\"frame\":1}"),
        "column index 1 is given to two columns");
  error(With(kProcessed70, "\"func\":[0,1,2]", "\"func\":[0,1]"),
        "shared.frameTable: func[2]: null where an index belongs");
  error(With(kProcessed70, "\"func\":[0,1,2]", "\"func\":[0,1,2,1]"),
        "shared.frameTable: column `func` has 4 cells but `length` is 3");
  // The first column read sizes the others: one shorter or longer after it is still refused,
  // with `length` or without.
  error(With(kProcessed70, "\"frame\":[0,1,2],\"prefixOffset\":[0,1,1],\"length\":3",
             "\"frame\":[0,1,2],\"prefixOffset\":[0,1,1,1,1]"),
        "shared.stackTable: column `prefixOffset` has 5 cells but column `frame` has 3");
  error(With(kProcessed70, "\"frame\":[0,1,2],\"prefixOffset\":[0,1,1],\"length\":3",
             "\"frame\":[0,1,2,0],\"prefixOffset\":[0,1],\"length\":4"),
        "shared.stackTable: prefixOffset[2]: null where an index belongs");
  // A `length` past every column's end: the table is as long as its longest column (no
  // allocation of `length` rows).
  EXPECT_EQ(ErrorOf(With(kProcessed70, "\"prefixOffset\":[0,1,1],\"length\":3",
                         "\"prefixOffset\":[0,1,1],\"length\":1000000000000000")),
            "");
  error(With(kProcessed70, "\"frame\":[0,1,2]", "\"frame\":\"x\""),
        "shared.stackTable: no column `frame`");
  // Types.
  error(With(kGecko, "\"stringTable\":[\"w\"]", "\"stringTable\":[1]"),
        "processes[0].threads[0].stringTable[0]: a number where a string belongs");
  error(With(kProcessed70, "\"timeDeltas\":[1,1,2.5]", "\"timeDeltas\":[1,\"x\",2.5]"),
        "timeDeltas[1]: a number belongs here");
  error(With(kProcessed70, "\"timeDeltas\":[1,1,2.5]", "\"timeDeltas\":[1,1e300,2.5]"),
        "a time beyond what 64-bit nanoseconds hold");
  // JSON cut short.
  const std::string cut(kProcessed70, 300);
  EXPECT_FALSE(ErrorOf(cut).empty());
}

TEST(FxCellTest, EightBytesThatTellNullOtherAndEveryNumberApart) {
  static_assert(sizeof(FxCell) == 8, "a cell is a double's size");
  EXPECT_EQ(FxCell().kind(), FxCell::kNull);
  EXPECT_EQ(FxCell().number(), 0);
  EXPECT_EQ(FxCell::Other().kind(), FxCell::kOther);
  EXPECT_EQ(FxCell::Other().number(), 0);
  for (const double number : {0.0, -0.0, 1.0, -1.5, 2.5e300, -1e-300, 9007199254740993.0,
                              std::numeric_limits<double>::infinity()}) {
    const FxCell cell = FxCell::Number(number);
    EXPECT_EQ(cell.kind(), FxCell::kNumber) << number;
    EXPECT_EQ(cell.number(), number);
  }
  // A NaN is still a number (JSON has none, but no bit pattern may pass for null or other).
  const FxCell nan = FxCell::Number(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(nan.kind(), FxCell::kNumber);
  EXPECT_TRUE(std::isnan(nan.number()));
}

TEST(FirefoxReaderTest, SniffsItsOwnAndNotTheOtherViewersFormats) {
  EXPECT_EQ(SniffFirefoxProfile(R"({"traceEvents":[{"ph":"X","meta":{"version":1}}]})", true),
            kNotMine);
  EXPECT_EQ(SniffFirefoxProfile(
                R"({"$schema":"https://www.speedscope.app/file-format-schema.json",)"
                R"("shared":{"frames":[]},"profiles":[],"meta":{"version":1},"threads":[]})",
                true),
            kNotMine);
  EXPECT_EQ(SniffFirefoxProfile(R"({"nodes":[{"callFrame":{}}],"meta":{"version":1}})", true),
            kNotMine);
  EXPECT_EQ(SniffFirefoxProfile(R"({"meta":{"version":24},"threads":[]})", true), kCertain);
  EXPECT_EQ(SniffFirefoxProfile(R"({"meta":{"startTime":1}})", true), kNotMine);
  EXPECT_EQ(SniffFirefoxProfile(R"([{"meta":{"version":24},"threads":[]}])", true), kNotMine);
}

// --- the writer ------------------------------------------------------------------------------

// The structural rules of a version 48 processed profile, from the format's documentation:
// every problem found, as text.
class Validator {
 public:
  explicit Validator(const std::string& json) : padded_(json) {
    simdjson::dom::element root;
    if (parser_.parse(padded_).get(root)) {
      Problem("not JSON");
      return;
    }
    Check(root);
  }
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  void Problem(const std::string& what) { problems_.push_back(what); }

  // The table's columns, each an array of `length` cells; `length` returned (-1: broken).
  int64_t Table(simdjson::dom::element table, const std::string& what,
                const std::vector<std::string>& columns) {
    int64_t length = -1;
    if (table["length"].get(length)) {
      Problem(what + ".length missing");
      return -1;
    }
    for (const std::string& c : columns) {
      simdjson::dom::array column;
      if (table[c].get(column)) {
        Problem(what + "." + c + " missing");
      } else if (static_cast<int64_t>(column.size()) != length) {
        Problem(what + "." + c + " has " + std::to_string(column.size()) + " cells, length " +
                std::to_string(length));
      }
    }
    return length;
  }

  // Each cell of `column` null (when allowed) or an integer in [min, max].
  void Indexes(simdjson::dom::element table, const std::string& what, const std::string& column,
               int64_t min, int64_t max, bool nullable, bool below_row = false) {
    simdjson::dom::array cells;
    if (table[column].get(cells)) return;
    int64_t row = 0;
    for (simdjson::dom::element cell : cells) {
      int64_t value = 0;
      if (cell.is_null()) {
        if (!nullable) Problem(what + "." + column + "[" + std::to_string(row) + "] is null");
      } else if (cell.get(value) || value < min || value > max || (below_row && value >= row)) {
        Problem(what + "." + column + "[" + std::to_string(row) + "] out of range");
      }
      ++row;
    }
  }

  void Check(simdjson::dom::element root) {
    simdjson::dom::element meta;
    if (root["meta"].get(meta)) return Problem("meta missing");
    double number = 0;
    std::string_view text;
    for (const char* key : {"interval", "startTime", "processType", "stackwalk", "version"}) {
      if (meta[key].get(number)) Problem(std::string("meta.") + key + " missing");
    }
    if (meta["interval"].get(number) == simdjson::SUCCESS && number <= 0) {
      Problem("meta.interval not positive");
    }
    int64_t version = 0;
    if (meta["preprocessedProfileVersion"].get(version) || version != 48) {
      Problem("meta.preprocessedProfileVersion is not 48");
    }
    if (meta["product"].get(text)) Problem("meta.product missing");
    simdjson::dom::array array;
    if (meta["markerSchema"].get(array)) Problem("meta.markerSchema missing");
    simdjson::dom::array categories;
    if (meta["categories"].get(categories) || categories.size() == 0) {
      return Problem("meta.categories missing");
    }
    // The default category: the first grey one (version 53's rule), a "default" subcategory.
    std::string_view color;
    if ((*categories.begin())["color"].get(color) || color != "grey") {
      Problem("the first category is not grey");
    }
    for (simdjson::dom::element category : categories) {
      simdjson::dom::array subcategories;
      if (category["name"].get(text) || category["subcategories"].get(subcategories) ||
          subcategories.size() == 0) {
        Problem("a category without name or subcategories");
      }
    }
    const int64_t last_category = static_cast<int64_t>(categories.size()) - 1;
    simdjson::dom::array libs;
    if (root["libs"].get(libs)) return Problem("libs missing");
    for (simdjson::dom::element lib : libs) {
      for (const char* key : {"arch", "name", "path", "debugName", "debugPath", "breakpadId"}) {
        if (lib[key].get(text)) Problem(std::string("lib.") + key + " missing");
      }
      simdjson::dom::element code;
      if (lib["codeId"].get(code) || !(code.is_null() || code.is_string())) {
        Problem("lib.codeId not a string or null");
      }
    }
    const int64_t last_lib = static_cast<int64_t>(libs.size()) - 1;
    simdjson::dom::array threads;
    if (root["threads"].get(threads)) return Problem("threads missing");
    size_t index = 0;
    for (simdjson::dom::element thread : threads) {
      const std::string what = "threads[" + std::to_string(index++) + "]";
      if (thread["name"].get(text)) Problem(what + ".name missing");
      if (thread["processType"].get(text)) Problem(what + ".processType missing");
      if (thread["pid"].get(text)) Problem(what + ".pid not a string");
      simdjson::dom::element tid;
      if (thread["tid"].get(tid) || !(tid.is_string() || tid.is_int64())) {
        Problem(what + ".tid missing");
      }
      bool flag = false;
      if (thread["isMainThread"].get(flag)) Problem(what + ".isMainThread missing");
      for (const char* key : {"processStartupTime", "registerTime"}) {
        if (thread[key].get(number)) Problem(what + "." + key + " missing");
      }
      if (thread["pausedRanges"].get(array)) Problem(what + ".pausedRanges missing");
      simdjson::dom::array strings;
      if (thread["stringArray"].get(strings)) return Problem(what + ".stringArray missing");
      for (simdjson::dom::element s : strings) {
        if (!s.is_string()) Problem(what + ".stringArray holds a non-string");
      }
      const int64_t last_string = static_cast<int64_t>(strings.size()) - 1;
      Table(thread["markers"], what + ".markers",
            {"data", "name", "startTime", "endTime", "phase", "category"});
      Table(thread["nativeSymbols"], what + ".nativeSymbols",
            {"libIndex", "address", "name", "functionSize"});
      const std::string resources_what = what + ".resourceTable";
      const int64_t resources =
          Table(thread["resourceTable"], resources_what, {"lib", "name", "host", "type"});
      Indexes(thread["resourceTable"], resources_what, "lib", 0, last_lib, true);
      Indexes(thread["resourceTable"], resources_what, "name", 0, last_string, false);
      const std::string funcs_what = what + ".funcTable";
      const int64_t funcs = Table(
          thread["funcTable"], funcs_what,
          {"isJS", "relevantForJS", "name", "resource", "fileName", "lineNumber", "columnNumber"});
      Indexes(thread["funcTable"], funcs_what, "name", 0, last_string, false);
      Indexes(thread["funcTable"], funcs_what, "fileName", 0, last_string, true);
      Indexes(thread["funcTable"], funcs_what, "resource", -1, resources - 1, false);
      Indexes(thread["funcTable"], funcs_what, "lineNumber", 1, INT32_MAX, true);
      const std::string frames_what = what + ".frameTable";
      const int64_t frames =
          Table(thread["frameTable"], frames_what,
                {"address", "inlineDepth", "category", "subcategory", "func", "nativeSymbol",
                 "innerWindowID", "implementation", "line", "column"});
      Indexes(thread["frameTable"], frames_what, "func", 0, funcs - 1, false);
      Indexes(thread["frameTable"], frames_what, "address", -1, (int64_t{1} << 53) - 1, false);
      Indexes(thread["frameTable"], frames_what, "category", 0, last_category, true);
      Indexes(thread["frameTable"], frames_what, "inlineDepth", 0, 1 << 20, false);
      Indexes(thread["frameTable"], frames_what, "line", 1, INT32_MAX, true);
      const std::string stacks_what = what + ".stackTable";
      const int64_t stacks =
          Table(thread["stackTable"], stacks_what, {"frame", "prefix", "category", "subcategory"});
      Indexes(thread["stackTable"], stacks_what, "frame", 0, frames - 1, false);
      Indexes(thread["stackTable"], stacks_what, "prefix", 0, stacks - 1, true, true);
      Indexes(thread["stackTable"], stacks_what, "category", 0, last_category, false);
      const std::string samples_what = what + ".samples";
      Table(thread["samples"], samples_what, {"stack", "time", "weight"});
      Indexes(thread["samples"], samples_what, "stack", 0, stacks - 1, true);
      std::string_view weight_type;
      if (thread["samples"]["weightType"].get(weight_type) ||
          (weight_type != "samples" && weight_type != "tracing-ms" && weight_type != "bytes")) {
        Problem(samples_what + ".weightType not samples, tracing-ms or bytes");
      }
      // Times in order; weights not negative.
      double previous = -1e300;
      if (thread["samples"]["time"].get(array) == simdjson::SUCCESS) {
        for (simdjson::dom::element t : array) {
          if (t.get(number) || number < previous) Problem(samples_what + ".time out of order");
          previous = number;
        }
      }
      if (thread["samples"]["weight"].get(array) == simdjson::SUCCESS) {
        for (simdjson::dom::element w : array) {
          if (w.get(number) || number < 0) Problem(samples_what + ".weight negative");
        }
      }
    }
  }

  simdjson::padded_string padded_;
  simdjson::dom::parser parser_;
  std::vector<std::string> problems_;
};

TEST(FirefoxWriterTest, RandomProfilesKeepTheFormatsRulesAndReadBack) {
  testing::RandomProfileGenerator generator(26);
  int compared = 0;
  for (int i = 0; i < 80; ++i) {
    Profile profile = generator.Next();
    // Weights a JavaScript number holds exactly (the format's numbers are doubles).
    for (Sample& s : profile.samples) {
      for (int64_t& v : s.values) v %= 1000000000;
    }
    CollectingHandler warnings;
    const std::string json = Write(profile, &warnings);
    const Validator validator(json);
    EXPECT_TRUE(validator.problems().empty())
        << "profile " << i << ": " << validator.problems().front();
    if (profile.samples.empty()) continue;
    const Profile back = Read(json, true);
    // Per stack (as names, a bare location either way), the weights add up the same.
    const int weight = profile.header.DefaultTypeIndex();
    int64_t factor = 1;
    if (UnitKindOf(profile.header.types[weight].unit, &factor) != UnitKind::kNone) continue;
    const auto normal = [](std::vector<std::string> names) {
      for (std::string& name : names) {
        // What JSON carries of a name (invalid UTF-8 becomes visible \xHH text).
        simdjson::dom::parser parser;
        std::string_view decoded;
        if (name == "[unknown]") name = "<bare>";
        if (name != "<bare>" && !parser.parse(JsonString(name)).get(decoded)) {
          name = std::string(decoded);
        }
      }
      return names;
    };
    std::map<std::vector<std::string>, int64_t> expected, actual;
    std::multiset<int64_t> times;
    for (const Sample& s : profile.samples) {
      expected[normal(Names(profile, s.stack_id))] += std::max<int64_t>(0, s.values[weight]);
      if (s.time_nanos) times.insert(*s.time_nanos);
    }
    for (const Sample& s : back.samples) {
      actual[normal(Names(back, s.stack_id))] += s.values[0];
      const auto found = times.find(*s.time_nanos);
      if (found != times.end()) times.erase(found);
    }
    EXPECT_EQ(actual, expected) << "profile " << i;
    EXPECT_TRUE(times.empty()) << "profile " << i << ": " << times.size() << " times lost";
    ++compared;
  }
  EXPECT_GT(compared, 20);
}

TEST(FirefoxWriterTest, LongSamplesAreAStartAndAnEnd) {
  const Profile profile = Parse(Preamble("type samples count\ntype cpu microseconds\n") +
                                "function 1 main - x.py 3\n"
                                "function 2 wait - x.py 9\n"
                                "location 1 - 0x0 - 1:4\n"
                                "location 2 - 0x0 - 2:10:2\n"
                                "stack 1 2 1\n"
                                "sample 1 1 1000000 - 1 300\n"
                                "sample 1 1 2000000 8000000 8 50\n");
  CollectingHandler warnings;
  const std::string json = Write(profile, &warnings, "samples");
  EXPECT_TRUE(Validator(json).problems().empty()) << json;
  EXPECT_NE(json.find("\"weight\":[1,1,7],\"threadCPUDelta\":[300,50,0]"), std::string::npos)
      << json;
  // From meta.startTime, the first sample's time: 1ms.
  EXPECT_NE(json.find("\"startTime\":1,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"time\":[0,1,9]"), std::string::npos) << json;
  const Profile back = Read(json);
  ASSERT_EQ(back.samples.size(), 3u);
  EXPECT_EQ(back.samples[2].time_nanos, 10000000);
  EXPECT_EQ(back.samples[2].values, (std::vector<int64_t>{7, 0}));
  EXPECT_EQ(back.header.types[1], (ValueType{"cpu", "microseconds"}));
  // Functions with file and line, frames with line and column.
  EXPECT_NE(json.find("\"fileName\":[1,1],\"lineNumber\":[3,9]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"line\":[4,10],\"column\":[null,2]"), std::string::npos) << json;
}

TEST(FirefoxWriterTest, ValueTypesBecomeWeightTypes) {
  const std::string body =
      "function 1 f - - 0\nlocation 1 - 0x0 - 1:0\nstack 1 1\nsample 1 1 5 - 1500 2048\n";
  const Profile profile = Parse(Preamble("type wall nanoseconds\ntype alloc bytes\n") + body);
  CollectingHandler warnings;
  std::string json = Write(profile, &warnings, "wall");
  EXPECT_NE(json.find("\"weight\":[0.0015],\"weightType\":\"tracing-ms\""), std::string::npos)
      << json;
  ASSERT_EQ(warnings.warnings.size(), 1u);
  EXPECT_NE(warnings.warnings[0].message.find("2 value types"), std::string::npos);
  json = Write(profile, &warnings, "alloc");
  EXPECT_NE(json.find("\"weight\":[2048],\"weightType\":\"bytes\""), std::string::npos) << json;
  EXPECT_THROW(Write(profile, &warnings, "nope"), UsageError);
}

TEST(FirefoxWriterTest, ThreadsPerSourceAndThreadLabels) {
  const Profile profile = Parse(Preamble() +
                                "function 1 f - - 0\nlocation 1 - 0x0 - 1:0\nstack 1 1\n"
                                "sample 1 1 5 - 1 pid=9 tid=9 thread=main\n"
                                "sample 1 1 6 - 1 pid=9 tid=10 thread=worker\n"
                                "sample 1 1 7 - 1 pid=9 tid=9 thread=main\n"
                                "sample 1 1 3 - 1 other=x\n");
  CollectingHandler warnings;
  const std::string json = Write(profile, &warnings);
  EXPECT_TRUE(Validator(json).problems().empty()) << json;
  const Profile back = Read(json);
  std::map<std::string, int> threads;
  for (const Sample& s : back.samples) {
    ++threads[LabelOf(s, "pid") + "/" + LabelOf(s, "tid") + "/" + LabelOf(s, "thread")];
  }
  EXPECT_EQ(threads,
            (std::map<std::string, int>{{"9/9/main", 2},
                                        {"9/10/worker", 1},
                                        {"-/-/test", 1}}));  // a thread of the source, named by it
  bool dropped = false;
  for (const Diagnostic& d : warnings.warnings) {
    dropped |= d.message.find("1 sample with labels other than") != std::string::npos;
  }
  EXPECT_TRUE(dropped);
}

TEST(FirefoxWriterTest, TheRealGeckoProfileRoundTrips) {
  Input input = OpenInput("golden/firefox/inputs/page.gecko.json.gz");
  ProfileBuilder builder;
  ReadProfile(input, &builder);
  const Profile gecko = builder.Take();
  CollectingHandler warnings;
  const std::string json = Write(gecko, &warnings);
  const Validator validator(json);
  EXPECT_TRUE(validator.problems().empty()) << validator.problems().front();
  EXPECT_EQ(json, Write(gecko, &warnings));
  const Profile back = Read(json);
  ASSERT_EQ(back.samples.size(), gecko.samples.size());
  std::map<std::vector<std::string>, int64_t> expected, actual;
  for (size_t i = 0; i < gecko.samples.size(); ++i) {
    expected[Names(gecko, gecko.samples[i].stack_id)] += gecko.samples[i].values[0];
    actual[Names(back, back.samples[i].stack_id)] += back.samples[i].values[0];
  }
  // A frame at address 0 (Firefox's "0x0") has no address to keep: it comes back named.
  std::map<std::vector<std::string>, int64_t> renamed;
  for (auto& entry : actual) {
    std::vector<std::string> names = entry.first;
    for (std::string& name : names) {
      if (name == "[unknown]") name = "<bare>";
    }
    renamed[names] += entry.second;
  }
  EXPECT_EQ(renamed, expected);
}

}  // namespace
}  // namespace firefox_test
}  // namespace proftools
