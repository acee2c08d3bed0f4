// The unit tests' precompiled header (the Makefile's TEST_PCH): GoogleTest and the standard
// headers most tests include. Parsing gtest.h alone took 1.6 s of each test file's compile.
// Only outside headers belong here: a test file still includes what it uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>
