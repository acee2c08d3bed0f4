// json-floor FILE: simdjson's own parse of FILE with the On-Demand API, every value touched
// (keys unescaped, strings unescaped, numbers parsed, as the Chrome readers read them) and
// nothing kept: the floor the Chrome readers' conversion is measured against in
// tests/bench/bench-chrome.sh. Prints how many values it saw; --implementations prints the
// kernel simdjson picked at run time (stage 1: finding the structure) and the one On-Demand
// was compiled for (stage 2: walking it), which the build's flags decide.
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace {

namespace ondemand = simdjson::ondemand;

struct Counts {
  uint64_t values = 0;
  double sum = 0;  // what the numbers add up to, so that parsing them is not optimised away
  uint64_t bytes = 0;
};

bool Touch(ondemand::value value, Counts* counts);

bool TouchValue(simdjson::simdjson_result<ondemand::value> result, Counts* counts) {
  ondemand::value value;
  if (result.get(value)) return false;
  return Touch(value, counts);
}

bool Touch(ondemand::value value, Counts* counts) {
  ++counts->values;
  ondemand::json_type type;
  if (value.type().get(type)) return false;
  switch (type) {
    case ondemand::json_type::object: {
      ondemand::object object;
      if (value.get_object().get(object)) return false;
      for (auto result : object) {
        ondemand::field field;
        if (std::move(result).get(field)) return false;
        std::string_view key;
        if (field.unescaped_key().get(key)) return false;
        counts->bytes += key.size();
        if (!TouchValue(std::move(field).value(), counts)) return false;
      }
      return true;
    }
    case ondemand::json_type::array: {
      ondemand::array array;
      if (value.get_array().get(array)) return false;
      for (auto element : array) {
        if (!TouchValue(element, counts)) return false;
      }
      return true;
    }
    case ondemand::json_type::number: {
      ondemand::number_type kind;
      if (value.get_number_type().get(kind)) return false;
      if (kind == ondemand::number_type::signed_integer) {
        int64_t n = 0;
        if (value.get_int64().get(n)) return false;
        counts->sum += static_cast<double>(n);
      } else if (kind == ondemand::number_type::unsigned_integer) {
        uint64_t n = 0;
        if (value.get_uint64().get(n)) return false;
        counts->sum += static_cast<double>(n);
      } else {
        double n = 0;
        if (value.get_double().get(n)) return false;
        counts->sum += n;
      }
      return true;
    }
    case ondemand::json_type::string: {
      std::string_view text;
      if (value.get_string().get(text)) return false;
      counts->bytes += text.size();
      return true;
    }
    case ondemand::json_type::boolean: {
      bool b = false;
      return !value.get_bool().get(b);
    }
    case ondemand::json_type::null:
      return value.is_null();
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--implementations") == 0) {
    std::printf("simdjson %d.%d.%d: stage 1 (run time) %s, On-Demand (compiled) %s\n",
                int(simdjson::SIMDJSON_VERSION_MAJOR), int(simdjson::SIMDJSON_VERSION_MINOR),
                int(simdjson::SIMDJSON_VERSION_REVISION),
                simdjson::get_active_implementation()->name().c_str(),
                simdjson::builtin_implementation()->name().c_str());
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: json-floor FILE | --implementations\n");
    return 2;
  }
  simdjson::padded_string json;
  if (simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "json-floor: %s: cannot read\n", argv[1]);
    return 1;
  }
  ondemand::parser parser;
  ondemand::document doc;
  Counts counts;
  if (parser.iterate(json).get(doc)) {
    std::fprintf(stderr, "json-floor: %s: not JSON\n", argv[1]);
    return 1;
  }
  ondemand::value root;
  if (doc.get_value().get(root) || !Touch(root, &counts)) {
    std::fprintf(stderr, "json-floor: %s: a value simdjson could not read\n", argv[1]);
    return 1;
  }
  std::printf("%llu values, %llu bytes of keys and strings, numbers adding up to %g\n",
              static_cast<unsigned long long>(counts.values),
              static_cast<unsigned long long>(counts.bytes), counts.sum);
  return 0;
}
