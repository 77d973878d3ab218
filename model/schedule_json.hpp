// The `tessel.schedule/1` file format: reading with full validation, writing.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/json_file.hpp"
#include "model/schedule.hpp"

namespace tessel {

inline constexpr const char* kScheduleFormat = "tessel.schedule/1";

// Validates the embedded placement, the memory limit, nmicros, every instance
// (known block, micro in [0, nmicros), start >= 0) and the repetend's fields.
// It does NOT check that the schedule is valid: that is verify/'s job.
Schedule schedule_from_json(const nlohmann::json& document, const JsonPlace& place);
Schedule read_schedule_file(const std::string& path);

nlohmann::json schedule_to_json(const Schedule& schedule);
// The file's text, as schedule_to_json(schedule).dump(1) plus a newline,
// printed without building one JSON object per instance.
std::string schedule_json_text(const Schedule& schedule);
void write_schedule_file(const std::string& path, const Schedule& schedule);

}  // namespace tessel
