// Two mirrored chains crossing the same devices, their period decided by
// dynamic programming (docs/algorithms.md, "Crossed chains").
//
// xshape runs one chain out over devices 0 .. D-1 and back, and a second one
// out over D-1 .. 0 and back (bidirectional pipelines such as Chimera). Pair
// each chain's i-th block with its i-th from the end (a *level*, as in
// chain_period.hpp). Device d then holds level d of the first chain and level
// D-1-d of the second: walking the devices in order, the first chain goes
// inward while the second goes outward. A device's circle and memory see
// only its two levels, so the program walks the devices carrying, per chain,
// the phase of the level's first block and its *hold* (the time from the
// level's first block to its second; the second's phase follows). Both
// holds are needed: the device's memory is the two levels' micro-batches in
// flight together, and that depends on both holds and all four phases.
//
// The walk is a reachability program, and it stays small because of two
// monotonicities. Inward, a level's hold may be anything up to the outer
// hold less the two least gaps (a longer gap only shortens it), so per
// (phases, outer hold of the other chain) only the LARGEST reachable hold
// of the inward chain matters. Outward, the other chain's hold may be
// anything from the inner hold plus its two least gaps, so per (phases,
// hold of the inward chain) only the SMALLEST reachable hold matters. A
// device's rules (four arcs apart on its circle; memory under its limit)
// are checked on the full state. Each device costs O(P^3 H) for holds up
// to H = (limit / amount) P, and the answer is exact: every repetend of the
// period is some walk, and every walk is a repetend.
//
// The program answers only where the bound on micro-batches in flight
// cannot bind (the memory limits bound every hold well below it); then the
// period question is exactly the modulo encoding's. It finds a repetend of
// the period, not the one of least latency (the search asks the solver for
// that, as for one chain).
#pragma once

#include <optional>
#include <vector>

#include "model/placement.hpp"
#include "sat/deadline.hpp"
#include "solver/period/chain_period.hpp"

namespace tessel {

struct CrossedChains {
  // Placement blocks along each chain, 2L each; the first chain's level t
  // and the second's level L-1-t share stage t's device.
  std::vector<int> first, second;
  std::vector<Time> first_gaps, second_gaps;  // least gaps blocks[i] -> blocks[i + 1]: span + delay
  struct Stage {
    int device = 0;
    long long limit = 0;                      // the device's memory limit
    long long first_amount = 0, second_amount = 0;  // each level's memory per micro-batch, > 0
  };
  std::vector<Stage> stages;
};

// The crossed chains when `placement` is two of them (every level's two
// blocks on one device, allocating and freeing one positive amount; every
// device one level of each, in opposite directions; a memory limit on
// every such device) and `max_in_flight` cannot bind; nullopt otherwise.
std::optional<CrossedChains> crossed_chains(const Placement& placement, const std::vector<long long>& memory_limit,
                                            int max_in_flight);

// Whether deciding `period` takes about `seconds` at most, at
// `steps_per_second` of the program's counted steps (a coarse estimate,
// within a factor of a few).
bool crossed_chains_affordable(const CrossedChains& chains, int period, double seconds, double steps_per_second);

// Is there a repetend of this period, and one (not the least latency).
ChainPeriod decide_crossed_period(const Placement& placement, const CrossedChains& chains, int period,
                                  const Deadline& deadline);

}  // namespace tessel
