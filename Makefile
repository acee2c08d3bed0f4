# proftools — build, test, benchmark.
#
#   make            build every program into bin/
#   make check      install missing Debian packages, build, run unit and golden tests
#   make demo       install missing packages, build, and run the main job on a shipped example
#   make bench      benchmarks (figures go to BENCHMARKS.md by hand)
#   make golden-update   rewrite golden expectations (then read the diff: it is a review)
#   make fuzz [FUZZ_SECONDS=N]   build the libFuzzer harnesses with clang and run each N seconds
#   make install [PREFIX=/usr/local]
#
# Programs are tools/NAME.cc, the library is common/LAYER/*.cc (plus formats/*.proto compiled by
# protoc; the layers are in ARCHITECTURE.md and tests/layer-check.sh), unit tests are
# tests/*_test.cc, golden cases live under golden/. New files are picked
# up by wildcard: adding a program or a test needs no change here.

PREFIX ?= /usr/local
CXX ?= g++
OPTFLAGS ?= -O2 -g
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
TEST_DEBS := googletest libgtest-dev libgmock-dev diffutils groff-base man-db
# prof2sqlite's databases read by the sqlite3 shell and from R with DBI and RSQLite (tests/sqlite-r.sh).
TEST_DEBS += sqlite3 r-cran-rsqlite r-cran-dbi
# pprof's own legacy test profiles (tests/legacy_pprof_test.cc reads every one).
TEST_DEBS += golang-github-google-pprof-dev
# script(1) gives golden/cli cases a pseudo-terminal (Essential in Debian; listed to be explicit).
TEST_DEBS += bsdutils
# GNU parallel runs the README's fleet merge as a tree (golden/merge/parallel-tree).
TEST_DEBS += parallel
# perf2prof's round trip through the real perf (tests/perf-roundtrip.sh; skips when not permitted).
TEST_DEBS += linux-perf
# prof-svg's and prof-html's pages opened in headless Chromium, driven over the DevTools protocol
# by tests/browser/ (Python's standard library only).
TEST_DEBS += chromium python3
# prof2speedscope's output validated against speedscope's published JSON schema (the npm
# package's file-format-schema.json) by tests/browser/check_speedscope_schema.py.
TEST_DEBS += python3-jsonschema
# callgrind_annotate reads prof2callgrind's output; valgrind records golden/callgrind's inputs
# (tests/interop-callgrind.sh).
TEST_DEBS += valgrind
# The JDK's own JFR reader (`jfr print --json`) against jfr2prof, and java to record (tests/interop-jfr.sh).
TEST_DEBS += openjdk-17-jdk-headless
# Graphviz's `dot` renders every golden prof-text --dot output (tests/dot-valid.sh).
TEST_DEBS += graphviz
BENCH_DEBS := time sqlite3
# speedscope, from the npm registry, opens prof2chrome's output in tests/browser.sh: a test-only
# package set (tests/web/package.json, pinned by package-lock.json) installed by `make deps-web`
# into tests/web/node_modules with npm, itself Debian's package when the machine has none.
WEB_DEBS = $(if $(shell command -v npm 2>/dev/null),,nodejs npm)
PKGS := protobuf re2 zlib libdeflate libisal cxxopts simdjson libgvc

# pkg-config runs once, when first needed (after `deps` may have installed the packages).
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $(PKGS)))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $$(shell pkg-config --libs $(PKGS)))$(PKG_LIBS)
# SQLite is linked into prof2sqlite, sqlite2prof and the unit tests only (SQLITE_TOOLS below).
SQLITE_CFLAGS = $(eval SQLITE_CFLAGS := $$(shell pkg-config --cflags sqlite3))$(SQLITE_CFLAGS)
SQLITE_LIBS = $(eval SQLITE_LIBS := $$(shell pkg-config --libs sqlite3))$(SQLITE_LIBS)
GTEST_CFLAGS = $(eval GTEST_CFLAGS := $$(shell pkg-config --cflags gtest gmock))$(GTEST_CFLAGS)
GTEST_LIBS = $(eval GTEST_LIBS := $$(shell pkg-config --libs gtest gmock gtest_main))$(GTEST_LIBS)

CXXFLAGS_ALL = -std=c++17 $(OPTFLAGS) -Wall -Wextra -Werror -I. -isystem $(BUILD)/gen \
               $(PKG_CFLAGS) -MMD -MP $(CXXFLAGS)

# The SQLite codec and what builds on it are a library of their own, so that only the programs
# that need SQLite link it.
SQLITE_LIB_SRCS := $(wildcard common/sqlite/*.cc common/sqlite_load/*.cc)
SQLITE_LIB := $(BUILD)/libproftools-sqlite.a
SQLITE_TOOLS := $(BIN)/prof2sqlite $(BIN)/sqlite2prof
LIB_SRCS := $(filter-out $(SQLITE_LIB_SRCS),$(wildcard common/*/*.cc))
PROTOS := $(wildcard formats/*.proto)
PROTO_SRCS := $(PROTOS:formats/%.proto=$(BUILD)/gen/formats/%.pb.cc)
# HTML, CSS and JS of the reports (common/report/web/), embedded as string literals at build time
# by common/report/web/embed.sh into one generated source.
WEB_ASSETS := $(sort $(wildcard common/report/web/*.js common/report/web/*.css \
                common/report/web/*.html))
WEB_ASSETS_SRC := $(BUILD)/gen/web/web_assets.cc
LIB_OBJS := $(LIB_SRCS:%.cc=$(BUILD)/%.o) $(PROTO_SRCS:%.cc=%.o) $(WEB_ASSETS_SRC:%.cc=%.o)
LIB := $(BUILD)/libproftools.a

TOOL_SRCS := $(wildcard tools/*.cc)
TOOLS := $(TOOL_SRCS:tools/%.cc=$(BIN)/%)

TEST_SRCS := $(wildcard tests/*_test.cc)
TEST_OBJS := $(TEST_SRCS:%.cc=$(BUILD)/%.o)
UNIT_TESTS := $(BUILD)/unit-tests
# Helper programs used by tests and benchmarks (tests/tool_*.cc), not installed.
TEST_TOOL_SRCS := $(wildcard tests/tool_*.cc)
TEST_TOOLS := $(TEST_TOOL_SRCS:tests/tool_%.cc=$(BUILD)/test-bin/%)

NPROC := $(shell nproc 2>/dev/null || echo 2)

.SECONDARY:

.PHONY: all deps deps-test deps-bench deps-web check test-unit test-golden golden-update bench demo \
        test-perf-roundtrip layer-check \
        install clean format format-check man-check

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

deps-test: deps
	$(call install_debs,$(TEST_DEBS))

deps-bench: deps
	$(call install_debs,$(BENCH_DEBS))

# `npm ci` when node_modules is missing or older than the lock file; a registry that cannot be
# reached leaves the speedscope checks to skip, saying why (tests/browser.sh).
deps-web:
	$(if $(WEB_DEBS),$(call install_debs,$(WEB_DEBS)))
	@if [ ! -f tests/web/node_modules/.package-lock.json ] || \
	    [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then \
	  echo "deps-web: npm ci in tests/web"; \
	  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error) || \
	    echo "deps-web: npm ci failed: the speedscope checks of tests/browser.sh will skip"; \
	fi

# --- build -----------------------------------------------------------------------------------
$(BUILD)/gen/formats/%.pb.cc $(BUILD)/gen/formats/%.pb.h: formats/%.proto | deps
	@mkdir -p $(BUILD)/gen
	protoc --cpp_out=$(BUILD)/gen $<

# Generated protobuf code is not ours to hold to -Wextra -Werror.
$(BUILD)/gen/%.pb.o: $(BUILD)/gen/%.pb.cc
	$(CXX) -std=c++17 $(OPTFLAGS) -isystem $(BUILD)/gen $(PKG_CFLAGS) -c $< -o $@

$(WEB_ASSETS_SRC): $(WEB_ASSETS) common/report/web/embed.sh
	@mkdir -p $(dir $@)
	common/report/web/embed.sh $@ $(WEB_ASSETS)

$(BUILD)/gen/web/%.o: $(BUILD)/gen/web/%.cc
	$(CXX) $(CXXFLAGS_ALL) -c $< -o $@

$(BUILD)/%.o: %.cc | deps $(PROTO_SRCS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(SQLITE_LIB): $(SQLITE_LIB_SRCS:%.cc=$(BUILD)/%.o)
	@rm -f $@
	ar rcs $@ $^

$(SQLITE_LIB_SRCS:%.cc=$(BUILD)/%.o): CXXFLAGS_ALL += $(SQLITE_CFLAGS)

$(SQLITE_TOOLS): $(BIN)/%: $(BUILD)/tools/%.o $(SQLITE_LIB) $(LIB)
	@mkdir -p $(BIN)
	$(CXX) $(OPTFLAGS) -o $@ $< $(SQLITE_LIB) $(LIB) $(PKG_LIBS) $(SQLITE_LIBS) $(LDFLAGS)

$(filter-out $(SQLITE_TOOLS),$(TOOLS)): $(BIN)/%: $(BUILD)/tools/%.o $(LIB)
	@mkdir -p $(BIN)
	$(CXX) $(OPTFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(LDFLAGS)

$(BUILD)/test-bin/%: $(BUILD)/tests/tool_%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(OPTFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(LDFLAGS)

$(BUILD)/tests/%_test.o: tests/%_test.cc | deps-test $(PROTO_SRCS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(GTEST_CFLAGS) -c $< -o $@

$(UNIT_TESTS): $(TEST_OBJS) $(SQLITE_LIB) $(LIB)
	$(CXX) $(OPTFLAGS) -o $@ $(TEST_OBJS) $(SQLITE_LIB) $(LIB) $(GTEST_LIBS) $(PKG_LIBS) \
	  $(SQLITE_LIBS) $(LDFLAGS)

# --- tests -----------------------------------------------------------------------------------
check: deps-test
	$(MAKE) -j$(NPROC) all $(UNIT_TESTS) $(TEST_TOOLS) $(FUZZ_REPLAYS)
	$(MAKE) layer-check test-unit test-golden test-conformance man-check test-fuzz-regressions \
	  test-pprof-testdata test-interop test-perf-roundtrip test-browser

test-unit: $(UNIT_TESTS)
	$(UNIT_TESTS) --gtest_brief=1

test-golden: $(TOOLS) $(TEST_TOOLS)
	tests/golden.sh

golden-update: $(TOOLS) $(TEST_TOOLS)
	tests/golden.sh --update

# formats/conformance/ (the format's language-neutral suite) against prof-validate and
# prof-text --canonical.
# prof-text against pprof's own expected outputs for the profile its driver_test.go builds
# (golden/pprof/testdata/cpu.prof), read from Debian's golang-github-google-pprof-dev (TEST_DEBS):
# no pprof binary is needed.
.PHONY: test-pprof-testdata
test-pprof-testdata: $(TOOLS)
	tests/pprof-testdata.sh

.PHONY: test-conformance
test-conformance: $(TOOLS)
	tests/conformance.sh

# prof2sqlite's database read from R with DBI and RSQLite (issue 17; run by test-interop).
.PHONY: test-sqlite-r
test-sqlite-r: $(TOOLS)
	tests/sqlite-r.sh

# prof-svg's and prof-html's pages in headless Chromium over the DevTools protocol (issue 15).
.PHONY: test-browser
test-browser: $(TOOLS) $(TEST_TOOLS) deps-web
	tests/browser.sh

# perf record -g + perf script + perf2prof on a program built for the test.
test-perf-roundtrip: $(TOOLS)
	tests/perf-roundtrip.sh

# pprof interop (issue 4): Google's pprof reads our .pb.gz and agrees with prof-text,
# prof-filter's frame and label filters agree with pprof's (issue 13), and prof-text --peek with
# pprof -peek, prof-text --tags with pprof -tags, --diff-base with pprof -diff_base (issue 14) and
# --list with pprof -list (issue 30).
# Builds
# pprof from Debian packages when missing (tests/interop/setup-pprof.sh); skips with a reason
# only when that is impossible.
.PHONY: test-interop
test-interop: $(TOOLS) test-sqlite-r
	tests/interop-pprof.sh
	tests/interop-filter.sh
	tests/interop-peek.sh
	tests/interop-dot.sh
	tests/dot-graphviz.sh
	tests/interop-tags.sh
	tests/interop-diff.sh
	tests/interop-list.sh
	tests/interop-perf.sh
	tests/interop-callgrind.sh
	tests/interop-jfr.sh

# Includes point down the library's layers (ARCHITECTURE.md).
layer-check:
	tests/layer-check.sh

# Every man page renders without warnings.
man-check:
	tests/man-check.sh

# --- fuzzing (tests/fuzz/README.md) ----------------------------------------------------------
# `make fuzz FUZZ_SECONDS=N`: the libFuzzer harnesses tests/fuzz/fuzz_NAME.cc, built with clang,
# ASan and UBSan into build/fuzz/NAME over the library compiled likewise, each run N seconds.
# `make test-fuzz-regressions` (in check): the same harnesses built with $(CXX) and a plain
# main replay every file of tests/fuzz/regressions/NAME/.
FUZZ_DEBS := clang libclang-rt-14-dev
FUZZ_SECONDS ?= 60
FUZZ_CXX := clang++
FUZZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.cc,%,$(wildcard tests/fuzz/fuzz_*.cc))
FUZZ_LIB_OBJS := $(LIB_OBJS:$(BUILD)/%.o=$(BUILD)/fuzz/obj/%.o)
FUZZ_REPLAYS := $(FUZZ_NAMES:%=$(BUILD)/fuzz-replay/%)

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

$(BUILD)/fuzz-replay/%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay_main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(OPTFLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)

# The sqlite harness also links the SQLite layer and SQLite itself.
FUZZ_SQLITE_LIB := $(BUILD)/fuzz/libproftools-sqlite.a
$(SQLITE_LIB_SRCS:%.cc=$(BUILD)/fuzz/obj/%.o) $(BUILD)/fuzz/obj/tests/fuzz/fuzz_sqlite.o \
  $(BUILD)/tests/fuzz/fuzz_sqlite.o: CXXFLAGS_ALL += $(SQLITE_CFLAGS)
$(FUZZ_SQLITE_LIB): $(SQLITE_LIB_SRCS:%.cc=$(BUILD)/fuzz/obj/%.o)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/sqlite: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_sqlite.o $(FUZZ_SQLITE_LIB) \
    $(BUILD)/fuzz/libproftools.a
	$(FUZZ_CXX) -g $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS) $(SQLITE_LIBS)

$(BUILD)/fuzz-replay/sqlite: $(BUILD)/tests/fuzz/fuzz_sqlite.o $(BUILD)/tests/fuzz/replay_main.o \
    $(SQLITE_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(OPTFLAGS) -o $@ $^ $(PKG_LIBS) $(SQLITE_LIBS) $(LDFLAGS)

fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

fuzz: deps-fuzz
	$(MAKE) -j$(NPROC) fuzz-build
	tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_NAMES)

test-fuzz-regressions: $(FUZZ_REPLAYS)
	tests/fuzz/replay.sh $(FUZZ_NAMES)

# --- benchmarks, demo ------------------------------------------------------------------------
bench: deps-bench
	$(MAKE) -j$(NPROC) all $(TEST_TOOLS)
	tests/bench/run.sh

demo: deps
	$(MAKE) -j$(NPROC) all
	tests/demo.sh

# --- install, housekeeping -------------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(wildcard man/*.5) $(DESTDIR)$(PREFIX)/share/man/man5

FORMAT_FILES = $(wildcard common/*/*.h common/*/*.cc tools/*.cc tests/*.cc tests/*.h tests/fuzz/*.cc \
                 tests/fuzz/*.h)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(BIN)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
