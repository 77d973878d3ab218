// The sidecar document: {"format": "tessel.pytorch-csv-sidecar/1",
// "schedule": a tessel.schedule/1}.
#include "model/formats/pytorch_sidecar.hpp"

#include <filesystem>

#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/schedule_json.hpp"

namespace tessel {

namespace {
const char* kSidecarFormat = "tessel.pytorch-csv-sidecar/1";
}

std::string sidecar_path(const std::string& table_path) { return table_path + ".tessel.json"; }

nlohmann::json sidecar_json(const Schedule& schedule) {
  return {{"format", kSidecarFormat}, {"schedule", schedule_to_json(schedule)}};
}

std::optional<Schedule> read_sidecar(const std::string& table_path) {
  std::string path = sidecar_path(table_path);
  if (!std::filesystem::exists(path)) return std::nullopt;
  nlohmann::json document = read_json_file(path);
  if (!document.is_object() || !document.contains("format") || document["format"] != kSidecarFormat)
    throw InputError(path, "format", std::string("expected \"") + kSidecarFormat + "\"");
  if (!document.contains("schedule")) throw InputError(path, "schedule", "missing");
  return schedule_from_json(document["schedule"], JsonPlace{path, ""});
}

}  // namespace tessel
