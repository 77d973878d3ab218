// The placement of a classic pipeline scheme: S stages, each a forward block
// and a backward block (or, split as in the zero-bubble papers, an
// input-backward B and a weight-backward W), every stage living on one rank.
// Generated and imported schedules embed this placement, so the verifier
// checks them like any other schedule. The dependencies are the standard
// ones of formats.md: F(s) after F(s-1); B(S-1) after F(S-1); B(s) after
// B(s+1); W(s) after B(s).
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel::classic {

// One step of a per-rank order, in the words of the pipeline papers: kind
// 'F' (forward), 'B' (full backward, or input-backward when the stage is
// split) or 'W' (weight-backward of a split stage).
struct Action {
  char kind = 'F';
  int stage = 0;
  int micro = 0;
  bool operator==(const Action&) const = default;
};

using RankOrders = std::vector<std::vector<Action>>;  // one order per rank

// Spans and memory deltas of the blocks of every stage. A full backward of
// an unsplit stage uses `backward_*`; a split stage uses `input_*` and
// `weight_*`.
struct StageCosts {
  Time forward_span = 1;
  Time backward_span = 2;
  Time input_span = 1;
  Time weight_span = 1;
  Memory forward_memory = 1;
  Memory backward_memory = -1;
  Memory input_memory = 0;
  Memory weight_memory = -1;
  int time_decimals = 0;    // the ticks above are 10^-time_decimals
  int memory_decimals = 0;
};

struct StageGraph {
  int ranks = 0;
  std::vector<int> stage_rank;  // stage -> rank
  std::vector<bool> split;      // per stage: backward split into B and W
  StageCosts costs;
  int stages() const { return static_cast<int>(stage_rank.size()); }
};

// The usual stage -> rank maps: "loop" (stage % ranks; 1F1B, interleaved)
// and "v" (0..R-1 then R-1..0; ZB-V).
std::vector<int> loop_stage_map(int ranks, int chunks);
std::vector<int> v_stage_map(int ranks);

// A stage graph with the same split decision for every stage.
StageGraph uniform_stage_graph(int ranks, std::vector<int> stage_rank, bool split,
                               const StageCosts& costs);

// The placement and where each action's block sits in it.
struct StagePlacement {
  Placement placement;
  std::vector<int> forward_block;   // per stage
  std::vector<int> backward_block;  // per stage: full or input backward
  std::vector<int> weight_block;    // per stage: -1 when not split

  int block_of(const Action& action) const;  // -1 when the stage has no such block
};

// Block ids: f<s>, b<s>, w<s>; kinds forward, backward (unsplit) or
// backward_input and backward_weight (split).
StagePlacement build_stage_placement(const StageGraph& graph, const std::string& name);

// "F3" style name of an action for messages (stage in front, as PyTorch
// writes it: "2B5" = stage 2, backward, micro-batch 5).
std::string action_name(const Action& action);

}  // namespace tessel::classic
