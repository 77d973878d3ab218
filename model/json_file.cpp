// JSON files and typed fields, with errors naming file and field.
#include "model/json_file.hpp"

#include <fstream>
#include <limits>

namespace tessel {

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot open file");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(path, "", std::string("not valid JSON: ") + error.what());
  }
}

void write_json_file(const std::string& path, const nlohmann::json& value) {
  std::ofstream out(path);
  if (!out) throw InputError(path, "", "cannot write file");
  out << value.dump(1) << "\n";
}

const nlohmann::json& require(const nlohmann::json& object, const std::string& key,
                              const JsonPlace& place) {
  if (!object.is_object()) place.fail("expected an object");
  auto it = object.find(key);
  if (it == object.end()) place.field(key).fail("missing");
  return *it;
}

long long as_integer(const nlohmann::json& value, const JsonPlace& place) {
  if (value.is_number_integer()) return value.get<long long>();
  if (value.is_number_float()) {
    double number = value.get<double>();
    if (number == static_cast<double>(static_cast<long long>(number)))
      return static_cast<long long>(number);
  }
  place.fail("expected an integer, got " + value.dump());
}

long long require_integer(const nlohmann::json& object, const std::string& key,
                          const JsonPlace& place) {
  return as_integer(require(object, key, place), place.field(key));
}

std::string require_string(const nlohmann::json& object, const std::string& key,
                           const JsonPlace& place) {
  const nlohmann::json& value = require(object, key, place);
  if (!value.is_string()) place.field(key).fail("expected a string, got " + value.dump());
  return value.get<std::string>();
}

const nlohmann::json& require_array(const nlohmann::json& object, const std::string& key,
                                    const JsonPlace& place) {
  const nlohmann::json& value = require(object, key, place);
  if (!value.is_array()) place.field(key).fail("expected a list, got " + value.dump());
  return value;
}

void require_format(const nlohmann::json& document, const std::string& expected,
                    const JsonPlace& place) {
  std::string format = require_string(document, "format", place);
  if (format == expected) return;
  std::string expected_name = expected.substr(0, expected.find('/'));
  if (format.substr(0, format.find('/')) == expected_name)
    place.field("format").fail("unsupported version '" + format + "' (this tessel reads '" +
                               expected + "')");
  place.field("format").fail("unknown format '" + format + "' (expected '" + expected + "')");
}

}  // namespace tessel
