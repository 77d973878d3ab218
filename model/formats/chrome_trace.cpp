// Writing the Trace Event Format: "M" events name the tracks (one thread per
// device), "X" events are the instances (a tensor-parallel instance appears
// on each of its devices).
#include "model/formats/chrome_trace.hpp"

#include <cctype>

#include "model/placement_json.hpp"

namespace tessel {

nlohmann::json chrome_trace(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0}, {"tid", 0},
                    {"args", {{"name", "tessel: " + placement.name}}}});
  for (int device = 0; device < placement.ndevs; ++device) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", device},
                      {"args", {{"name", "device " + std::to_string(device)}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 0}, {"tid", device},
                      {"args", {{"sort_index", device}}}});
  }
  // A member of a fused unit lasts as long as its unit (nested on the track).
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    const Block& block = placement.blocks[instance.block];
    for (int device : block.devices)
      events.push_back({{"name", std::string(1, kind_letter(block.kind)) + std::to_string(instance.micro)},
                        {"cat", kind_name(block.kind)},
                        {"ph", "X"},
                        {"ts", time_to_json(instance.start, placement.time_decimals)},
                        {"dur", time_to_json(ends[i] - instance.start, placement.time_decimals)},
                        {"pid", 0},
                        {"tid", device},
                        {"args", {{"micro", instance.micro}, {"block", block.id},
                                  {"memory", time_to_json(block.memory, placement.memory_decimals)}}}});
  }
  nlohmann::json other = {{"generator", "tessel export"}, {"nmicros", schedule.nmicros}, {"unit", "1 us = 1 step"}};
  // The repetend as the schedule file claims it, so that a window of k > 1
  // micro-batches can be found on the tracks.
  if (schedule.repetend)
    other["repetend"] = {{"start", time_to_json(schedule.repetend->start, placement.time_decimals)},
                         {"end", time_to_json(schedule.repetend->end, placement.time_decimals)},
                         {"period", time_to_json(schedule.repetend->period, placement.time_decimals)},
                         {"micros_per_period", schedule.repetend->micros_per_period}};
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}, {"otherData", other}};
}

}  // namespace tessel
