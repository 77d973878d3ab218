// Independent parts of a placement moved by whole periods (docs/algorithms.md,
// "What the refutation uses"): a symmetry the repetend encodings break.
//
// xshape is two chains with no edge between them. In a repetend, micro-batch
// m of one chain may run beside micro-batch m + c of the other for any c:
// adding c P to every start of one chain changes no phase (so no overlap on
// a device), no dependency (none crosses), and no device's memory, because
// each chain frees on every device what it allocates there. So every answer
// comes in as many copies as there are values of c, and a refutation must
// rule out each copy, with learned clauses that name absolute quotients and
// so do not carry over from one copy to the next. Fixing one source of each
// such part at quotient 0 removes them (xshape, 16 devices, memory 8,
// period 12: 0.8 s of CPU against more than 25 s without).
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"

namespace tessel {

// For a window placement of `copies` copies (window_placement.hpp; 1 for a
// plain placement): the weakly connected parts that may be moved by whole
// periods, each given by its source blocks (no predecessor). A part
// qualifies when, on every device, the memory deltas of its blocks there sum
// to zero. Parts holding the first block of some copy are left out when
// copies > 1: the rule ordering the copies reads those blocks' quotients.
std::vector<std::vector<int>> shiftable_part_sources(const Placement& window, int copies);

// The rule those parts allow, for an encoding that gives each block a
// quotient (the modulo and the cyclic-order encodings): in every shiftable
// part some source starts in the first period (quotient 0).
void add_shiftable_part_rule(Backend& backend, const std::vector<IntVar>& quotients, const Placement& window,
                             int copies);

}  // namespace tessel
