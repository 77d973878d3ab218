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

}  // namespace tessel
