// Parsing with a depth bound: nlohmann's parser calls back at every value
// with the current depth, so the bound holds before any deep value exists.
#include "verify/json_text.hpp"

#include "verify/verify.hpp"

namespace tessel::verify {

namespace {

struct TooDeep {};

}  // namespace

nlohmann::json parse_document(const std::string& text) {
  auto bound = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, bound);
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
