// The independent verifier (docs/algorithms.md, "The verifier"): the
// judge of every schedule tessel produces or imports. It reads the schedule
// JSON itself and shares no code with model/ or solver/, so that a bug there
// cannot hide a bug here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "verify/verdict.hpp"

namespace tessel::verify {

// Checks a parsed tessel.schedule/1 document. `memory_override` replaces the
// file's limit (one value per device, in the file's memory ticks; to give
// other decimals, replace the document's "memory_limit" instead). Throws FormatError on unreadable input.
Report check_schedule(const nlohmann::json& document,
                      const std::optional<std::vector<long long>>& memory_override = std::nullopt);

nlohmann::json report_to_json(const Report& report);
std::string report_to_text(const Report& report);

}  // namespace tessel::verify
