// What the micro-batches in flight hold in the steady state of a modulo
// schedule (docs/algorithms.md, "The repetend as a modulo schedule"), as the offset part of every
// device's memory bound: shared by the unit-step modulo encoding and the
// order-based one, which differ only in how they add the blocks started
// inside the window.
//
// At the start of a window device d holds held = -sum_b mem(b) q(b) (the
// memory deltas of one micro-batch sum to zero, so the rest cancels). A
// device's allocations and frees usually pair up: a block f that allocates
// m and a later block b (a descendant of f) that frees it contribute
// m (q(b) - q(f)) >= 0, the micro-batches started between them. With the
// deltas split into such pairs, held is a sum of non-negative terms, so
// held <= M bounds each gap by M / m (a binary-clause difference) and every
// sum built on it is cut at about M. Devices whose deltas do not split so
// (an allocation freed by no descendant on the device) keep the signed sum,
// through one integer per device when its range is small.
#pragma once

#include <optional>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"

namespace tessel {

struct MemoryPair {
  size_t allocates;
  size_t frees;
  long long amount;
};

// A pair and the integer holding q(frees) - q(allocates) (none when the
// limit forces the gap to 0).
struct MemoryGap {
  MemoryPair pair;
  std::optional<IntVar> gap;
};

struct HeldMemory {
  bool impossible = false;  // the limit is below what the device must hold
  LinearSum held;           // what every phase's sum starts from
  std::vector<MemoryGap> gaps;
};

// `blocks`: the blocks on `device` whose memory delta is not zero. Adds the
// definitions of the gaps (and of a signed `held` integer) to the backend;
// the caller adds the bounds of the phases.
HeldMemory encode_held_memory(Backend& backend, const Placement& placement, const std::vector<size_t>& blocks,
                              const std::vector<IntVar>& quotients, int max_in_flight, long long limit);

// The same for one device of a steady-state encoding, its blocks found here:
// nullopt when the device needs no phase bounds (no block changes its
// memory, or its limit cannot be met, and then the empty clause is added: the
// question is unsatisfiable).
struct DeviceMemory {
  std::vector<size_t> blocks;  // on the device, memory delta not zero
  HeldMemory held;
};
std::optional<DeviceMemory> encode_device_memory(Backend& backend, const Placement& placement, int device,
                                                 const std::vector<IntVar>& quotients, int max_in_flight,
                                                 long long limit);

}  // namespace tessel
