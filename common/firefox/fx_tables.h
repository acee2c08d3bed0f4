// The tables of the Firefox Profiler's formats, read generically: the Gecko profile keeps a
// table as {"schema": {COLUMN: INDEX, ...}, "data": [[ROW], ...]} (rows may be shorter than the
// schema: the missing cells are null), the processed profile as {COLUMN: [...], ..., "length": N}.
// Both become an FxTable of columns of cells, read in document order (the schema may come after
// the data), so that the readers interpret them by column name once the whole table is in.
#ifndef PROFTOOLS_COMMON_FIREFOX_FX_TABLES_H_
#define PROFTOOLS_COMMON_FIREFOX_FX_TABLES_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/json/json_document.h"

namespace proftools {

// A cell of a table: a number (booleans as 0 and 1), null, or something else (a string, an
// array, an object), which the columns proftools reads never hold. Eight bytes, not sixteen:
// null and "other" are NaNs of payloads of their own, which no JSON number parses to; a
// million-row table's columns are half the memory to fill and to page in.
class FxCell {
 public:
  enum Kind : uint8_t { kNull, kNumber, kOther };
  FxCell() = default;  // null
  static FxCell Number(double number) {
    FxCell cell;
    std::memcpy(&cell.bits_, &number, sizeof number);
    // A NaN cannot come from JSON; one from elsewhere stays a number, not null or other.
    if (cell.bits_ == kNullBits || cell.bits_ == kOtherBits) cell.bits_ = kNumberNaN;
    return cell;
  }
  static FxCell Other() {
    FxCell cell;
    cell.bits_ = kOtherBits;
    return cell;
  }
  Kind kind() const { return bits_ == kNullBits ? kNull : bits_ == kOtherBits ? kOther : kNumber; }
  double number() const {
    if (bits_ == kNullBits || bits_ == kOtherBits) return 0;
    double number;
    std::memcpy(&number, &bits_, sizeof number);
    return number;
  }

 private:
  static constexpr uint64_t kNullBits = 0x7ff8dead00000001, kOtherBits = 0x7ff8dead00000002,
                            kNumberNaN = 0x7ff8000000000000;
  uint64_t bits_ = kNullBits;
};

class FxTable {
 public:
  std::string what;   // "threads[2].stackTable", for messages
  uint64_t byte = 0;  // where the table starts in the input
  uint64_t length = 0;
  std::map<std::string, std::vector<FxCell>> columns;
  std::map<std::string, std::string> strings;  // string fields ("weightType")

  bool Has(const char* column) const { return columns.count(column) != 0; }
  // The column's cell at `row`; null when the column is missing or shorter.
  FxCell At(const char* column, uint64_t row) const;
  // A cell that must be an integer in [min, max], or null when `nullable`; nullopt for null.
  // Throws "FILE: byte N: WHAT.COLUMN[ROW]: ..." otherwise.
  std::optional<int64_t> Index(JsonDocument& json, const char* column, uint64_t row, int64_t min,
                               int64_t max, bool nullable) const;
  // A number cell, or nullopt for null; throws for other kinds.
  std::optional<double> Number(JsonDocument& json, const char* column, uint64_t row) const;
  // Throws unless the table has `column`.
  void Require(JsonDocument& json, const char* column) const;
  [[noreturn]] void Fail(JsonDocument& json, const std::string& message) const;

 private:
  // Columns looked up, by the address of their names: readers ask for the same few columns row
  // after row, by literals, and a map lookup per cell would cost more than the cell.
  // Copied or moved, a table starts with an empty cache: the pointers are into its own columns.
  static constexpr size_t kCached = 8;
  struct Cache {
    std::array<std::pair<const char*, const std::vector<FxCell>*>, kCached> slots{};
    Cache() = default;
    // noexcept, so that a vector of tables (or of what holds them) moves them when it grows
    // instead of copying every column.
    Cache(const Cache&) noexcept {}
    Cache& operator=(const Cache&) noexcept {
      slots = {};
      return *this;
    }
  };
  mutable Cache cached_;
};

// A cell at the parser's place.
FxCell ReadFxCell(JsonDocument& json, JsonValue value, std::string_view what);

// {"schema": {...}, "data": [[...], ...]} (the Gecko profile's tables). Throws ProfError for a
// missing schema, a schema index repeated or out of range, rows that are not arrays.
FxTable ReadSchemaTable(JsonDocument& json, JsonValue value, const std::string& what);

// {COLUMN: [...], ..., "length": N} (the processed profile's tables). Every array column must
// have `length` cells.
FxTable ReadColumnTable(JsonDocument& json, JsonValue value, const std::string& what);

// A process or thread id: a number, or a string of digits (the processed profile's pids);
// nullopt for anything else (a string such as "0.1" that the profiler makes up).
std::optional<int64_t> ReadFxId(JsonDocument& json, JsonValue value, const std::string& what);

// An array of strings (stringTable, stringArray).
std::vector<std::string> ReadStringArray(JsonDocument& json, JsonValue value,
                                         const std::string& what);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_FIREFOX_FX_TABLES_H_
