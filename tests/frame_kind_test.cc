// The one classifier of frame kinds by mapping file (common/model/frame_kind.h), which perf2prof,
// the folded reader and writer, the reports and the pprof writer share.
#include "common/model/frame_kind.h"

#include <gtest/gtest.h>

namespace proftools {
namespace frame_kind_test {  // a namespace of its own: the tests build as one unit
namespace {

TEST(CodeKind, KernelAsPerfNamesIt) {
  for (const char* file :
       {"[kernel.kallsyms]", "[ext4]", "[vdso]", "/lib/modules/4.1.0-virtual/build/vmlinux",
        "/usr/lib/debug/boot/vmlinux-5.4.14-cloudflare-2020.1.11",
        "/lib/modules/5.4/kernel/net/nf_tables.ko", "/lib/modules/6.1/kernel/fs/xfs.ko.xz",
        "/lib/modules/6.1/x.ko.zst"}) {
    EXPECT_EQ(CodeKindOfMapping(file), CodeKind::kKernel) << file;
    EXPECT_FALSE(LooksLikeExecutable(file)) << file;
  }
}

TEST(CodeKind, JitAsPerfAndTheFoldedReaderNameIt) {
  for (const char* file : {"/tmp/perf-10939.map", "/tmp/jitted-31714-4145673320.so", "[jit]"}) {
    EXPECT_EQ(CodeKindOfMapping(file), CodeKind::kJit) << file;
    EXPECT_FALSE(LooksLikeExecutable(file)) << file;
  }
  // A perf map of another name is not perf's JIT map, but it is no program either.
  EXPECT_EQ(CodeKindOfMapping("/tmp/perf-x.map"), CodeKind::kNative);
  EXPECT_FALSE(LooksLikeExecutable("/tmp/perf-x.map"));
}

TEST(CodeKind, ProducersKindsRoundTripThroughTheirMappingFiles) {
  for (CodeKind kind :
       {CodeKind::kKernel, CodeKind::kJit, CodeKind::kInterpreted, CodeKind::kWaker}) {
    EXPECT_EQ(CodeKindOfMapping(MappingFileForKind(kind)), kind);
  }
  EXPECT_EQ(MappingFileForKind(CodeKind::kNative), "");
}

TEST(CodeKind, NativeCode) {
  for (const char* file : {"", "[unknown]", "/usr/lib/libc.so.6", "/usr/bin/perf", "a.out"}) {
    EXPECT_EQ(CodeKindOfMapping(file), CodeKind::kNative) << file;
  }
  EXPECT_TRUE(LooksLikeExecutable("/usr/bin/perf"));
  EXPECT_FALSE(LooksLikeExecutable("/usr/lib/libc.so.6"));
  EXPECT_FALSE(LooksLikeExecutable("//anon"));
}

}  // namespace
}  // namespace frame_kind_test
}  // namespace proftools
