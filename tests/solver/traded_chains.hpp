// Small random pipelines that offer recomputation and offload under tight
// memory: shared by the tests of the bounds with offers (test_traded_bounds)
// and of the traded neighbourhoods (test_traded_windows).
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "tests/support.hpp"

namespace tessel::testing {

// A chain of `ndevs` stages (forward memory 1-2, the backward frees it),
// unit-scale spans; every forward offers recomputation at its span and
// offload with copies of 1-2 steps, both before its backward. The limit:
// the largest block's memory plus 0-1.
struct TradedChain {
  Placement placement;
  Memory limit = 0;
};

inline TradedChain random_traded_chain(std::mt19937& random) {
  auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
  TradedChain made;
  Placement& placement = made.placement;
  placement.ndevs = pick(2, 3);
  placement.name = "random traded chain";
  std::vector<int> forward, backward;
  Memory largest = 0;
  for (int stage = 0; stage < placement.ndevs; ++stage) {
    const Memory memory = pick(1, 2);
    largest = std::max(largest, memory);
    forward.push_back(add_block(placement, "f" + std::to_string(stage), {stage}, pick(1, 2), memory));
    backward.push_back(add_block(placement, "b" + std::to_string(stage), {stage}, pick(1, 3), -memory));
    placement.blocks[forward.back()].kind = BlockKind::Forward;
    placement.blocks[backward.back()].kind = BlockKind::Backward;
  }
  for (int stage = 0; stage + 1 < placement.ndevs; ++stage) {
    placement.edges.push_back({forward[stage], forward[stage + 1], 0});
    placement.edges.push_back({backward[stage + 1], backward[stage], 0});
  }
  placement.edges.push_back({forward.back(), backward.back(), 0});
  for (int stage = 0; stage < placement.ndevs; ++stage) {
    Block& block = placement.blocks[forward[stage]];
    block.recompute = RecomputeOffer{block.span, backward[stage], 0};
    block.offload = OffloadOffer{static_cast<Time>(pick(1, 2)), static_cast<Time>(pick(1, 2)), backward[stage]};
  }
  made.limit = largest + pick(0, 1);
  return made;
}


}  // namespace tessel::testing
