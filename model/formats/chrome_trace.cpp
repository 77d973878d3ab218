// Writing the Trace Event Format: "M" events name the tracks (one thread per
// device), "X" events are the instances (a tensor-parallel instance appears
// on each of its devices).
#include "model/formats/chrome_trace.hpp"

#include <cctype>

namespace tessel {

std::string kind_letter(const Block& block) {
  if (block.kind == "forward") return "F";
  if (block.kind == "backward") return "B";
  if (block.kind == "backward_input") return "I";
  if (block.kind == "backward_weight") return "W";
  if (block.kind.empty()) return "?";
  return std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(block.kind[0]))));
}

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
  for (const Instance& instance : schedule.instances) {
    const Block& block = placement.blocks[instance.block];
    for (int device : block.devices)
      events.push_back({{"name", kind_letter(block) + std::to_string(instance.micro)},
                        {"cat", block.kind},
                        {"ph", "X"},
                        {"ts", instance.start},
                        {"dur", block.span},
                        {"pid", 0},
                        {"tid", device},
                        {"args", {{"micro", instance.micro}, {"block", block.id}, {"memory", block.memory}}}});
  }
  nlohmann::json other = {{"generator", "tessel export"}, {"nmicros", schedule.nmicros}, {"unit", "1 us = 1 step"}};
  // The repetend as the schedule file claims it, so that a window of k > 1
  // micro-batches can be found on the tracks.
  if (schedule.repetend)
    other["repetend"] = {{"start", schedule.repetend->start},
                         {"end", schedule.repetend->end},
                         {"period", schedule.repetend->period},
                         {"micros_per_period", schedule.repetend->micros_per_period}};
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}, {"otherData", other}};
}

}  // namespace tessel
