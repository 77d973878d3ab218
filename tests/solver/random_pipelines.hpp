// Random pipeline placements for the property tests of the search phases:
// chain, V and interleaved stage maps, with or without `stage` (the family
// replays see only the staged ones), decimal spans, edge delays of 0-1,
// static memory, and some stages on two devices (tensor-parallel), under a
// limit that fits one micro-batch at least. The same rules as
// cases/bench/random_pipelines.py, which runs 200 of them through the CLI.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel::testing {

enum class StageMap { Chain, V, Interleaved };

inline const char* stage_map_name(StageMap map) {
  switch (map) {
    case StageMap::Chain: return "chain";
    case StageMap::V: return "v";
    case StageMap::Interleaved: return "interleaved";
  }
  return "chain";
}

struct RandomPipeline {
  Placement placement;
  std::vector<Memory> limits;  // per device, static memory included (the request's)
  std::string description;
};

inline int device_of_stage(StageMap map, int stage, int ndevs) {
  switch (map) {
    case StageMap::Chain: return stage;
    case StageMap::V: return stage < ndevs ? stage : 2 * ndevs - 1 - stage;
    case StageMap::Interleaved: return stage % ndevs;
  }
  return stage;
}

// One pipeline of 2-3 devices; times in hundredths, memory in tenths.
inline RandomPipeline random_pipeline(std::mt19937& random, bool staged) {
  auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
  RandomPipeline made;
  Placement& placement = made.placement;
  const StageMap map = static_cast<StageMap>(pick(0, 2));
  placement.ndevs = pick(2, 3);
  placement.time_decimals = 2;
  placement.memory_decimals = 1;
  placement.name = std::string("random ") + stage_map_name(map) + (staged ? ", staged" : "");
  const int stages = map == StageMap::Chain ? placement.ndevs : 2 * placement.ndevs;
  const bool split = pick(0, 1) == 1;
  std::vector<int> forward(stages), backward(stages), weight(stages, -1);
  auto add = [&](const std::string& id, BlockKind kind, Time span, Memory memory, int stage, std::vector<int> devices) {
    Block block{id, kind, span, memory, staged ? std::optional<int>(stage) : std::nullopt, std::move(devices)};
    placement.blocks.push_back(block);
    return static_cast<int>(placement.blocks.size()) - 1;
  };
  for (int stage = 0; stage < stages; ++stage) {
    std::vector<int> devices = {device_of_stage(map, stage, placement.ndevs)};
    if (pick(0, 5) == 0) devices.push_back((devices[0] + 1) % placement.ndevs);  // tensor-parallel
    std::sort(devices.begin(), devices.end());
    const Time span = pick(50, 300);
    const std::string s = std::to_string(stage);
    forward[stage] = add("f" + s, BlockKind::Forward, span, 10, stage, devices);
    if (split) {
      backward[stage] = add("b" + s, BlockKind::BackwardInput, span + pick(0, 100), -5, stage, devices);
      weight[stage] = add("w" + s, BlockKind::BackwardWeight, pick(25, 150), -5, stage, devices);
    } else {
      backward[stage] = add("b" + s, BlockKind::Backward, 2 * span + pick(-20, 20), -10, stage, devices);
    }
  }
  auto delay = [&] { return pick(0, 3) == 0 ? Time{0} : Time{pick(0, 100)}; };
  for (int stage = 0; stage + 1 < stages; ++stage) {
    placement.edges.push_back({forward[stage], forward[stage + 1], delay()});
    placement.edges.push_back({backward[stage + 1], backward[stage], delay()});
  }
  placement.edges.push_back({forward[stages - 1], backward[stages - 1], 0});
  for (int stage = 0; stage < stages; ++stage)
    if (weight[stage] >= 0) placement.edges.push_back({backward[stage], weight[stage], 0});
  // Static memory on some devices; the limit fits one micro-batch and up to
  // three more stages' activations.
  std::vector<Memory> allocated(placement.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) allocated[device] += std::max<Memory>(0, block.memory);
  placement.static_memory.assign(placement.ndevs, 0);
  for (Memory& held : placement.static_memory) held = pick(0, 1) ? 10 * pick(0, 3) : 0;
  const Memory room = 10 * pick(0, 3);
  for (int device = 0; device < placement.ndevs; ++device)
    made.limits.push_back(placement.static_memory[device] + allocated[device] + room);
  made.description = placement.name + ", " + std::to_string(placement.ndevs) + " devices, " +
                     (split ? "split backward" : "whole backward") + ", room " + std::to_string(room / 10);
  return made;
}

}  // namespace tessel::testing
