// The sidecar of a PyTorch action table: `FILE.tessel.json` beside
// `FILE`, holding the schedule the table was written from. PyTorch's CSV has
// no spans or memory; export writes the sidecar and import reads the table's
// order with the sidecar's placement (classic/table_with_placement.hpp), so
// a round trip keeps the real costs instead of unit ones.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

std::string sidecar_path(const std::string& table_path);

nlohmann::json sidecar_json(const Schedule& schedule);

// The sidecar's schedule, or nullopt when there is no sidecar; an unreadable
// one is an InputError naming it.
std::optional<Schedule> read_sidecar(const std::string& table_path);

}  // namespace tessel
