// What every fuzz target shares: the input as text, and the rule that a
// reader may refuse an input only with the error a user sees as exit 2
// (InputError) or exit 1 (a deadlocked order). Any other exception escapes,
// and libFuzzer reports it as a crash, like a sanitizer report or a hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace tessel::fuzz
