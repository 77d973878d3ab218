// The verifier's check that a document holds only the keys its format
// defines: a misspelt key ("memroy", "edge") would otherwise be read as
// absent and change what is judged. verify/ shares no code with model/, so
// it keeps its own copy of the rule (docs/formats.md: unknown keys are
// errors naming the nearest known key).
#pragma once

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace tessel::verify {

// Throws FormatError at `path`.key for the first key of `object` that is
// not in `known`, naming the nearest known key when one is a plausible typo.
void require_known_keys(const nlohmann::json& object, std::initializer_list<const char*> known,
                        const std::string& path);

}  // namespace tessel::verify
