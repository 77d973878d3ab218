// Parsing with a depth bound: one pass over the text counts the nesting
// outside strings before anything is built, so the bound holds before any
// deep value exists. (nlohmann's parser with a callback would do it too, but
// at the end of every object it scans the enclosing array for discarded
// values: quadratic in the instances, minutes for two million.)
#include "verify/json_text.hpp"

#include "verify/verify.hpp"

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

}  // namespace

nlohmann::json parse_document(const std::string& text) {
  try {
    check_depth(text);
    return nlohmann::json::parse(text);
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
