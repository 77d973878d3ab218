// The schedule (SPEC section 1): a start step for every (block, micro-batch)
// instance, the memory limit it was built for, and optionally the repetend
// window that repeats in its steady state.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/placement.hpp"

namespace tessel {

struct Instance {
  int block = 0;   // index into placement.blocks
  int micro = 0;
  Time start = 0;  // ticks, like the placement's spans
};

// Times [start, end) form the window that repeats every `period` while the
// micro-batch index advances by `micros_per_period`.
struct Repetend {
  Time start = 0;
  Time end = 0;
  Time period = 0;
  int micros_per_period = 1;
};

struct Schedule {
  Placement placement;
  // One limit per device; empty = no limit. `uniform_limit` remembers whether
  // the file gave one number, so that writing gives back the same shape.
  std::vector<Memory> memory_limit;  // ticks of the placement's memory unit
  bool uniform_limit = true;
  int nmicros = 0;
  std::vector<Instance> instances;
  std::optional<Repetend> repetend;
  nlohmann::json search;  // free object (strategy, backend, ...) or null
  nlohmann::json meta;    // free object or null
};

// A schedule of `placement` with no instances yet; the limit is remembered
// as uniform when every device has the same one.
Schedule empty_schedule(const Placement& placement, const std::vector<Memory>& memory_limit, int nmicros);

// Largest start + span over the instances (0 for none).
Time makespan(const Schedule& schedule);

// Orders instances by (start, first device, block, micro): the canonical order
// used when writing files, so that equal schedules give equal files.
void sort_instances(Schedule& schedule);

}  // namespace tessel
