// Which micro-batches of which stage a plan's schedule recomputes or
// offloads, in the form a runtime reads (docs/formats.md,
// "tessel.memory_choices/1"): per stage the micro-batches, and per run its
// times and whether it runs right before the backward that needs it -- the
// one place activation checkpointing (torch.utils.checkpoint) recomputes.
// PyTorch's action table has no recompute or copy action, so a plan writes
// its CSVs with the compute actions only and this file beside them.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "model/schedule.hpp"

namespace tessel {

inline constexpr const char* kMemoryChoicesFormat = "tessel.memory_choices/1";

// Per stage (index = stage number): the micro-batches recomputed and offloaded, ascending.
struct StageChoices {
  std::vector<int> recompute;
  std::vector<int> offload;
};

// Requires every forward block to carry its stage (a plan's placement).
std::vector<StageChoices> stage_choices(const Schedule& schedule, int stages);

// The tessel.memory_choices/1 document of a plan's schedule.
nlohmann::json memory_choices_json(const Schedule& schedule, int stages);

// The same schedule without its recomputes and copies (every forward
// marked as keeping): the compute order PyTorch's table can hold.
Schedule compute_actions_only(const Schedule& schedule);

}  // namespace tessel
