// Reading and writing `tessel.schedule/1`.
#include "model/schedule_json.hpp"

#include <map>

#include "model/placement_json.hpp"

namespace tessel {

namespace {

void read_memory_limit(const nlohmann::json& document, Schedule& schedule, const JsonPlace& place) {
  auto it = document.find("memory_limit");
  if (it == document.end() || it->is_null()) return;  // no limit
  JsonPlace at = place.field("memory_limit");
  if (it->is_array()) {
    if (static_cast<int>(it->size()) != schedule.placement.ndevs)
      at.fail("a per-device limit needs one entry per device (" +
              std::to_string(schedule.placement.ndevs) + "), got " + std::to_string(it->size()));
    for (size_t d = 0; d < it->size(); ++d) schedule.memory_limit.push_back(as_integer((*it)[d], at.index(d)));
    schedule.uniform_limit = false;
    return;
  }
  schedule.memory_limit.assign(schedule.placement.ndevs, as_integer(*it, at));
  schedule.uniform_limit = true;
}

Repetend read_repetend(const nlohmann::json& value, const JsonPlace& place) {
  // Read as long long and range-checked before narrowing, so that a huge
  // number is an error rather than a wrapped int.
  auto step_field = [&](const std::string& key, long long smallest) {
    long long number = require_integer(value, key, place);
    if (number < smallest || number > 1000000000)
      place.field(key).fail("must be in [" + std::to_string(smallest) + ", 1e9], got " + std::to_string(number));
    return static_cast<int>(number);
  };
  Repetend repetend;
  repetend.start = step_field("start", 0);
  repetend.end = step_field("end", 0);
  repetend.period = step_field("period", 1);
  repetend.micros_per_period = value.contains("micros_per_period") ? step_field("micros_per_period", 1) : 1;
  if (repetend.end < repetend.start) place.field("end").fail("must be >= start");
  return repetend;
}

}  // namespace

Schedule schedule_from_json(const nlohmann::json& document, const JsonPlace& place) {
  if (!document.is_object()) place.fail("expected a schedule object");
  require_format(document, kScheduleFormat, place);
  Schedule schedule;
  schedule.placement = placement_from_json(require(document, "placement", place), place.field("placement"));
  read_memory_limit(document, schedule, place);
  long long nmicros = require_integer(document, "nmicros", place);
  if (nmicros < 0 || nmicros > 100000000) place.field("nmicros").fail("must be in [0, 1e8]");
  schedule.nmicros = static_cast<int>(nmicros);

  std::map<std::string, int> index;
  for (size_t i = 0; i < schedule.placement.blocks.size(); ++i)
    index[schedule.placement.blocks[i].id] = static_cast<int>(i);
  const nlohmann::json& instances = require_array(document, "instances", place);
  schedule.instances.reserve(instances.size());
  for (size_t i = 0; i < instances.size(); ++i) {
    JsonPlace at = place.field("instances").index(i);
    std::string block = require_string(instances[i], "block", at);
    auto found = index.find(block);
    if (found == index.end()) at.field("block").fail("unknown block '" + block + "'");
    long long micro = require_integer(instances[i], "micro", at);
    if (micro < 0 || micro >= nmicros)
      at.field("micro").fail("micro-batch " + std::to_string(micro) + " is outside [0, " +
                             std::to_string(nmicros) + ")");
    long long start = require_integer(instances[i], "start", at);
    if (start < 0) at.field("start").fail("start must be >= 0, got " + std::to_string(start));
    if (start > 1000000000) at.field("start").fail("start is unreasonably large");
    schedule.instances.push_back({found->second, static_cast<int>(micro), static_cast<int>(start)});
  }

  if (document.contains("repetend") && !document["repetend"].is_null())
    schedule.repetend = read_repetend(document["repetend"], place.field("repetend"));
  if (document.contains("search")) schedule.search = document["search"];
  if (document.contains("meta")) schedule.meta = document["meta"];
  return schedule;
}

Schedule read_schedule_file(const std::string& path) {
  return schedule_from_json(read_json_file(path), JsonPlace{path, ""});
}

nlohmann::json schedule_to_json(const Schedule& schedule) {
  nlohmann::json document = {{"format", kScheduleFormat},
                             {"placement", placement_to_json(schedule.placement)}};
  if (schedule.memory_limit.empty())
    document["memory_limit"] = nullptr;
  else if (schedule.uniform_limit)
    document["memory_limit"] = schedule.memory_limit.front();
  else
    document["memory_limit"] = schedule.memory_limit;
  document["nmicros"] = schedule.nmicros;
  nlohmann::json instances = nlohmann::json::array();
  for (const Instance& instance : schedule.instances)
    instances.push_back({{"block", schedule.placement.blocks[instance.block].id},
                         {"micro", instance.micro},
                         {"start", instance.start}});
  document["instances"] = std::move(instances);
  if (schedule.repetend)
    document["repetend"] = {{"start", schedule.repetend->start},
                            {"end", schedule.repetend->end},
                            {"period", schedule.repetend->period},
                            {"micros_per_period", schedule.repetend->micros_per_period}};
  if (!schedule.search.is_null()) document["search"] = schedule.search;
  if (!schedule.meta.is_null()) document["meta"] = schedule.meta;
  return document;
}

void write_schedule_file(const std::string& path, const Schedule& schedule) {
  write_json_file(path, schedule_to_json(schedule));
}

}  // namespace tessel
