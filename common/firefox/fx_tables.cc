#include "common/firefox/fx_tables.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/base/diagnostics.h"

namespace proftools {
namespace {

// More columns than any version of either format has: a schema index beyond is an error, not
// an allocation.
constexpr int64_t kMaxColumns = 256;

}  // namespace

FxCell FxTable::At(const char* column, uint64_t row) const {
  const std::vector<FxCell>* cells = nullptr;
  size_t slot = 0;
  while (slot < kCached && cached_.slots[slot].first != nullptr &&
         cached_.slots[slot].first != column)
    ++slot;
  if (slot < kCached && cached_.slots[slot].first == column) {
    cells = cached_.slots[slot].second;
  } else {
    const auto found = columns.find(column);
    cells = found == columns.end() ? nullptr : &found->second;
    // The first columns asked for stay: a reader asks for the same few, row after row.
    if (slot < kCached) cached_.slots[slot] = {column, cells};
  }
  if (cells == nullptr || row >= cells->size()) return FxCell{};
  return (*cells)[row];
}

void FxTable::Fail(JsonDocument& json, const std::string& message) const {
  json.Fail(what + ": " + message, byte);
}

void FxTable::Require(JsonDocument& json, const char* column) const {
  if (!Has(column)) Fail(json, "no column `" + std::string(column) + "`");
}

std::optional<double> FxTable::Number(JsonDocument& json, const char* column, uint64_t row) const {
  const FxCell cell = At(column, row);
  const FxCell::Kind kind = cell.kind();
  if (kind == FxCell::kNull) return std::nullopt;
  if (kind != FxCell::kNumber) {
    Fail(json, std::string(column) + "[" + std::to_string(row) + "]: a number belongs here");
  }
  return cell.number();
}

std::optional<int64_t> FxTable::Index(JsonDocument& json, const char* column, uint64_t row,
                                      int64_t min, int64_t max, bool nullable) const {
  const std::optional<double> number = Number(json, column, row);
  if (!number) {
    if (!nullable) {
      Fail(json,
           std::string(column) + "[" + std::to_string(row) + "]: null where an index belongs");
    }
    return std::nullopt;
  }
  // Compared as doubles first: a huge or fractional number is no index.
  if (!(*number >= static_cast<double>(min) && *number <= static_cast<double>(max)) ||
      std::floor(*number) != *number) {
    const std::string where = std::string(column) + "[" + std::to_string(row) + "]";
    std::string range = max < min ? "the table it points into is empty"
                                  : "expected an integer from " + std::to_string(min) + " to " +
                                        std::to_string(max);
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", *number);
    Fail(json, where + ": " + text + " is out of range (" + range + ")");
  }
  return static_cast<int64_t>(*number);
}

FxCell ReadFxCell(JsonDocument& json, JsonValue value, std::string_view what) {
  // Most cells are integers (indexes, times in whole units): parsed as such first. simdjson
  // leaves a scalar unread when it is not of the type asked, so the general path still sees it.
  int64_t integer;
  if (value.get_int64().get(integer) == simdjson::SUCCESS) {
    return FxCell::Number(static_cast<double>(integer));
  }
  ondemand::json_type type;
  if (const auto error = value.type().get(type)) json.Fail(error, what, "a value");
  switch (type) {
    case ondemand::json_type::null: {
      bool is_null = false;
      if (const auto error = value.is_null().get(is_null)) json.Fail(error, what, "null");
      return FxCell();
    }
    case ondemand::json_type::number: {
      double number = 0;
      if (const auto error = value.get_double().get(number)) json.Fail(error, what, "a number");
      return FxCell::Number(number);
    }
    case ondemand::json_type::boolean: {
      bool flag = false;
      if (const auto error = value.get_bool().get(flag)) json.Fail(error, what, "a boolean");
      return FxCell::Number(flag ? 1 : 0);
    }
    default:
      // Left unread: the array or object holding it skips it when it moves on.
      return FxCell::Other();
  }
}

FxTable ReadSchemaTable(JsonDocument& json, JsonValue value, const std::string& what) {
  FxTable table;
  table.what = what;
  table.byte = json.Byte();
  bool has_schema = false, has_data = false;
  std::map<std::string, int64_t> schema;
  std::vector<FxCell> cells;
  std::vector<uint32_t> widths;
  ForEachField(json, json.Object(value, what), what, [&](std::string_view key, JsonValue field) {
    if (key == "schema") {
      has_schema = true;
      const std::string where = what + ".schema";
      std::vector<bool> taken(kMaxColumns, false);
      ForEachField(json, json.Object(field, where), where,
                   [&](std::string_view name, JsonValue index_value) {
                     const std::string at = where + "." + std::string(name);
                     const uint64_t index = json.Unsigned(index_value, at);
                     if (index >= static_cast<uint64_t>(kMaxColumns)) {
                       json.Fail(at + ": column index " + std::to_string(index) +
                                 " is beyond any table's columns");
                     }
                     if (taken[index]) {
                       json.Fail(at + ": column index " + std::to_string(index) +
                                 " is given to two columns");
                     }
                     taken[index] = true;
                     schema[std::string(name)] = static_cast<int64_t>(index);
                   });
    } else if (key == "data") {
      has_data = true;
      const std::string where = what + ".data";
      size_t row = 0;
      for (auto element : json.Array(field, where)) {
        const std::string at = where + "[" + std::to_string(row) + "]";
        uint32_t width = 0;
        for (auto cell : json.Array(JsonValue(std::move(element)), at)) {
          // Cells past any schema index are kept out of memory.
          const FxCell read = ReadFxCell(json, JsonValue(std::move(cell)), at);
          if (width < kMaxColumns) cells.push_back(read);
          if (width < kMaxColumns) ++width;
        }
        widths.push_back(width);
        ++row;
      }
    }
  });
  if (!has_schema) table.Fail(json, "no `schema`: the Gecko profile's tables have one");
  if (!has_data) table.Fail(json, "no `data`: the Gecko profile's tables have one");
  table.length = widths.size();
  for (const auto& column : schema) {
    std::vector<FxCell>& out = table.columns[column.first];
    out.resize(widths.size());
    size_t at = 0;
    for (size_t row = 0; row < widths.size(); ++row) {
      if (column.second < static_cast<int64_t>(widths[row])) out[row] = cells[at + column.second];
      at += widths[row];
    }
  }
  return table;
}

FxTable ReadColumnTable(JsonDocument& json, JsonValue value, const std::string& what) {
  FxTable table;
  table.what = what;
  table.byte = json.Byte();
  std::optional<uint64_t> length;
  size_t reserve = 0;
  ForEachField(json, json.Object(value, what), what, [&](std::string_view key, JsonValue field) {
    const std::string at = what + "." + std::string(key);
    ondemand::json_type type;
    if (const auto error = field.type().get(type)) json.Fail(error, at, "a value");
    if (key == "length") {
      length = json.Unsigned(std::move(field), at);
    } else if (type == ondemand::json_type::array) {
      std::vector<FxCell>& column = table.columns[std::string(key)];
      column.clear();
      // The columns of a table are as long as each other: the first one read sizes the rest.
      if (reserve > 0) column.reserve(reserve);
      for (auto cell : json.Array(std::move(field), at)) {
        column.push_back(ReadFxCell(json, JsonValue(std::move(cell)), at));
      }
      if (reserve == 0) reserve = column.size();
      // A shorter column is an error (said below, once `length` is known); until then it holds
      // no more than its cells, so that many short columns cannot each keep a long reservation.
      if (column.size() < reserve) column.shrink_to_fit();
    } else if (type == ondemand::json_type::string) {
      table.strings[std::string(key)] = std::string(json.String(std::move(field), at));
    } else {
      ReadFxCell(json, std::move(field), at);  // skipped
    }
  });
  // With `length`, a column may be shorter (the profiler reads the cells past its end as
  // undefined: old profiles wrote columns of trailing undefined cells so, resourceTable.lib) and
  // At() reads them as null; the table is no longer than its longest column (rows of nothing
  // but nulls would be errors anyway, and a large `length` no allocation). A longer column is
  // an error. Without `length`, the columns must agree.
  std::optional<uint64_t> size;
  uint64_t longest = 0;
  for (const auto& column : table.columns) {
    if (!length && !size) size = column.second.size();
    longest = std::max<uint64_t>(longest, column.second.size());
    const uint64_t expected = length ? *length : *size;
    if (length ? column.second.size() > expected : column.second.size() != expected) {
      table.Fail(json, "column `" + column.first + "` has " + std::to_string(column.second.size()) +
                           " cells but " +
                           (length ? "`length` is "
                                   : "column `" + table.columns.begin()->first + "` has ") +
                           std::to_string(expected));
    }
  }
  table.length = length ? std::min(*length, longest) : size.value_or(0);
  return table;
}

std::optional<int64_t> ReadFxId(JsonDocument& json, JsonValue value, const std::string& what) {
  ondemand::json_type type;
  if (const auto error = value.type().get(type)) json.Fail(error, what, "a value");
  if (type == ondemand::json_type::string) {
    const std::string_view text = json.String(std::move(value), what);
    if (text.empty() || text.size() > 18) return std::nullopt;
    int64_t id = 0;
    for (const char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      id = id * 10 + (c - '0');
    }
    return id;
  }
  const FxCell cell = ReadFxCell(json, std::move(value), what);
  const double number = cell.number();
  if (cell.kind() != FxCell::kNumber || !(number >= -9e18 && number <= 9e18) ||
      std::floor(number) != number) {
    return std::nullopt;
  }
  return static_cast<int64_t>(number);
}

std::vector<std::string> ReadStringArray(JsonDocument& json, JsonValue value,
                                         const std::string& what) {
  std::vector<std::string> strings;
  for (auto element : json.Array(value, what)) {
    strings.emplace_back(json.String(JsonValue(std::move(element)),
                                     what + "[" + std::to_string(strings.size()) + "]"));
  }
  return strings;
}

}  // namespace proftools
