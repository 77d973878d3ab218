// JSON files and typed fields, with errors naming file and field.
#include "model/json_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

namespace tessel {

namespace {

// nlohmann's parser is iterative, but destroying or printing a value recurses
// once per nesting level: a file of 100,000 '[' would overflow the stack.
// No tessel format nests deeper than a handful of levels.
constexpr int kMaxNesting = 64;
constexpr std::uintmax_t kMaxFileBytes = 1ULL << 30;

void check_nesting(const std::string& text, const std::string& path) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting)
        throw InputError(path, "", "JSON nested deeper than " + std::to_string(kMaxNesting) +
                                       " levels (at byte " + std::to_string(i) + "); no tessel format needs that");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& path) {
  check_nesting(text, path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(path, "", std::string("not valid JSON: ") + error.what());
  } catch (const nlohmann::json::exception& error) {
    // out_of_range: a number such as 1e400 that no double holds.
    throw InputError(path, "", std::string("not readable JSON: ") + error.what());
  }
}

nlohmann::json read_json_file(const std::string& path) {
  std::error_code size_error;
  const std::uintmax_t size = std::filesystem::file_size(path, size_error);
  if (!size_error && size > kMaxFileBytes)
    throw InputError(path, "", "file of " + std::to_string(size) + " bytes is larger than the 1 GiB tessel reads");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_json_text(text, path);
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
  if (value.is_number_unsigned() &&
      value.get<unsigned long long>() > static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
    place.fail("integer " + value.dump() + " is too large (at most 2^63 - 1)");
  if (value.is_number_integer()) return value.get<long long>();
  if (value.is_number_float()) {
    // Range first: converting a double outside long long is undefined.
    const double number = value.get<double>();
    if (!(number >= -0x1p63 && number < 0x1p63))
      place.fail("integer " + value.dump() + " is out of range (|n| < 2^63)");
    if (number == std::trunc(number)) return static_cast<long long>(number);
  }
  place.fail("expected an integer, got " + value.dump());
}

Decimal as_decimal(const nlohmann::json& value, const JsonPlace& place) {
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(kMaxTicks))
      place.fail("number " + value.dump() + " is too large");
    const long long number = value.get<long long>();
    if (number > kMaxTicks || number < -kMaxTicks) place.fail("number " + value.dump() + " is too large");
    return {number, 0};
  }
  if (!value.is_number_float()) place.fail("expected a number, got " + value.dump());
  std::optional<Decimal> decimal = exact_decimal(value.get<double>());
  if (!decimal)
    place.fail("number " + value.dump() + " is out of range or has more than " + std::to_string(kMaxDecimals) +
               " decimals");
  return *decimal;
}

Decimal require_decimal(const nlohmann::json& object, const std::string& key, const JsonPlace& place) {
  return as_decimal(require(object, key, place), place.field(key));
}

long long decimal_ticks(const Decimal& value, int decimals, const JsonPlace& place) {
  std::optional<long long> ticks = to_ticks(value, decimals);
  if (!ticks)
    place.fail("number " + format_ticks(value.digits, value.decimals) + " is too large at " +
               std::to_string(decimals) + " decimals (at most " + std::to_string(kMaxTicks) + " units of the last decimal)");
  return *ticks;
}

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::numeric_limits<size_t>::max();
  const std::string folded = lower(word);
  for (const std::string& candidate : candidates) {
    size_t distance = edit_distance(folded, lower(candidate));
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  // A plausible typo: a few edits, and fewer than half the word.
  if (best_distance > 3 || best_distance * 2 > std::max(word.size(), best.size())) return "";
  return best;
}

void require_known_keys(const nlohmann::json& object, std::initializer_list<const char*> known,
                        const JsonPlace& place) {
  if (!object.is_object()) return;
  std::vector<std::string> names(known.begin(), known.end());
  for (const auto& item : object.items()) {
    if (std::find(names.begin(), names.end(), item.key()) != names.end()) continue;
    std::string nearest = nearest_name(item.key(), names);
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    place.field(item.key()).fail("unknown key" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
                                 "; the keys here are " + list);
  }
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
