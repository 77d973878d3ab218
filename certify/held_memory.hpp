// The steady-state memory of a period claim counted by allocation/free pairs
// (docs/algorithms.md, "Certificates", "Memory by pairs"). The definition
// says device d holds at phase f
//   M(f) = sum_b mem(b) ([s(b) mod P <= f] - floor(s(b) / P)),
// a signed sum over start literals that a solver propagates badly (the
// verifier's first encoding, a weighted counter over every quotient literal,
// left mshape 8/8's period 13 at k = 2 unrefuted after 600 s). When the
// device's allocations can be split among later frees that descend from
// them, M(f) is a sum of non-negative terms, one per pair (a, b, m):
//   m x #{x = f (mod P) : s(a) <= x < s(b)},
// the copies of the pair alive at the steps of phase f; each count is read
// off the start ladders by binary implications and the sum is bounded by a
// small counter. Devices whose deltas do not split so keep the signed form.
#pragma once

#include <vector>

#include "certify/clauses.hpp"
#include "certify/ladders.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

// An allocation of `amount` by block `allocates`, freed by its descendant
// `frees` (indices of one micro-batch's blocks).
struct MemoryPair {
  int allocates = 0, frees = 0;
  long long amount = 0;
};

// The pairs of `device` (blocks on it with a memory delta), or an empty
// list with `paired` false when some free has no ancestor allocation left
// to take it from.
struct DevicePairs {
  bool paired = false;
  std::vector<MemoryPair> pairs;
};
DevicePairs pair_memory(const Placement& placement, int device);

// For every phase f: sum over the pairs of every copy of the window of
// amount x (count at f) <= bound. `copies` and `per_copy`: window block
// c per_copy + b is copy c of block b.
void encode_paired_memory(Builder& builder, const StartLadders& ladders, const std::vector<MemoryPair>& pairs,
                          int copies, int per_copy, long long bound);

}  // namespace tessel::certify
