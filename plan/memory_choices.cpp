// The runtime's view of a plan's memory choices (memory_choices.hpp).
#include "plan/memory_choices.hpp"

#include <algorithm>
#include <map>

#include "model/quantity.hpp"

namespace tessel {

namespace {

int stage_of(const Schedule& schedule, int block) { return schedule.placement.blocks[block].stage.value_or(0); }

// Per device, the starts of everything it runs (instances and recomputes),
// ascending; and each instance's start by (block, micro).
struct DeviceStarts {
  std::vector<std::vector<Time>> starts;
  std::map<std::pair<int, int>, Time> start_of;
};

DeviceStarts device_starts(const Schedule& schedule) {
  DeviceStarts index{std::vector<std::vector<Time>>(schedule.placement.ndevs), {}};
  for (const Instance& instance : schedule.instances) {
    index.start_of[{instance.block, instance.micro}] = instance.start;
    for (int device : schedule.placement.blocks[instance.block].devices) index.starts[device].push_back(instance.start);
  }
  for (const RecomputeRun& run : schedule.recomputes)
    for (int device : schedule.placement.blocks[run.block].devices) index.starts[device].push_back(run.start);
  for (std::vector<Time>& starts : index.starts) std::sort(starts.begin(), starts.end());
  return index;
}

// Whether the recompute of (forward, micro) is the last thing its device runs
// before the block that needs it starts: then recomputing inside that
// backward, as activation checkpointing does, runs the same timeline.
bool right_before_backward(const Schedule& schedule, const DeviceStarts& index, const RecomputeRun& run) {
  const Block& forward = schedule.placement.blocks[run.block];
  auto needed = index.start_of.find({forward.recompute->before, run.micro});
  if (needed == index.start_of.end()) return false;
  const Time end = run.start + forward.recompute->span;
  for (int device : forward.devices) {
    const std::vector<Time>& starts = index.starts[device];
    auto first = std::lower_bound(starts.begin(), starts.end(), end);
    if (first != starts.end() && *first < needed->second) return false;  // something runs between
  }
  return true;
}

nlohmann::json time_json(const Schedule& schedule, Time ticks) {
  return ticks_to_double(ticks, schedule.placement.time_decimals);
}

}  // namespace

std::vector<StageChoices> stage_choices(const Schedule& schedule, int stages) {
  std::vector<StageChoices> choices(stages);
  for (const RecomputeRun& run : schedule.recomputes) choices[stage_of(schedule, run.block)].recompute.push_back(run.micro);
  for (const Transfer& copy : schedule.transfers)
    if (copy.direction == TransferDirection::Out) choices[stage_of(schedule, copy.block)].offload.push_back(copy.micro);
  for (StageChoices& stage : choices) {
    std::sort(stage.recompute.begin(), stage.recompute.end());
    std::sort(stage.offload.begin(), stage.offload.end());
  }
  return choices;
}

nlohmann::json memory_choices_json(const Schedule& schedule, int stages) {
  const Placement& placement = schedule.placement;
  nlohmann::json per_stage = nlohmann::json::array();
  const std::vector<StageChoices> choices = stage_choices(schedule, stages);
  for (int s = 0; s < stages; ++s) {
    int rank = 0;
    for (const Block& block : placement.blocks)
      if (block.stage == s) rank = block.devices.front();
    per_stage.push_back({{"stage", s}, {"rank", rank}, {"recompute", choices[s].recompute},
                         {"offload", choices[s].offload}});
  }
  nlohmann::json runs = nlohmann::json::array();
  const DeviceStarts index = device_starts(schedule);
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& forward = placement.blocks[run.block];
    runs.push_back({{"stage", stage_of(schedule, run.block)}, {"rank", forward.devices.front()}, {"micro", run.micro},
                    {"choice", "recompute"}, {"start", time_json(schedule, run.start)},
                    {"end", time_json(schedule, run.start + forward.recompute->span)},
                    {"before", placement.blocks[forward.recompute->before].id},
                    {"right_before_backward", right_before_backward(schedule, index, run)}});
  }
  for (const Transfer& copy : schedule.transfers) {
    const Block& forward = placement.blocks[copy.block];
    const bool out = copy.direction == TransferDirection::Out;
    const Time span = out ? forward.offload->out : forward.offload->in;
    runs.push_back({{"stage", stage_of(schedule, copy.block)}, {"rank", forward.devices.front()}, {"micro", copy.micro},
                    {"choice", out ? "copy out" : "copy in"}, {"start", time_json(schedule, copy.start)},
                    {"end", time_json(schedule, copy.start + span)}, {"before", placement.blocks[forward.offload->before].id}});
  }
  return {{"format", kMemoryChoicesFormat}, {"nmicros", schedule.nmicros}, {"stages", per_stage}, {"runs", runs}};
}

Schedule compute_actions_only(const Schedule& schedule) {
  Schedule compute = schedule;
  compute.recomputes.clear();
  compute.transfers.clear();
  return compute;
}

}  // namespace tessel
