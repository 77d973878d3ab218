// The two symmetry rules of the verifier's encoding of a period claim
// (docs/algorithms.md, "Certificates", "Symmetry rules of the verifier"),
// and the map that takes any repetend onto one obeying them. A rule may
// only be added to the CNF if every repetend of the claim's shape maps onto
// one that satisfies it; canonical_starts is that map, written out so that
// tests can apply it to the solver's schedules and find them in the CNF.
//
//   shift: a part of the window with no edge to the rest (a component) whose
//     memory frees on every device what it allocates there may move by
//     whole periods: no phase changes, each q(b) of the part moves by one,
//     and the device's memory by the part's balance, zero. So each such
//     part has a block starting before P.
//   order: the k copies of one component of the micro-batch are
//     interchangeable (no edge leaves a component; exclusivity and memory
//     see only which starts the copies take): the copies' first blocks
//     start in copy order.
#pragma once

#include <vector>

#include "certify/problem.hpp"

namespace tessel::certify {

// The components of one micro-batch (block indices; copy c of block b is
// window block c n + b), each with whether it may move by whole periods.
struct Component {
  std::vector<int> blocks;  // ascending: blocks.front() is its first block
  bool shiftable = false;
};

struct WindowSymmetry {
  int k = 1, n = 0;  // copies, blocks per micro-batch
  std::vector<Component> components;
};

// `memory_limited`: the claim has a memory limit (without one every
// component may move).
WindowSymmetry window_symmetry(const Placement& placement, int k, bool memory_limited);

// A repetend's window starts (one per window block, min 0, each at most
// horizon - span) mapped onto an equivalent one that obeys both rules.
std::vector<long long> canonical_starts(const Placement& placement, const Claim& claim, bool memory_limited,
                                        std::vector<long long> starts);

}  // namespace tessel::certify
