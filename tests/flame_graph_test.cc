// prof-svg's flame tree, palettes and SVG: layout rules of flamegraph.pl, checked on a small
// profile and on random ones.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "common/base/saturating.h"
#include "common/report/flame/flame_palette.h"
#include "common/report/flame/flame_svg.h"
#include "common/report/flame/flame_tree.h"
#include "common/text/text_reader.h"
#include "tests/random_profile.h"
#include "tests/test_util.h"

namespace proftools {
namespace flame_graph_test {  // a namespace of its own: the tests build as one unit
namespace {

// main -> b (leaf) twice, main -> a -> b, main -> z; one negative sample and an empty stack.
const char* kProfile =
    "proftext 1.0\nsource 1 manual x -\n"
    "type cpu nanoseconds\n"
    "mapping 1 0x0 0x1000 0x0 [kernel.kallsyms] - -\n"
    "function 1 main \"\" main.c 3\n"
    "function 2 a \"\" a.c 1\n"
    "function 3 b \"\" b.c 1\n"
    "function 4 z \"\" z.c 1\n"
    "function 5 k \"\" - 0\n"
    "location 1 - 0x1 - 1:10\n"
    "location 2 - 0x2 - 2:20\n"
    "location 3 - 0x3 - 3:30\n"
    "location 4 - 0x4 - 4:40\n"
    "location 5 1 0x5 - 5:0\n"
    "stack 1 3 2 1\n"
    "stack 2 3 1\n"
    "stack 3 4 1\n"
    "stack 4\n"
    "stack 5 5 4 1\n"
    "sample 1 2 - - 30\n"
    "sample 1 1 - - 50\n"
    "sample 1 3 - - 20\n"
    "sample 1 2 - - 10\n"
    "sample 1 4 - - 5\n"
    "sample 1 5 - - -7\n";

StackTotals Totals(const std::string& text) {
  StackTotals totals;
  MemoryStream stream(text);
  ReadText(&stream, "x", &totals);
  return totals;
}

const FlameTree::Node* Child(const FlameTree& tree, const FlameTree::Node& node,
                             const std::string& name) {
  for (uint32_t child : tree.children(node)) {
    if (tree.name(tree.nodes()[child].name) == name) return &tree.nodes()[child];
  }
  return nullptr;
}

TEST(FlameTree, MergesFromTheRootSortsByNameAndLeavesOutNonPositiveStacks) {
  const StackTotals totals = Totals(kProfile);
  const FlameTree tree(totals, FlameTreeOptions{});
  EXPECT_EQ(tree.root().value, 110);  // 30 + 50 + 20 + 10; the empty stack and -7 not drawn
  ASSERT_EQ(tree.children(tree.root()).size(), 1u);
  const FlameTree::Node& main = tree.nodes()[tree.children(tree.root())[0]];
  EXPECT_EQ(tree.name(main.name), "main");
  EXPECT_EQ(tree.name(main.source), "main.c:3");  // the function's start line
  std::vector<std::string> names;
  for (uint32_t child : tree.children(main)) names.push_back(tree.name(tree.nodes()[child].name));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "z"}));
  EXPECT_EQ(Child(tree, main, "b")->value, 40);
  EXPECT_EQ(Child(tree, *Child(tree, main, "a"), "b")->value, 50);
  EXPECT_EQ(Child(tree, main, "z")->value, 20);
  EXPECT_EQ(Child(tree, *Child(tree, main, "z"), "k"), nullptr);  // only in the -7 sample
  EXPECT_EQ(tree.max_depth(), 3u);
}

TEST(FlameTree, ReverseStartsAtTheLeaf) {
  const StackTotals totals = Totals(kProfile);
  FlameTreeOptions options;
  options.reverse = true;
  const FlameTree tree(totals, options);
  const FlameTree::Node* b = Child(tree, tree.root(), "b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->value, 90);
  EXPECT_EQ(Child(tree, *b, "main")->value, 40);
  EXPECT_EQ(Child(tree, *Child(tree, *b, "a"), "main")->value, 50);
}

TEST(FlameTree, KindsComeFromTheMapping) {
  std::string text = kProfile;
  text.replace(text.find("sample 1 5 - - -7"), 17, "sample 1 5 - - 7");
  const StackTotals totals = Totals(text);
  const FlameTree tree(totals, FlameTreeOptions{});
  const FlameTree::Node* k = Child(tree, *Child(tree, *Child(tree, tree.root(), "main"), "z"), "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->kind, FrameKind::kKernel);
  EXPECT_EQ(Child(tree, tree.root(), "main")->kind, FrameKind::kUser);
}

TEST(FlameTree, DifferentialBaseOnlyWhereTheProfileHasTheFrame) {
  const StackTotals totals = Totals(kProfile);
  const StackTotals base = Totals(
      "proftext 1.0\nsource 1 manual x -\ntype cpu nanoseconds\nfunction 1 main \"\" - 0\nfunction "
      "2 q \"\" - 0\n"
      "location 1 - 0x1 - 1:1\nlocation 2 - 0x2 - 2:1\nstack 1 1\nstack 2 2 1\n"
      "sample 1 1 - - 4\nsample 1 2 - - 6\n");
  const FlameTree tree(totals, FlameTreeOptions{}, &base, 0);
  EXPECT_EQ(tree.base(tree.root()), 10);
  EXPECT_EQ(tree.base(*Child(tree, tree.root(), "main")), 10);
  EXPECT_EQ(Child(tree, *Child(tree, tree.root(), "main"), "q"), nullptr);
}

// The property flamegraph.pl's layout rests on, on random profiles: a node's value is at least
// the sum of its children's, the root's is the sum of the positive stacks, and children are in
// name order.
TEST(FlameTree, ChildrenNeverExceedTheirParentOnRandomProfiles) {
  testing::RandomProfileGenerator generator(15);
  for (int seed = 0; seed < 200; ++seed) {
    const Profile profile = generator.Next();
    StackTotals totals;
    EmitProfile(profile, totals);
    if (totals.header().types.empty()) continue;
    const FlameTree tree(totals, FlameTreeOptions{});
    int64_t positive = 0;
    for (const StackTotals::Entry& entry : totals.entries()) {
      const Stack* stack = totals.defs().stacks.Find(entry.stack_id);
      if (entry.values[0] > 0 && stack != nullptr && !stack->location_ids.empty()) {
        AddSaturating(&positive, entry.values[0]);
      }
    }
    EXPECT_EQ(tree.root().value, positive) << "seed " << seed;
    for (const FlameTree::Node& node : tree.nodes()) {
      int64_t sum = 0;
      const FlameTree::Children children = tree.children(node);
      for (size_t i = 0; i < children.size(); ++i) {
        const FlameTree::Node& child = tree.nodes()[children[i]];
        AddSaturating(&sum, child.value);
        EXPECT_EQ(child.depth, node.depth + 1);
        if (i > 0) {
          EXPECT_LT(tree.name(tree.nodes()[children[i - 1]].name), tree.name(child.name));
        }
      }
      EXPECT_LE(sum, node.value) << "seed " << seed;
    }
  }
}

TEST(FlamePalette, SameNameSameColourAndKindsTakeTheirHue) {
  EXPECT_EQ(FrameColor(Palette::kHot, "main", FrameKind::kUser),
            FrameColor(Palette::kHot, "main", FrameKind::kUser));
  EXPECT_NE(FrameColor(Palette::kHot, "main", FrameKind::kUser),
            FrameColor(Palette::kHot, "mainx", FrameKind::kUser));
  // kind: kernel frames take the orange palette, whatever their name.
  EXPECT_EQ(FrameColor(Palette::kKind, "f", FrameKind::kKernel),
            FrameColor(Palette::kOrange, "f", FrameKind::kUser));
  EXPECT_EQ(FrameColor(Palette::kKind, "f", FrameKind::kJit),
            FrameColor(Palette::kGreen, "f", FrameKind::kUser));
  EXPECT_EQ(FrameColor(Palette::kKind, "f", FrameKind::kUser),
            FrameColor(Palette::kHot, "f", FrameKind::kUser));
  EXPECT_EQ(DiffColor(5, 5, 10), "rgb(255,255,255)");
  EXPECT_EQ(DiffColor(15, 5, 10), "rgb(255,45,45)");  // grown the most: deepest red
  EXPECT_EQ(DiffColor(0, 10, 10), "rgb(45,45,255)");  // shrunk the most: deepest blue
}

TEST(FlameSvg, WidthsAreValuesScaledAndNarrowFramesAreLeftOut) {
  const StackTotals totals = Totals(kProfile);
  const FlameTree tree(totals, FlameTreeOptions{});
  FlameSvgOptions options;
  options.unit = "nanoseconds";
  options.width = 1120;  // 1100 pixels for 110: 10 per unit
  options.min_width = 150;
  StringSink out;
  WriteFlameSvg(tree, options, &out);
  std::vector<std::string> widths;
  const std::regex rect("<rect x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"([0-9.]+)\" height=\"15");
  for (std::sregex_iterator it(out.text().begin(), out.text().end(), rect), end; it != end; ++it) {
    widths.push_back((*it)[1]);
  }
  // all, main, a, a;b, b, z in drawing order; with 150 as the minimum all are drawn.
  EXPECT_EQ(widths, (std::vector<std::string>{"1100.00", "1100.00", "500.00", "500.00", "400.00",
                                              "200.00"}));
  options.min_width = 201;
  StringSink narrow;
  WriteFlameSvg(tree, options, &narrow);
  EXPECT_EQ(narrow.text().find("<title>z\n"), std::string::npos);  // z (200 pixels) left out
  EXPECT_NE(narrow.text().find("<title>a\n"), std::string::npos);
}

// A large graph's frames are formatted on two threads in batches: the same bytes as on one, every
// frame once and in drawing order (a batch written out of turn, twice or not at all would show).
TEST(FlameSvg, FramesOnTwoThreadsAreTheBytesOfOne) {
  // 40 functions; 3,000 stacks of up to 60 frames (over 20,000 frames drawn: several batches),
  // with names that need escaping, values that vary and a stack 30,000 frames deep.
  std::string text = "proftext 1.0\nsource 1 manual x -\ntype cpu nanoseconds\n";
  for (int f = 1; f <= 40; ++f) {
    text += "function " + std::to_string(f) + " \"f<" + std::to_string(f) + ">&\" \"\" - 0\n";
    text += "location " + std::to_string(f) + " - 0x" + std::to_string(f) + " - " +
            std::to_string(f) + ":0\n";
  }
  std::mt19937_64 random(7);
  for (int s = 1; s <= 3000; ++s) {
    text += "stack " + std::to_string(s);
    const int depth = 1 + static_cast<int>(random() % 60);
    for (int d = 0; d < depth; ++d) text += " " + std::to_string(1 + random() % 40);
    text +=
        "\nsample 1 " + std::to_string(s) + " - - " + std::to_string(1 + random() % 1000) + "\n";
  }
  text += "stack 3001";
  for (int d = 0; d < 30000; ++d) text += " " + std::to_string(1 + d % 40);
  text += "\nsample 1 3001 - - 200000\n";
  const StackTotals totals = Totals(text);
  const FlameTree tree(totals, FlameTreeOptions{});
  ASSERT_GT(tree.nodes().size(), 50000u);
  FlameSvgOptions options;
  options.unit = "nanoseconds";
  options.min_width = 0;  // every frame drawn
  options.threads = 1;
  StringSink one;
  WriteFlameSvg(tree, options, &one);
  options.threads = 2;
  StringSink two;
  WriteFlameSvg(tree, options, &two);
  EXPECT_TRUE(one.text() == two.text());
  // Frames up to the script (whose comments show a frame's markup).
  const std::string drawn = two.text().substr(0, two.text().find("<script"));
  size_t frames = 0;
  for (size_t at = 0; (at = drawn.find("<g class=\"f\"", at)) != std::string::npos; ++at) {
    ++frames;
  }
  EXPECT_EQ(frames, tree.nodes().size());
}

// A deep stack's frames differ in their y alone, and a name's frame is drawn again from its
// text before, with the new y put in: each frame's rect and label must still sit one row above
// the one before, named as its stack says, with the others' value and width.
TEST(FlameSvg, ADeepStacksFramesEachHaveTheirOwnRow) {
  std::string text = "proftext 1.0\nsource 1 manual x -\ntype cpu nanoseconds\n";
  for (int f = 1; f <= 3; ++f) {
    text += "function " + std::to_string(f) + " f" + std::to_string(f) + " \"\" \"\" 0\n";
    text += "location " + std::to_string(f) + " - 0x" + std::to_string(f) + " - " +
            std::to_string(f) + ":0\n";
  }
  text += "stack 1";
  for (int d = 0; d < 3000; ++d) text += " " + std::to_string(1 + d % 3);
  text += "\nsample 1 1 - - 70\nstack 2 1\nsample 1 2 - - 30\n";
  const StackTotals totals = Totals(text);
  const FlameTree tree(totals, FlameTreeOptions{});
  FlameSvgOptions options;
  options.unit = "nanoseconds";
  options.min_width = 0;
  for (int threads : {1, 2}) {
    options.threads = threads;
    StringSink out;
    WriteFlameSvg(tree, options, &out);
    const std::regex frame(
        "<g class=\"f\" data-v=\"([0-9]+)\"><title>([^\n<]+)\n[^<]*</title><rect x=\"([0-9.]+)\" "
        "y=\"([0-9.]+)\" width=\"([0-9.]+)\"[^>]*/><text x=\"[0-9.]+\" y=\"([0-9.]+)\">");
    std::vector<std::smatch> frames;
    for (std::sregex_iterator it(out.text().begin(), out.text().end(), frame), end; it != end;
         ++it) {
      frames.push_back(*it);
    }
    // all, f1 alone (its name comes first), then the deep stack from its outermost frame up.
    ASSERT_EQ(frames.size(), 3002u);
    const double bottom = std::stod(frames[0][4].str());
    EXPECT_EQ(frames[1][1].str(), "30");
    EXPECT_EQ(frames[1][2].str(), "f1");
    EXPECT_DOUBLE_EQ(std::stod(frames[1][4].str()), bottom - 16.0);
    for (size_t i = 2; i < frames.size(); ++i) {
      const std::smatch& at = frames[i];
      const int depth = static_cast<int>(i) - 1;
      SCOPED_TRACE("frame " + std::to_string(i) + " on " + std::to_string(threads) + " threads");
      EXPECT_EQ(at[1].str(), "70");
      EXPECT_EQ(at[2].str(), "f" + std::to_string(1 + (3000 - depth) % 3));
      EXPECT_EQ(at[3].str(), frames[2][3].str());
      EXPECT_EQ(at[5].str(), frames[2][5].str());
      EXPECT_DOUBLE_EQ(std::stod(at[4].str()), bottom - 16.0 * depth);
      EXPECT_DOUBLE_EQ(std::stod(at[6].str()), std::stod(at[4].str()) + 8 + 4 + 1);
    }
  }
}

// Long C++ names keep their end: rows of std::_Rb_tree<...> must not read alike (flamegraph.pl
// cuts from the right).
TEST(FlameSvg, LongNamesLoseTheirTemplateArgumentsAndMiddleNotTheirEnd) {
  const std::string insert =
      "std::_Rb_tree<std::string, std::pair<const std::string, int>, "
      "std::_Select1st<std::pair<const std::string, int>>>::_M_insert_unique";
  const std::string erase =
      "std::_Rb_tree<std::string, std::pair<const std::string, int>, "
      "std::_Select1st<std::pair<const std::string, int>>>::_M_erase";
  EXPECT_EQ(FitFrameLabel(insert, 200), insert);
  EXPECT_EQ(FitFrameLabel(insert, 40), "std::_Rb_tree<..>::_M_insert_unique");
  EXPECT_EQ(FitFrameLabel(erase, 40), "std::_Rb_tree<..>::_M_erase");
  EXPECT_EQ(FitFrameLabel(insert, 20), "std::_..nsert_unique");
  EXPECT_EQ(FitFrameLabel(insert, 20).size(), 20u);
  EXPECT_NE(FitFrameLabel(insert, 20), FitFrameLabel(erase, 20));
  EXPECT_EQ(FitFrameLabel(insert, 2), "");
  // operator< is no template argument list; unbalanced brackets are left alone.
  EXPECT_EQ(FitFrameLabel("Foo::operator<<(std::ostream&, Foo const&)", 30),
            "Foo::oper..tream&, Foo const&)");
  EXPECT_EQ(FitFrameLabel("a<b<c>::f_long_name_here", 20), "a<b<c>..ng_name_here");
  // Other names are cut from the right, as flamegraph.pl cuts them.
  EXPECT_EQ(FitFrameLabel("worker loop; fast path", 10), "worker l..");
  // UTF-8 characters count as one and are never split.
  EXPECT_EQ(FitFrameLabel("été::été::été::fonction", 12), "été..onction");
}

}  // namespace
}  // namespace flame_graph_test
}  // namespace proftools
