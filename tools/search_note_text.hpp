// What solve() noted after the strategy answered (solver/types/search_types.hpp,
// SearchNote) in words: one text for `tessel search`'s stderr and JSON
// ("message"), `tessel bench`, the Python module's Result.message and, passed
// in as a parameter, `tessel plan`'s messages. solver/ hands back the kind and
// its numbers; what they are called is decided here, once.
#pragma once

#include <string>

#include "solver/types/search_types.hpp"

namespace tessel {

// One note's own words, without what it wraps.
std::string search_note_text(const SearchNote& note);

// The report's message: the strategy's, then each note in order, a note
// that leads (`headline`) or wraps taking what was said before into its
// parenthesis.
std::string search_message_text(const SearchReport& report);

}  // namespace tessel
