// Writing the Trace Event Format: "M" events name the processes and their
// sort order, "X" events are the instances (a tensor-parallel instance
// appears on each of its devices) and the phases, "C" events the memory
// (model/formats/picture_tracks.hpp: the verifier's rule, the file's unit).
#include "model/formats/chrome_trace.hpp"

#include "model/formats/picture_tracks.hpp"
#include "model/placement_json.hpp"

namespace tessel {

namespace {

using nlohmann::json;

// The schedule's own process sits above the devices (pid = ndevs).
void name_tracks(json& events, const Placement& placement) {
  auto name = [&](int pid, const std::string& process, const std::string& thread, int order) {
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", pid}, {"args", {{"name", process}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", pid},
                      {"args", {{"sort_index", order}}}});
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", pid}, {"args", {{"name", thread}}}});
  };
  name(placement.ndevs, "schedule: " + placement.name, "phases", -1);
  for (int device = 0; device < placement.ndevs; ++device)
    name(device, "device " + std::to_string(device), "device " + std::to_string(device), device);
}

// A member of a fused unit lasts as long as its unit (nested on the track).
void add_instances(json& events, const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const std::vector<Time> ends = instance_ends(schedule);
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    const Block& block = placement.blocks[instance.block];
    for (int device : block.devices)
      events.push_back({{"name", block.id + ":" + std::to_string(instance.micro)},
                        {"cat", kind_name(block.kind)},
                        {"ph", "X"},
                        {"ts", time_to_json(instance.start, placement.time_decimals)},
                        {"dur", time_to_json(ends[i] - instance.start, placement.time_decimals)},
                        {"pid", device},
                        {"tid", device},
                        {"args", {{"micro", instance.micro}, {"block", block.id}, {"kind", kind_name(block.kind)},
                                  {"memory", time_to_json(block.memory, placement.memory_decimals)}}}});
  }
}

// Counters: the level at 0 and at every change, held to the makespan; the
// limit as a second counter (not a second series of the first: chrome://tracing
// would stack the two).
void add_memory(json& events, const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const Time end = makespan(schedule);
  const std::vector<std::vector<MemoryPoint>> curves = memory_curves(schedule);
  auto counter = [&](int device, const char* name, Time at, Memory value) {
    events.push_back({{"name", name}, {"ph", "C"}, {"ts", time_to_json(at, placement.time_decimals)}, {"pid", device},
                      {"args", {{name, time_to_json(value, placement.memory_decimals)}}}});
  };
  for (int device = 0; device < placement.ndevs; ++device) {
    for (const MemoryPoint& point : curves[device]) counter(device, "memory", point.at, point.level);
    if (curves[device].back().at < end) counter(device, "memory", end, curves[device].back().level);
    if (schedule.memory_limit.empty()) continue;
    counter(device, "memory limit", 0, schedule.memory_limit[device]);
    counter(device, "memory limit", end, schedule.memory_limit[device]);
  }
}

// Warmup, steady (the whole window) with a slice per copy inside, cooldown.
void add_phases(json& events, const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const int pid = placement.ndevs;
  auto slice = [&](const std::string& name, Time start, Time end, json args) {
    events.push_back({{"name", name}, {"cat", "phase"}, {"ph", "X"},
                      {"ts", time_to_json(start, placement.time_decimals)},
                      {"dur", time_to_json(end - start, placement.time_decimals)}, {"pid", pid}, {"tid", pid},
                      {"args", std::move(args)}});
  };
  const std::vector<Phase> phases = schedule_phases(schedule);
  Time steady_start = -1, steady_end = -1;
  for (const Phase& phase : phases)
    if (phase.kind == PhaseKind::Repetend) {
      if (steady_start < 0) steady_start = phase.start;
      steady_end = phase.end;
    }
  // The parent first, so that viewers nest the copies under it.
  if (steady_start >= 0)
    slice("steady", steady_start, steady_end,
          {{"period", time_to_json(schedule.repetend->period, placement.time_decimals)},
           {"micros_per_period", schedule.repetend->micros_per_period}});
  for (const Phase& phase : phases) {
    if (phase.kind != PhaseKind::Repetend) {
      slice(phase_name(phase.kind), phase.start, phase.end, json::object());
      continue;
    }
    slice("repetend copy " + std::to_string(phase.copy), phase.start, phase.end,
          {{"copy", phase.copy}});
  }
}

}  // namespace

json chrome_trace(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  json events = json::array();
  name_tracks(events, placement);
  add_phases(events, schedule);
  add_instances(events, schedule);
  add_memory(events, schedule);
  json other = {{"generator", "tessel export"}, {"nmicros", schedule.nmicros}, {"unit", "1 us = 1 step"}};
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
