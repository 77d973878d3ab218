// Parsing with a depth bound: one pass over the text counts the nesting
// outside strings before anything is built, so the bound holds before any
// deep value exists. (nlohmann's parser with a callback would do it too, but
// at the end of every object it scans the enclosing array for discarded
// values: quadratic in the instances, minutes for two million.)
#include "verify/json_text.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "verify/numbers.hpp"
#include "verify/verdict.hpp"

namespace tessel::verify {

namespace {

struct TooDeep {};

void check_depth(const std::string& text) {
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
    else if ((c == '[' || c == '{') && ++depth > kMaxJsonDepth) throw TooDeep{};
    else if (c == ']' || c == '}') --depth;
  }
}

// A number literal reduced to sign, significant digits and exponent, so
// that "1.50e1" and "15" compare equal; an exponent beyond any double
// saturates. Zero has no digits.
struct Digits {
  bool negative = false;
  std::string significant;
  long long exponent = 0;
  bool operator==(const Digits& other) const {
    return significant == other.significant &&
           (significant.empty() || (negative == other.negative && exponent == other.exponent));
  }
};

Digits digits_of(const std::string& text) {
  Digits result;
  size_t i = 0;
  if (i < text.size() && text[i] == '-') result.negative = true, ++i;
  long long fraction = 0;
  bool point = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      point = true;
      continue;
    }
    if (point) ++fraction;
    if (!result.significant.empty() || text[i] != '0') result.significant += text[i];
  }
  long long exponent = 0;
  bool minus = false;
  if (i < text.size()) ++i;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) minus = text[i] == '-', ++i;
  for (; i < text.size(); ++i) exponent = std::min(exponent * 10 + (text[i] - '0'), 1000000LL);
  result.exponent = (minus ? -exponent : exponent) - fraction;
  while (!result.significant.empty() && result.significant.back() == '0')
    result.significant.pop_back(), ++result.exponent;
  return result;
}

// The document builder nlohmann's parse uses, which also sees each number's
// text: a literal the double does not hold as written (0.99999999999999999
// parses to 1) stops the parse, with its JSON path, rather than being judged
// by its rounding.
class ExactBuilder : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit ExactBuilder(nlohmann::json& root) : Base(root) {}

  std::string bad_literal;
  std::string bad_field;

  bool null() { return step(), Base::null(); }
  bool boolean(bool value) { return step(), Base::boolean(value); }
  bool number_integer(number_integer_t value) { return step(), Base::number_integer(value); }
  bool number_unsigned(number_unsigned_t value) { return step(), Base::number_unsigned(value); }
  bool string(string_t& value) { return step(), Base::string(value); }
  bool binary(binary_t& value) { return step(), Base::binary(value); }
  bool number_float(number_float_t value, const string_t& text) {
    step();
    if (holds(value, text)) return Base::number_float(value, text);
    bad_literal = text;
    bad_field = field();
    return false;
  }
  bool start_object(std::size_t n) { return step(), path.push_back({false, 0, ""}), Base::start_object(n); }
  bool key(string_t& name) { return path.back().key = name, Base::key(name); }
  bool end_object() { return path.pop_back(), Base::end_object(); }
  bool start_array(std::size_t n) { return step(), path.push_back({true, 0, ""}), Base::start_array(n); }
  bool end_array() { return path.pop_back(), Base::end_array(); }

 private:
  struct Step {
    bool array;
    size_t seen;
    std::string key;
  };
  std::vector<Step> path;

  void step() {
    if (!path.empty() && path.back().array) ++path.back().seen;
  }
  // The literal is what a writer prints for the double: its shortest text,
  // or printf's %.17g (0.10000000000000001 for 0.1).
  static bool holds(double value, const std::string& text) {
    char shortest[64], full[64];
    auto [end, error] = std::to_chars(shortest, shortest + sizeof shortest, value, std::chars_format::scientific);
    auto [full_end, full_error] = std::to_chars(full, full + sizeof full, value, std::chars_format::scientific, 16);
    const Digits written = digits_of(text);
    return (error == std::errc() && written == digits_of(std::string(shortest, end))) ||
           (full_error == std::errc() && written == digits_of(std::string(full, full_end)));
  }
  std::string field() const {
    std::string text;
    for (const Step& level : path) {
      if (level.array) text += "[" + std::to_string(level.seen - 1) + "]";
      else text += (text.empty() ? "" : ".") + short_text(level.key);
    }
    return text;
  }
};

nlohmann::json build(const std::string& text) {
  nlohmann::json document;
  ExactBuilder builder(document);
  const bool complete = nlohmann::json::sax_parse(text, &builder);
  if (!builder.bad_literal.empty())
    throw FormatError{builder.bad_field, "number " + short_text(builder.bad_literal) +
                                             " has more digits than a double holds as written; write at most "
                                             "15 significant digits and " + std::to_string(kMaxDecimals) + " decimals"};
  if (!complete) throw FormatError{"", "not valid JSON"};
  return document;
}

}  // namespace

std::string short_text(const std::string& text) {
  if (text.size() <= 60) return text;
  return text.substr(0, 40) + "... (" + std::to_string(text.size()) + " characters)";
}

nlohmann::json parse_document(const std::string& text) {
  try {
    check_depth(text);
    return build(text);
  } catch (const TooDeep&) {
    throw FormatError{"", "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                              " levels; no tessel format needs that"};
  } catch (const nlohmann::json::parse_error& error) {
    throw FormatError{"", std::string("not valid JSON: ") + error.what()};
  } catch (const nlohmann::json::exception& error) {
    // out_of_range.406: a number such as 1e400 that no double holds.
    throw FormatError{"", std::string("not readable JSON: ") + error.what()};
  }
}

}  // namespace tessel::verify
