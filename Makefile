# proftools — build, test, benchmark.
#
#   make            build every program into bin/ (in parallel; never installs anything: a missing
#                   package is named, with the `make deps` that installs it)
#   make demo       install missing Debian packages, build, run the main job on a shipped example
#   make check      install missing packages, build everything, run every suite (test,
#                   check-interop, check-browser), then one summary line: N passed, N failed
#   make test       the fast suites, after the build: layer check, unit, golden, conformance, man
#                   pages, fuzz replays
#   make check-interop   pprof, callgrind_annotate, the JDK's jfr, R, perf and Graphviz read ours
#   make check-browser   the SVG and HTML pages, and speedscope, in headless Chromium
#   make bench      benchmarks (figures go to BENCHMARKS.md by hand)
#   make golden-update   rewrite golden expectations (then read the diff: it is a review)
#   make fuzz [FUZZ_SECONDS=N]   build the libFuzzer harnesses with clang and run each N seconds
#   make install [PREFIX=/usr/local]
#
# Programs are tools/NAME.cc, the library is common/LAYER/*.cc (plus formats/*.proto compiled by
# protoc; the layers are in ARCHITECTURE.md and tests/layer-check.sh), unit tests are
# tests/*_test.cc, golden cases live under golden/. New files are picked up by wildcard: adding
# a program or a test needs no change here.

PREFIX ?= /usr/local
CXX ?= g++
# -g1: line tables (backtraces, perf report, addr2line) at a third less compile time and a fifth of
# the size of full debug information; `make OPTFLAGS='-O2 -g'` for a debugger's view of variables.
OPTFLAGS ?= -O2 -g1
BUILD := build
BIN := bin

# Debian packages the build and the tests need, and the pkg-config modules they provide.
BUILD_DEBS := g++ make pkg-config libprotobuf-dev protobuf-compiler zlib1g-dev libre2-dev \
              libcxxopts-dev libsqlite3-dev
# Whole inputs that are gzipped (pprof's .pb.gz, gzipped JSON) are inflated by libdeflate, twice
# as fast as zlib's streaming inflate (zlib stays for streams).
BUILD_DEBS += libdeflate-dev
# Gzipped output (pprof's .pb.gz) is deflated at level 1 by ISA-L's igzip, 7 to 12 times as
# fast as zlib's level 1 for the same size (common/io/block_deflater.h; zlib for levels 2-9).
BUILD_DEBS += libisal-dev
# V8's .cpuprofile and Chrome's traces are JSON, parsed whole by simdjson's On-Demand API
# (common/json/, used by common/chrome/ and every JSON codec).
BUILD_DEBS += libsimdjson-dev
# prof-svg --graph lays out the call graph with Graphviz's own library (libgvc, the dot layout
# engine and SVG renderer pprof -svg gets by running `dot`), linked: no shell-out to a program.
BUILD_DEBS += libgraphviz-dev
# perf.data files are symbolised with elfutils: libelf reads ELF objects, libdw their DWARF line
# tables and inlined frames, libdwfl finds separate debug files by build id (common/elf/).
BUILD_DEBS += libdw-dev libelf-dev
# The programs link elfutils' archives (LINK_LIBS): those need bzip2's and xz's archives too,
# which libdw-dev does not bring.
BUILD_DEBS += libbz2-dev liblzma-dev
# The programs allocate with jemalloc, linked from its archive, with transparent huge pages
# (common/cli/cli.cc's malloc_conf): where the kernel gives huge pages only where asked (THP
# "madvise": this machine's kernel, and many distributions'), glibc's malloc takes every 4 KB
# page with a fault, and a large profile's hundreds of megabytes were a third to half of a
# report's time.
BUILD_DEBS += libjemalloc-dev
# GoogleTest builds the unit tests: installed before the build, with BUILD_DEBS.
GTEST_DEBS := googletest libgtest-dev libgmock-dev
# What the suites run: `make check` installs these while the build compiles.
TEST_DEBS := diffutils groff-base man-db
# prof2sqlite's databases read by the sqlite3 shell and from R with DBI and RSQLite (tests/sqlite-r.sh).
TEST_DEBS += sqlite3 r-cran-rsqlite r-cran-dbi
# pprof's own legacy test profiles (tests/legacy_pprof_test.cc reads every one).
TEST_DEBS += golang-github-google-pprof-dev
# script(1) gives golden/cli cases a pseudo-terminal (Essential in Debian; listed to be explicit).
TEST_DEBS += bsdutils
# GNU parallel runs docs/prof-merge.md's fleet merge as a tree (golden/merge/parallel-tree).
TEST_DEBS += parallel
# perf2prof's round trip through the real perf (tests/perf-roundtrip.sh; skips when not permitted).
TEST_DEBS += linux-perf
# prof-svg's and prof-html's pages opened in headless Chromium, driven over the DevTools protocol
# by tests/browser/ (Python's standard library only); python3 also records pstats files with
# cProfile and reads them with its pstats module (tests/interop-pstats.sh).
TEST_DEBS += chromium python3
# prof2speedscope's output validated against speedscope's published JSON schema (the npm
# package's file-format-schema.json) by tests/browser/check_speedscope_schema.py.
TEST_DEBS += python3-jsonschema
# callgrind_annotate reads prof2callgrind's output; valgrind records golden/callgrind's inputs
# (tests/interop-callgrind.sh), and massif and DHAT recordings whose numbers ms_print and DHAT's
# summary give (tests/interop-valgrind.sh).
TEST_DEBS += valgrind
# KCachegrind opens prof2callgrind's output under a virtual X server and a D-Bus session of its
# own; what it shows is read through the accessibility bus (tests/interop-kcachegrind.sh).
TEST_DEBS += kcachegrind xvfb xauth dbus at-spi2-core python3-pyatspi
TEST_DEBS += ruby ruby-stackprof
TEST_DEBS += nodejs
# The JDK's own JFR reader (`jfr print --json`) against jfr2prof, and java to record (tests/interop-jfr.sh).
TEST_DEBS += openjdk-17-jdk-headless
# Graphviz's `dot` renders every golden prof-text --dot output (tests/dot-valid.sh).
TEST_DEBS += graphviz
# Google's pprof, pbdump and pbgen, built from Debian's Go sources by tests/interop/setup-pprof.sh
# (the interop suites); installed here so that one apt-get run, beside the build, brings them.
TEST_DEBS += golang-go golang-github-chzyer-readline-dev golang-github-ianlancetaylor-demangle-dev \
             golang-golang-x-sys-dev time
BENCH_DEBS := time sqlite3
# speedscope, from the npm registry, opens prof2chrome's output in tests/browser.sh: a test-only
# package set (tests/web/package.json, pinned by package-lock.json) installed by `make deps-web`
# into tests/web/node_modules with npm, itself Debian's package when the machine has none.
WEB_DEBS = $(if $(shell command -v npm 2>/dev/null),,nodejs npm)
PKGS := protobuf-lite re2 zlib libdeflate libisal cxxopts simdjson libgvc libdw sqlite3

NPROC := $(shell nproc 2>/dev/null || echo 2)
# Parallel by default: as many jobs as cores (a -jN on the command line wins; sub-makes share
# the top one's job slots).
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(NPROC)
endif

# pkg-config runs once, when first needed. A build never installs anything: a missing module
# stops it with its name and the command that installs it (`make deps`, or `make demo`/`make
# check`, which run it first).
missing_modules = $(strip $(foreach m,$(1),$(if $(shell pkg-config --exists $(m) && echo y),,$(m))))
pkg_config = $(if $(call missing_modules,$(2)),$(error missing pkg-config modules: \
  $(call missing_modules,$(2)) (on Debian `make deps` installs them: $(3))),$(shell pkg-config $(1) $(2)))
# The allocator: the programs' and tests' links only (LINK_LIBS), not the fuzzers' (their
# sanitizer has its own malloc).
ALLOC_PKGS := jemalloc
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(call pkg_config,--cflags,$(PKGS) $(ALLOC_PKGS),$(BUILD_DEBS)))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $$(shell pkg-config --libs $(PKGS)))$(PKG_LIBS)
# The programs link the libraries Debian also ships as archives statically, the others shared:
# each shared library costs its mapping and relocations at every start (a program started in
# 10.4 ms of CPU with them all shared, 6.9 ms so; measured 2026-11-30, quiet), and the suites
# start our programs thousands of times. pkg-config --static names the archives' own needs;
# the C library's parts (libm, libpthread, libdl) stay shared. LLVM's lld, where the machine has
# it (Debian's lld), links a program in 0.7 s of CPU, gold (binutils) in 1.1 s, ld.bfd in more.
STATIC_PKGS := protobuf-lite re2 zlib libdeflate libdw sqlite3
# Graphviz's libraries are not linked: common/report/graph/graphviz_library.h loads them when a
# graph is laid out (they were a third of a start's cost), by the soname of the libgvc found here.
SHARED_PKGS := $(filter-out $(STATIC_PKGS) cxxopts libgvc,$(PKGS))
GVC_SONAME = $(eval GVC_SONAME := $$(shell objdump -p "$$$$(pkg-config --variable=libdir libgvc)/libgvc.so" \
  2>/dev/null | sed -n 's/^ *SONAME *//p'))$(GVC_SONAME)
LINK_LIBS = $(eval LINK_LIBS := -Wl,-Bstatic $$(filter-out -lpthread -lm -ldl,$$(shell pkg-config \
  --static --libs-only-l $(STATIC_PKGS) $(ALLOC_PKGS))) -Wl,-Bdynamic $$(shell pkg-config --libs $(SHARED_PKGS)) \
  -pthread -lm -ldl)$(LINK_LIBS)
LINKER ?= $(if $(shell command -v ld.lld 2>/dev/null),-fuse-ld=lld,-fuse-ld=gold)
GTEST_CFLAGS = $(eval GTEST_CFLAGS := $$(call pkg_config,--cflags,gtest gmock,$(GTEST_DEBS)))$(GTEST_CFLAGS)
GTEST_LIBS = $(eval GTEST_LIBS := $$(shell pkg-config --libs gtest gmock gtest_main))$(GTEST_LIBS)

CXXFLAGS_ALL = -std=c++17 $(OPTFLAGS) -Wall -Wextra -Werror -I. -isystem $(BUILD)/gen \
               $(PKG_CFLAGS) $(if $(GVC_SONAME),-DPROFTOOLS_GVC_SONAME='"$(GVC_SONAME)"') -MMD -MP \
               $(CXXFLAGS)

# A layer folder may have rooms, one level down (common/report/flame/): same layer, its own files.
LIB_SRCS := $(wildcard common/*/*.cc common/*/*/*.cc)
PROTOS := $(wildcard formats/*.proto)
PROTO_SRCS := $(PROTOS:formats/%.proto=$(BUILD)/gen/formats/%.pb.cc)
# HTML, CSS and JS of the reports (common/report/web/), embedded as string literals at build time
# by common/report/web/embed.sh into one generated source.
WEB_ASSETS := $(sort $(wildcard common/report/web/*.js common/report/web/*.css \
                common/report/web/*.html))
WEB_ASSETS_SRC := $(BUILD)/gen/web/web_assets.cc
GEN_OBJS := $(PROTO_SRCS:%.cc=%.o) $(WEB_ASSETS_SRC:%.cc=%.o)
# The library's code compiles one layer folder at a time (UNITY=1, the default): build/unity/LAYER.cc
# #includes the files of the folder and of its rooms, so that their headers are parsed, and the
# templates they share instantiated, once a folder instead of once a file: about a third of the
# CPU time (BENCHMARKS.md). UNITY=0 compiles file by file, as the fuzz build always does (which
# also keeps every file including what it uses); names in a file's anonymous namespace must
# therefore be unique in its layer folder, rooms included.
UNITY ?= 1
ifeq ($(UNITY),1)
# Folders with the most files first: the largest translation units start first.
unity_objs = $(patsubst %,$(BUILD)/unity/%.o,$(shell printf '%s\n' $(foreach f,$(1),$(word 2,$(subst /, ,$(f)))) \
  | sort | uniq -c | sort -k1,1nr -k2 | awk '{ print $$2 }'))
else
unity_objs = $(1:%.cc=$(BUILD)/%.o)
endif
LIB_OBJS := $(call unity_objs,$(LIB_SRCS)) $(GEN_OBJS)
LIB := $(BUILD)/libproftools.a

TOOL_SRCS := $(wildcard tools/*.cc)
TOOLS := $(TOOL_SRCS:tools/%.cc=$(BIN)/%)

TEST_SRCS := $(wildcard tests/*_test.cc)
# The unit tests compile in TEST_UNITY_GROUPS translation units when UNITY=1: build/unity/
# tests-N.cc #includes every Nth test file, by name (each file's helpers are in a namespace named
# after it). CPU for all of them: 242 s file by file, 84 s in 4 units, 75 s in 2 (one per core
# of the test machines; a change to one test file recompiles half of them, 35 s: set
# TEST_UNITY_GROUPS=8 or UNITY=0 to iterate on tests).
TEST_UNITY_GROUPS ?= 2
ifeq ($(UNITY),1)
TEST_OBJS := $(foreach n,$(shell seq 1 $(TEST_UNITY_GROUPS)),$(BUILD)/unity/tests-$(n).o)
else
TEST_OBJS := $(TEST_SRCS:%.cc=$(BUILD)/%.o)
endif
UNIT_TESTS := $(BUILD)/unit-tests
# Helper programs used by tests and benchmarks (tests/tool_*.cc), not installed.
TEST_TOOL_SRCS := $(wildcard tests/tool_*.cc)
TEST_TOOLS := $(TEST_TOOL_SRCS:tests/tool_%.cc=$(BUILD)/test-bin/%)

.SECONDARY:
# No built-in rules: they would make a program of any NAME.cc (build/unity/x.d from x.d.cc).
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

.PHONY: all deps deps-gtest deps-test deps-bench deps-web check golden-update bench demo \
        install clean format format-check

all: $(TOOLS)

# --- dependencies ----------------------------------------------------------------------------
# Installs missing Debian packages with apt-get when run as root; otherwise prints the exact
# command and fails.
define install_debs
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed" \
	    || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "deps: missing packages:$$missing (this is not a Debian system: install their equivalents)"; \
	    exit 1; \
	  elif [ "$$(id -u)" = 0 ]; then \
	    echo "deps: installing:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing >/dev/null \
	      || { echo "deps: apt-get install failed"; exit 1; }; \
	  else \
	    echo "deps: missing Debian packages:$$missing"; \
	    echo "deps: install them with:  sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install_debs,$(BUILD_DEBS))

deps-gtest: deps
	$(call install_debs,$(GTEST_DEBS))

# Everything the suites need (`make check` installs it while the build compiles).
deps-test: deps deps-gtest
	$(call install_debs,$(TEST_DEBS))

deps-bench: deps
	$(call install_debs,$(BENCH_DEBS))

# `npm ci` when node_modules is missing or older than the lock file; a registry that cannot be
# reached leaves the speedscope checks to skip, saying why (tests/browser.sh; a failure under CI).
deps-web: $(if $(WEB_DEBS),deps-test)
	$(if $(WEB_DEBS),$(call install_debs,$(WEB_DEBS)))
	@if [ ! -f tests/web/node_modules/.package-lock.json ] || \
	    [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then \
	  echo "deps-web: npm ci in tests/web"; \
	  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error) || \
	    echo "deps-web: npm ci failed: the speedscope checks of tests/browser.sh will skip"; \
	fi

# Google's pprof, pbdump and pbgen in $(PPROF_PREFIX) for the interop suites, built from Debian's
# Go sources (tests/interop/setup-pprof.sh: about a minute the first time, a second after).
PPROF_PREFIX ?= /opt/pprof
.PHONY: pprof-tools
pprof-tools: deps-test
	@if [ "$$(id -u)" = 0 ] || [ -w "$$(dirname $(PPROF_PREFIX))" ]; then \
	  PPROF_PREFIX=$(PPROF_PREFIX) bash tests/interop/setup-pprof.sh >/dev/null || \
	    echo "pprof-tools: tests/interop/setup-pprof.sh failed: the interop suites will say so"; \
	fi

# --- build -----------------------------------------------------------------------------------
# The lite runtime (no descriptors or reflection, which nothing here uses): a program starts
# without building profile.proto's descriptors, and links libprotobuf-lite, a third of
# libprotobuf. Every test runs hundreds of our programs; each start counted.
PROTOC_FLAGS := --cpp_out=lite:$(BUILD)/gen
$(BUILD)/gen/formats/%.pb.cc $(BUILD)/gen/formats/%.pb.h: formats/%.proto $(BUILD)/gen/protoc-flags
	$(if $(shell command -v protoc),,$(error protoc is missing (on Debian `make deps` installs \
	  protobuf-compiler)))protoc $(PROTOC_FLAGS) $<
# The flags protoc ran with: generated code made with others is made again.
$(BUILD)/gen/protoc-flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PROTOC_FLAGS)' | cmp -s - $@ || echo '$(PROTOC_FLAGS)' >$@

# Generated protobuf code is not ours to hold to -Wextra -Werror.
$(BUILD)/gen/%.pb.o: $(BUILD)/gen/%.pb.cc
	$(CXX) -std=c++17 $(OPTFLAGS) -isystem $(BUILD)/gen $(PKG_CFLAGS) -c $< -o $@

$(WEB_ASSETS_SRC): $(WEB_ASSETS) common/report/web/embed.sh
	@mkdir -p $(dir $@)
	common/report/web/embed.sh $@ $(WEB_ASSETS)

$(BUILD)/gen/web/%.o: $(BUILD)/gen/web/%.cc
	$(CXX) $(CXXFLAGS_ALL) -c $< -o $@

$(BUILD)/%.o: %.cc | $(PROTO_SRCS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# A folder's unity source, rewritten only when its list of files changes.
.PHONY: FORCE
UNITY_SRCS := $(patsubst %.o,%.cc,$(filter $(BUILD)/unity/%,$(LIB_OBJS)))
$(UNITY_SRCS): $(BUILD)/unity/%.cc: FORCE
	@mkdir -p $(dir $@)
	@{ echo '// Generated by the Makefile (UNITY=1): the files of common/$*/ and its rooms, one unit.'; \
	  printf '#include "%s"\n' $(sort $(wildcard common/$*/*.cc common/$*/*/*.cc)); } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# The standard headers the library's files include most, precompiled once and given to every
# unit (UNITY=1) instead of being parsed by each: the library's units took 5% less CPU (198 s
# against 208 s, two builds each, alternating; 2026-11-30). The UNITY=0 and fuzz builds compile
# without it, so that each file still includes what it uses. (In a folder named after OPTFLAGS:
# a header precompiled with other flags is refused.)
LIB_PCH_HEADERS := algorithm charconv cmath cstddef cstdint cstdio cstdlib cstring deque \
  functional limits map memory optional set stdexcept string string_view unordered_map \
  unordered_set utility vector
LIB_PCH := $(BUILD)/pch$(subst $() ,,$(OPTFLAGS))/library_pch.h
$(LIB_PCH): FORCE
	@mkdir -p $(dir $@)
	@printf '#include <%s>\n' $(LIB_PCH_HEADERS) >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(LIB_PCH).gch: $(LIB_PCH)
	$(CXX) $(CXXFLAGS_ALL) -x c++-header $< -o $@
LIB_PCH_FLAGS = -include $(LIB_PCH) -Winvalid-pch

# -Wno-subobject-linkage: g++ takes the included .cc files for headers, and warns of a class
# there with a member of a type in the file's anonymous namespace (right in a .cc file).
$(UNITY_SRCS:%.cc=%.o): %.o: %.cc $(LIB_PCH).gch | $(PROTO_SRCS)
	$(CXX) $(CXXFLAGS_ALL) -Wno-subobject-linkage $(LIB_PCH_FLAGS) -c $< -o $@

# The programs' mains compile as one unit too (UNITY=1): each is a short file, but the headers
# and the templates they instantiate took 2 s of CPU a program (39 s for the 19; the unit, 11 s).
# build/unity/tools.cc #includes every tools/NAME.cc with its `main` renamed
# proftools_main_NAME (each program's code is in its own namespace, proftools::NAME), and
# build/unity/main-NAME.cc is the program's `main`, which calls it. Every program then holds every
# program's code: the library's, which they share, is most of it.
ifeq ($(UNITY),1)
main_function = proftools_main_$(subst -,_,$(1))
$(BUILD)/unity/tools.cc: FORCE
	@mkdir -p $(dir $@)
	@{ echo '// Generated by the Makefile (UNITY=1): the code of every program, one unit.'; \
	  $(foreach t,$(TOOL_SRCS:tools/%.cc=%),printf '#define main %s\n#include "tools/%s.cc"\n#undef main\n' \
	    $(call main_function,$(t)) $(t);) } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/unity/main-%.cc: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '// Generated by the Makefile (UNITY=1): the main of $*, in build/unity/tools.o.' \
	  'int $(call main_function,$*)(int argc, char** argv);' \
	  'int main(int argc, char** argv) { return $(call main_function,$*)(argc, argv); }' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/unity/tools.o: $(BUILD)/unity/tools.cc $(LIB_PCH).gch | $(PROTO_SRCS)
	$(CXX) $(CXXFLAGS_ALL) $(LIB_PCH_FLAGS) -c $< -o $@
$(BUILD)/unity/main-%.o: $(BUILD)/unity/main-%.cc
	$(CXX) $(CXXFLAGS_ALL) -c $< -o $@
$(TOOLS): $(BIN)/%: $(BUILD)/unity/main-%.o $(BUILD)/unity/tools.o $(LIB)
	@mkdir -p $(BIN)
	$(CXX) $(OPTFLAGS) $(LINKER) -o $@ $(filter %.o,$^) $(LIB) $(LINK_LIBS) $(LDFLAGS)
else
$(TOOLS): $(BIN)/%: $(BUILD)/tools/%.o $(LIB)
	@mkdir -p $(BIN)
	$(CXX) $(OPTFLAGS) $(LINKER) -o $@ $< $(LIB) $(LINK_LIBS) $(LDFLAGS)
endif

$(BUILD)/test-bin/%: $(BUILD)/tests/tool_%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(OPTFLAGS) $(LINKER) -o $@ $< $(LIB) $(LINK_LIBS) $(LDFLAGS)

# The unit tests' own code at -O0: their files (GoogleTest's macros) compile in 50 s of CPU instead
# of 81 s at -O1 (measured 2026-11-29), and run 4 s of CPU slower; what they test is the library,
# compiled as the programs are.
TEST_OPTFLAGS ?= -O0 -g1
# GoogleTest precompiled once (tests/unit_test_pch.h), with the flags of the files that use it.
# (In a folder named after TEST_OPTFLAGS: a header precompiled with other flags is refused.)
TEST_PCH := $(BUILD)/pch$(subst $() ,,$(TEST_OPTFLAGS))/unit_test_pch.h
$(TEST_PCH): tests/unit_test_pch.h
	@mkdir -p $(dir $@)
	cp $< $@
$(TEST_PCH).gch: $(TEST_PCH)
	$(CXX) $(CXXFLAGS_ALL) $(TEST_OPTFLAGS) $(GTEST_CFLAGS) -x c++-header $< -o $@
$(BUILD)/tests/%_test.o: tests/%_test.cc $(TEST_PCH).gch | $(PROTO_SRCS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(TEST_OPTFLAGS) $(GTEST_CFLAGS) -include $(TEST_PCH) -Winvalid-pch \
	  -c $< -o $@
$(BUILD)/unity/tests-%.cc: FORCE
	@mkdir -p $(dir $@)
	@{ echo '// Generated by the Makefile (UNITY=1): unit test files, one translation unit.'; \
	  printf '%s\n' $(sort $(TEST_SRCS)) | \
	    awk -v n=$* -v g=$(TEST_UNITY_GROUPS) '(NR - 1) % g == n - 1 { printf "#include \"%s\"\n", $$0 }'; \
	} >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/unity/tests-%.o: $(BUILD)/unity/tests-%.cc $(TEST_PCH).gch | $(PROTO_SRCS)
	$(CXX) $(CXXFLAGS_ALL) $(TEST_OPTFLAGS) $(GTEST_CFLAGS) -Wno-subobject-linkage \
	  -include $(TEST_PCH) -Winvalid-pch -c $< -o $@

$(UNIT_TESTS): $(TEST_OBJS) $(LIB)
	$(CXX) $(OPTFLAGS) $(LINKER) -o $@ $(TEST_OBJS) $(LIB) $(GTEST_LIBS) $(LINK_LIBS) $(LDFLAGS)

# --- tests -----------------------------------------------------------------------------------
# Each suite is a target that runs through tests/suite.sh (its log and result in build/suites/,
# counted by tests/suite-summary.sh); make runs them in parallel, each one's output kept together.
SUITE := tests/suite.sh
# The golden cases, the longest suite, in four shards that run beside the other suites.
GOLDEN_SHARDS := test-golden-1of4 test-golden-2of4 test-golden-3of4 test-golden-4of4
TEST_SUITES := layer-check test-unit $(GOLDEN_SHARDS) test-conformance man-check \
  test-fuzz-regressions
INTEROP_SUITES := test-pprof-testdata test-sqlite-r test-perf-roundtrip \
  $(patsubst tests/%.sh,test-%,$(wildcard tests/interop-*.sh)) test-dot-graphviz
BROWSER_SUITES := test-browser
# make check starts the longest suites first (measured: BENCHMARKS.md), so that the short ones
# fill the cores at the end.
LONGEST_SUITES := test-browser test-interop-filter test-interop-pprof $(GOLDEN_SHARDS) \
  test-conformance test-interop-dot test-interop-jfr test-unit
CHECK_SUITES := $(LONGEST_SUITES) \
  $(filter-out $(LONGEST_SUITES),$(TEST_SUITES) $(INTEROP_SUITES) $(BROWSER_SUITES))
TEST_BINARIES := $(TOOLS) $(UNIT_TESTS) $(TEST_TOOLS)

.PHONY: test check-interop check-browser build-tests test-golden $(TEST_SUITES) \
  $(INTEROP_SUITES) $(BROWSER_SUITES)

build-tests: $(TEST_BINARIES)

# $(call run_suites,NEEDS,SUITES,BINARIES): builds BINARIES while NEEDS (what any suite may read:
# packages, speedscope, pprof) are fetched, then runs SUITES in one make (in parallel, every one
# even when one fails, in the order given: the longest first), then the summary, which fails if
# one did. The build comes first, whole: when suites could start as soon as their own programs
# were there, make gave the job slots to ready suites and compiled the unit tests after all of
# them (measured at 6c9d894: tests-1.o began at 381 s of 435, every suite but three done, and the
# last 47 s ran on one core). BINARIES start with the unit tests, the longest compiles.
define run_suites
	@rm -rf $(BUILD)/suites
	+@$(MAKE) --no-print-directory $(1) $(3)
	+@SUITES_KEEP_GOING=1 $(MAKE) --no-print-directory -Otarget $(2)
	@tests/suite-summary.sh
endef
CHECK_BINARIES = $(UNIT_TESTS) $(FUZZ_REPLAY) $(TOOLS) $(TEST_TOOLS)

# The packages the build needs first; then, in parallel, the build, the packages the suites need
# (apt-get while the compilers run), speedscope from npm and pprof built from Debian's Go
# sources; then every suite, two at a time; then the summary (its last line: "check: N passed,
# N failed").
check: deps deps-gtest
	$(call run_suites,deps-test deps-web pprof-tools,$(CHECK_SUITES),$(CHECK_BINARIES))

# The fast suites (under two minutes after the build); no package is installed.
test: deps-gtest
	$(call run_suites,,$(TEST_SUITES),$(CHECK_BINARIES))

check-interop: deps-test
	$(call run_suites,pprof-tools,$(INTEROP_SUITES),$(TOOLS) $(TEST_TOOLS))

# With the pages' screenshots in build/browser/ (make check takes none: no check reads them).
check-browser: export BROWSER_SCREENSHOTS = 1
check-browser: deps-test
	$(call run_suites,deps-web,$(BROWSER_SUITES),$(TOOLS) $(TEST_TOOLS))

# The unit tests in two shards run at once (GoogleTest's sharding: each test in one shard).
test-unit: $(UNIT_TESTS)
	@$(SUITE) $@ bash -c 'status=0; for i in 0 1; do GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$$i \
	  $(UNIT_TESTS) --gtest_brief=1 >$(BUILD)/unit-shard-$$i.log 2>&1 & pids[$$i]=$$!; done; \
	  for i in 0 1; do wait $${pids[$$i]} || status=1; cat $(BUILD)/unit-shard-$$i.log; done; \
	  exit $$status'

test-golden: $(TOOLS) $(TEST_TOOLS)
	@$(SUITE) $@ tests/golden.sh

$(GOLDEN_SHARDS): test-golden-%: $(TOOLS) $(TEST_TOOLS)
	@SHARD=$(subst of,/,$*) $(SUITE) $@ tests/golden.sh

golden-update: $(TOOLS) $(TEST_TOOLS)
	tests/golden.sh --update

# formats/conformance/ (the format's language-neutral suite) against prof-validate and
# prof-text --canonical.
test-conformance: $(TOOLS)
	@$(SUITE) $@ tests/conformance.sh

# Includes point down the library's layers (ARCHITECTURE.md).
layer-check:
	@$(SUITE) $@ tests/layer-check.sh

# Every man page renders without warnings.
man-check:
	@$(SUITE) $@ tests/man-check.sh

# prof-text against pprof's own expected outputs for the profile its driver_test.go builds
# (golden/pprof/testdata/cpu.prof), read from Debian's golang-github-google-pprof-dev (TEST_DEBS):
# no pprof binary is needed.
test-pprof-testdata: $(TOOLS)
	@$(SUITE) $@ tests/pprof-testdata.sh

# prof2sqlite's database read from R with DBI and RSQLite (issue 17).
test-sqlite-r: $(TOOLS)
	@$(SUITE) $@ tests/sqlite-r.sh

# prof-svg's and prof-html's pages in headless Chromium over the DevTools protocol (issue 15).
test-browser: $(TOOLS) $(TEST_TOOLS)
	@$(SUITE) $@ tests/browser.sh

# perf record -g + perf script + perf2prof on a program built for the test.
test-perf-roundtrip: $(TOOLS)
	@$(SUITE) $@ tests/perf-roundtrip.sh

# Graphviz's dot lays out every golden prof-text --dot output.
test-dot-graphviz: $(TOOLS)
	@$(SUITE) $@ tests/dot-graphviz.sh

# tests/interop-NAME.sh: Google's pprof reads our .pb.gz and agrees with prof-text (pprof);
# prof-filter's frame and label filters agree with pprof's (filter), prof-text --peek with
# pprof -peek (peek), --tags with -tags (tags), --diff-base with -diff_base (diff), --list with
# -list (list), --dot with -dot (dot); pprof reads perf2prof's mappings and inlined frames (perf);
# callgrind_annotate reads prof2callgrind's output (callgrind), KCachegrind shows it (kcachegrind);
# the JDK's jfr agrees with jfr2prof (jfr). pprof comes from `make pprof-tools`; a suite skips, saying why, without its peer.
$(filter test-interop-%,$(INTEROP_SUITES)): test-interop-%: $(TOOLS) $(TEST_TOOLS)
	@$(SUITE) $@ tests/interop-$*.sh

# --- fuzzing (tests/fuzz/README.md) ----------------------------------------------------------
# `make fuzz FUZZ_SECONDS=N`: the libFuzzer harnesses tests/fuzz/fuzz_NAME.cc, built with clang,
# ASan and UBSan into build/fuzz/NAME over the library compiled likewise, each run N seconds.
# `make test-fuzz-regressions` (in check): the same harnesses built with $(CXX) into one program
# with a plain main (build/fuzz-replay/replay) replay every file of tests/fuzz/regressions/NAME/.
FUZZ_DEBS := clang libclang-rt-14-dev
FUZZ_SECONDS ?= 60
FUZZ_CXX := clang++
FUZZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.cc,%,$(wildcard tests/fuzz/fuzz_*.cc))
FUZZ_LIB_OBJS := $(LIB_SRCS:%.cc=$(BUILD)/fuzz/obj/%.o) $(GEN_OBJS:$(BUILD)/%.o=$(BUILD)/fuzz/obj/%.o)
FUZZ_REPLAY := $(BUILD)/fuzz-replay/replay

.PHONY: deps-fuzz fuzz fuzz-build test-fuzz-regressions
deps-fuzz: deps
	$(call install_debs,$(FUZZ_DEBS))

$(BUILD)/fuzz/obj/gen/%.pb.o: $(BUILD)/gen/%.pb.cc | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) -std=c++17 -O1 -g $(FUZZ_FLAGS) -isystem $(BUILD)/gen $(PKG_CFLAGS) -c $< -o $@

# The web assets prof-svg and prof-html embed (generated C++ of the library).
$(BUILD)/fuzz/obj/gen/web/%.o: $(BUILD)/gen/web/%.cc | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(CXXFLAGS_ALL) -O1 $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/obj/%.o: %.cc | deps-fuzz $(PROTO_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(CXXFLAGS_ALL) -O1 $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/libproftools.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o $(BUILD)/fuzz/libproftools.a
	$(FUZZ_CXX) -g $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# The replay program (tests/fuzz/replay_main.cc: `replay NAME FILE...`) holds every harness, in
# one unit: build/unity/fuzz-replay.cc #includes each with its LLVMFuzzerTestOneInput renamed
# FuzzReplay_NAME (names in the harnesses' anonymous namespaces are therefore unique among
# them). Its own code compiles as the unit tests' does (TEST_OPTFLAGS): it runs each finding
# once, and what it tests is the library, compiled as the programs are.
replay_function = FuzzReplay_$(1)
$(BUILD)/unity/fuzz-replay.cc: FORCE
	@mkdir -p $(dir $@)
	@{ echo '// Generated by the Makefile: every fuzz harness and the replay main, one unit.'; \
	  $(foreach h,$(FUZZ_NAMES),printf '#define LLVMFuzzerTestOneInput %s\n#include "tests/fuzz/fuzz_%s.cc"\n#undef LLVMFuzzerTestOneInput\n' \
	    $(call replay_function,$(h)) $(h);) \
	  printf '#define FUZZ_REPLAY_HARNESSES' ; \
	  $(foreach h,$(FUZZ_NAMES),printf ' {"%s", %s},' $(h) $(call replay_function,$(h));) \
	  printf '\n#include "tests/fuzz/replay_main.cc"\n'; } >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/unity/fuzz-replay.o: $(BUILD)/unity/fuzz-replay.cc | $(PROTO_SRCS)
	$(CXX) $(CXXFLAGS_ALL) $(TEST_OPTFLAGS) -c $< -o $@
$(FUZZ_REPLAY): $(BUILD)/unity/fuzz-replay.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(OPTFLAGS) $(LINKER) -o $@ $^ $(LINK_LIBS) $(LDFLAGS)

fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

# The replay program is a test binary too (FUZZ_REPLAY is defined only here).
build-tests: $(FUZZ_REPLAY)

fuzz: deps-fuzz
	$(MAKE) fuzz-build
	tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_NAMES)

test-fuzz-regressions: $(FUZZ_REPLAY)
	@$(SUITE) $@ tests/fuzz/replay.sh $(FUZZ_NAMES)

# --- benchmarks, demo ------------------------------------------------------------------------
bench: deps-bench
	$(MAKE) all $(TEST_TOOLS)
	tests/bench/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	tests/demo.sh

# --- install, housekeeping -------------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(wildcard man/man1/*.1) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(wildcard man/man5/*.5) $(DESTDIR)$(PREFIX)/share/man/man5

FORMAT_FILES = $(wildcard common/*/*.h common/*/*.cc common/*/*/*.h common/*/*/*.cc tools/*.cc tests/*.cc tests/*.h tests/fuzz/*.cc \
                 tests/fuzz/*.h)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(BIN)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
