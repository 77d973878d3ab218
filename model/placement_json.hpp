// The `tessel.placement/1` file format: reading with full validation, writing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/json_file.hpp"
#include "model/placement.hpp"

namespace tessel {

inline constexpr const char* kPlacementFormat = "tessel.placement/1";

// Validates everything the format requires (docs/formats.md: known keys only,
// format, types, unique ids, kind one of five, span > 0, devices in range,
// edges naming known blocks with delays >= 0, no cycle) and throws InputError
// naming the place of the first problem.
Placement placement_from_json(const nlohmann::json& document, const JsonPlace& place);
Placement read_placement_file(const std::string& path);

nlohmann::json placement_to_json(const Placement& placement);

// A tick count as the file writes it: an integer at 0 decimals, else the
// decimal number (3.712). Used for times and memory amounts alike.
nlohmann::json time_to_json(Time ticks, int decimals);

}  // namespace tessel
