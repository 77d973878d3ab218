// JSON files and typed fields, with errors naming file and field.
#include "model/json_file.hpp"
#include "model/output_file.hpp"
#include "model/process_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <new>
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

// nlohmann's own document builder, which also sees each number's text:
// a number the double does not hold as written (0.99999999999999999 reads
// as 1) stops the parse, and the JSON path of the value is kept for the
// message. Every number tessel reads is then exactly what the file says.
class ExactNumberBuilder : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit ExactNumberBuilder(nlohmann::json& root) : Base(root) {}

  std::string bad_number;  // the literal that stopped the parse
  std::string bad_place;   // and its JSON path

  bool null() { return next(), Base::null(); }
  bool boolean(bool value) { return next(), Base::boolean(value); }
  bool number_integer(number_integer_t value) { return next(), Base::number_integer(value); }
  bool number_unsigned(number_unsigned_t value) { return next(), Base::number_unsigned(value); }
  bool string(string_t& value) { return next(), Base::string(value); }
  bool binary(binary_t& value) { return next(), Base::binary(value); }
  bool number_float(number_float_t value, const string_t& text) {
    next();
    if (double_is_literal(value, text)) return Base::number_float(value, text);
    bad_number = text;
    bad_place = place();
    return false;
  }
  bool start_object(std::size_t size) { return next(), levels.push_back({false, 0, ""}), Base::start_object(size); }
  bool key(string_t& name) { return levels.back().key = name, Base::key(name); }
  bool end_object() { return levels.pop_back(), Base::end_object(); }
  bool start_array(std::size_t size) { return next(), levels.push_back({true, 0, ""}), Base::start_array(size); }
  bool end_array() { return levels.pop_back(), Base::end_array(); }

 private:
  struct Level {
    bool array;
    size_t count;  // values seen in an array
    std::string key;
  };
  std::vector<Level> levels;

  void next() {
    if (!levels.empty() && levels.back().array) ++levels.back().count;
  }
  std::string place() const {
    std::string path;
    for (const Level& level : levels) {
      if (level.array) path += "[" + std::to_string(level.count - 1) + "]";
      else path += (path.empty() ? "" : ".") + shown_token(level.key);
    }
    return path;
  }
};

nlohmann::json parse_exact(const std::string& text, const std::string& path) {
  nlohmann::json document;
  ExactNumberBuilder builder(document);
  const bool complete = nlohmann::json::sax_parse(text, &builder);
  if (!builder.bad_number.empty()) {
    const double read_as = std::strtod(builder.bad_number.c_str(), nullptr);
    std::optional<Decimal> near = exact_decimal(read_as);
    throw InputError(path, builder.bad_place,
                     "number " + shown_token(builder.bad_number) + " has more digits than tessel reads exactly" +
                         (near ? " (a double would make it " + format_ticks(near->digits, near->decimals) + ")" : "") +
                         "; write at most 15 significant digits and " + std::to_string(kMaxDecimals) + " decimals");
  }
  if (!complete) throw InputError(path, "", "not valid JSON");
  return document;
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& path) {
  check_nesting(text, path);
  try {
    return parse_exact(text, path);
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
  write_output_file(path, value.dump(1) + "\n");
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
    place.fail("integer " + shown_value(value) + " is too large (at most 2^63 - 1)");
  if (value.is_number_integer()) return value.get<long long>();
  if (value.is_number_float()) {
    // Range first: converting a double outside long long is undefined.
    const double number = value.get<double>();
    if (!(number >= -0x1p63 && number < 0x1p63))
      place.fail("integer " + shown_value(value) + " is out of range (|n| < 2^63)");
    if (number == std::trunc(number)) return static_cast<long long>(number);
  }
  place.fail("expected an integer, got " + shown_value(value));
}

Decimal as_decimal(const nlohmann::json& value, const JsonPlace& place) {
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(kMaxTicks))
      place.fail("number " + shown_value(value) + " is too large");
    const long long number = value.get<long long>();
    if (number > kMaxTicks || number < -kMaxTicks) place.fail("number " + shown_value(value) + " is too large");
    return {number, 0};
  }
  if (!value.is_number_float()) place.fail("expected a number, got " + shown_value(value));
  std::optional<Decimal> decimal = exact_decimal(value.get<double>());
  if (!decimal)
    place.fail("number " + shown_value(value) + " is out of range or has more than " + std::to_string(kMaxDecimals) +
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
  if (!value.is_string()) place.field(key).fail("expected a string, got " + shown_value(value));
  return value.get<std::string>();
}

const nlohmann::json& require_array(const nlohmann::json& object, const std::string& key,
                                    const JsonPlace& place) {
  const nlohmann::json& value = require(object, key, place);
  if (!value.is_array()) place.field(key).fail("expected a list, got " + shown_value(value));
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

nlohmann::json time_to_json(Time ticks, int decimals) {
  if (decimals == 0) return ticks;
  return ticks_to_double(ticks, decimals);
}

void require_address_space(size_t bytes) {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  const long long used = process_memory().address_space;
  if (used <= 0) return;  // /proc not readable: no check
  if (static_cast<unsigned long long>(used) + bytes > limit.rlim_cur) throw std::bad_alloc();
}

nlohmann::json seconds_to_json(double seconds) {
  if (!std::isfinite(seconds)) return nullptr;
  return std::round(seconds * 1e6) / 1e6;
}

}  // namespace tessel
