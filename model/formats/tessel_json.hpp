// Import of the Python Tessel's saved schedules (`SchedPlan.save()` JSON).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

// Matches the file's blocks to `placement` by `gid` (the placement's block
// order) and keeps its repetend window. Throws InputError naming `file`.
Schedule import_tessel_json(const nlohmann::json& document, const Placement& placement,
                            const std::string& file);

}  // namespace tessel
