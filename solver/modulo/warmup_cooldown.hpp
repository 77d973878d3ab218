// Warmup and cooldown around a modulo repetend (docs/algorithms.md, "Warmup and cooldown").
//
// The truncated modulo schedule (every micro-batch m of block b at
// m * P + s(b)) is always valid and is the fallback. The squeeze then packs
// the cooldown as early and the warmup as late as dependencies and each
// device's order allow, with the repetend window fixed; memory can rise when
// allocations move, so a squeezed variant is kept only if the schedule still
// fits for every number of micro-batches that can behave differently
// (K .. 2K+1 after unrolling; beyond that only more identical windows follow).
#pragma once

#include <string>

#include <vector>

#include "model/schedule.hpp"
#include "sat/deadline.hpp"

namespace tessel {

struct ModuloSolution {
  int period = 0;
  std::vector<int> starts;  // s(b), minimum 0
  int latency = 0;          // max s(b) + span(b)
  int in_flight = 0;        // K = ceil(latency / period)
};

// The first `micros` micro-batches of the modulo schedule (the search asks
// for K, the micro-batches in flight); when micros >= K the window
// [(K-1) P, K P) is marked as the repetend.
Schedule truncated_modulo_schedule(const Placement& placement, const std::vector<long long>& memory_limit,
                                   const ModuloSolution& solution, int micros);

// True when the schedule (nmicros = K, repetend marked) unrolled to every
// N in [K, 2K+1] fits devices, dependencies and memory; beyond 2K+1 only
// more identical windows follow, so then it fits for every N >= K.
// A spent `deadline` answers false (not shown to fit).
bool fits_for_any_length(const Schedule& schedule, const Deadline& deadline = Deadline::none());

struct WarmupCooldown {
  Schedule schedule;     // nmicros = K, repetend marked
  // False when even the truncated modulo schedule breaks the memory limit:
  // a micro-batch whose blocks free memory on a device before they allocate
  // it there (a freeing block with no allocating ancestor) counts below 0
  // in the steady state, which the warmup's fewer micro-batches lack. The
  // period stands; the schedule must not be used.
  bool valid = true;
  // With `valid` false: the deadline passed before the check above was
  // decided (thousands of devices), not a warmup shown to break memory.
  bool unchecked = false;
  bool squeezed = false; // false: the truncated modulo schedule
  Time truncated_steps = 0;  // warmup + cooldown ticks before the squeeze
};

// Past `deadline` the squeeze is skipped (the truncated schedule is valid
// already): on thousands of devices the checks of every length take long.
WarmupCooldown build_warmup_cooldown(const Placement& placement, const std::vector<long long>& memory_limit,
                                     const ModuloSolution& solution, const Deadline& deadline = Deadline::none());

// Why a warmup with `valid` false is not used, for the report's message.
std::string unusable_warmup_reason(const WarmupCooldown& built);

}  // namespace tessel
