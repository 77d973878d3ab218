// Symmetries of a placement that the repetend encodings may break
// (docs/algorithms.md, "What the refutation uses"). Several built-in shapes
// are made of mirrored halves: xshape is a V on devices 0..D-1 and the same V
// on D-1..0, kshape two equal branches on the two device halves. Such a
// placement maps onto itself under a renaming of its devices (reversal, or a
// rotation by half), and then a schedule renamed the same way is again a
// schedule of the same period, latency and memory. The encodings use it to
// fix which source block starts first, which removes the mirrored copy of
// every answer from the search (for a refutation: half of what it must rule
// out on these shapes).
//
// What is found is only what is proven here: a block permutation that keeps
// every kind, span, memory and edge (with its delay) and maps each block's
// devices through the device renaming, under memory limits equal on renamed
// devices. The search for the permutation is a bounded backtracking over a
// topological order; past its budget it reports none, which only means
// "not broken".
#pragma once

#include <optional>
#include <vector>

#include "model/placement.hpp"

namespace tessel {

// Block permutations (image of each block) of `placement` under the device
// reversal and, on an even number of devices, the rotation by D/2; none when
// the memory limits (or static memory) differ between renamed devices.
std::vector<std::vector<int>> mirror_automorphisms(const Placement& placement,
                                                   const std::vector<long long>& memory_limit);

// For a window placement of `copies` interchangeable copies: the block that
// may be fixed to start first (at quotient 0, phase 0) on top of the rule
// "copies in increasing order of their first block" — block 0 when it is a
// source and every source lies in its orbit under the automorphisms of one
// copy and the renaming of copies; none otherwise (then only "some source
// starts first" holds).
std::optional<int> first_source_fixed(const Placement& window, const std::vector<long long>& memory_limit,
                                      int copies);

}  // namespace tessel
