// The schedule (docs/formats.md, "tessel.schedule/1"): a start step for every (block, micro-batch)
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

// Instances declared to run together as one unit on their device: an
// overlapped forward and backward of two micro-batches (DualPipe's trick,
// PyTorch's OVERLAP_F_B cell), or the full backward of a split stage run as
// its input and weight parts at once. All members start at the unit's start
// and count as finished at start + span for what depends on them, whatever
// their own spans; the device is busy for [start, start + span). Memory is as
// usual (each member's change at the start). docs/formats.md, "fused".
struct FusedMember {
  int block = 0;  // index into placement.blocks
  int micro = 0;
  bool operator==(const FusedMember&) const = default;
};

struct FusedUnit {
  std::vector<FusedMember> members;  // at least two, distinct, on the same devices
  Time span = 0;                     // ticks, >= 1
};

// The memory choices of a schedule (docs/formats.md, "Memory traded for
// time"): a forward instance (block, micro) is recomputed when a
// RecomputeRun names it and offloaded when its two Transfers do; the file
// also marks the forward instance itself.
struct RecomputeRun {
  int block = 0;  // the forward block, index into placement.blocks
  int micro = 0;
  Time start = 0;  // runs for the block's recompute span on its devices
};

enum class TransferDirection { Out, In };

struct Transfer {
  int block = 0;  // the forward block whose activation moves
  int micro = 0;
  TransferDirection direction = TransferDirection::Out;
  Time start = 0;  // on each of the block's devices' copy channel
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
  std::vector<FusedUnit> fused;  // empty for schedules without fused units
  std::vector<RecomputeRun> recomputes;  // empty when nothing is recomputed
  std::vector<Transfer> transfers;       // empty when nothing is offloaded
  nlohmann::json search;  // free object (strategy, backend, ...) or null
  nlohmann::json meta;    // free object or null
};

// A schedule of `placement` with no instances yet; the limit is remembered
// as uniform when every device has the same one.
Schedule empty_schedule(const Placement& placement, const std::vector<Memory>& memory_limit, int nmicros);

// When each instance stops occupying its device and its dependants may
// start: start + span, or the end of its fused unit.
std::vector<Time> instance_ends(const Schedule& schedule);

// Largest end over the instances, recompute runs and transfers (0 for none).
Time makespan(const Schedule& schedule);

// Orders instances by (start, first device, block, micro): the canonical order
// used when writing files, so that equal schedules give equal files.
void sort_instances(Schedule& schedule);

}  // namespace tessel
