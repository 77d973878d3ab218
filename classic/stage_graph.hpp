// The placement of a classic pipeline scheme: S stages, each a forward block
// and a backward block (or, split as in the zero-bubble papers, an
// input-backward I and a weight-backward W), every stage living on one rank.
// Generated and imported schedules embed this placement, so the verifier
// checks them like any other schedule. The dependencies are the standard
// ones of docs/algorithms.md, "Classic schedules": F(s) after F(s-1); B(S-1) after F(S-1); B(s) after
// B(s+1); W(s) after B(s).
//
// A bidirectional pipeline (DualPipe, Chimera) runs the same S stages twice,
// "down" (stage s on rank stage_rank[s]) and "up" (stage s on rank
// reverse_rank[s]), with micro-batches entering at both ends. It is modelled
// like the `xshape` case: ONE micro-batch of the placement is a pair of
// micro-batches, one per direction, as two independent chains (blocks f, b, w
// and fr, br, wr). The placement stays one-chain-per-direction with the
// runtime stage on every block, so that the verifier needs nothing new and
// the exporter can write the stage back; the price is that a schedule of N
// micro-batches holds N/2 pairs.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel::classic {

// One step of a per-rank order, in PyTorch's words: kind 'F' (forward), 'B'
// (full backward), 'I' (input backward of a split stage), 'W' (its weight
// backward). A B of a split stage runs as its I and W fused into one unit of
// the backward span. `overlaps_next` joins this action and the next one of
// the same rank into one overlapped unit (DualPipe's F&B, PyTorch's
// OVERLAP_F_B) of the overlap span.
struct Action {
  char kind = 'F';
  int stage = 0;
  int micro = 0;
  bool reverse = false;  // the "up" direction of a bidirectional pipeline
  bool overlaps_next = false;
  bool operator==(const Action&) const = default;
};

using RankOrders = std::vector<std::vector<Action>>;  // one order per rank

// Spans and memory deltas of the blocks of every stage. A full backward of
// an unsplit stage uses `backward_*`; a split stage uses `input_*` and
// `weight_*` (and `backward_span` for a full backward run as I + W).
struct StageCosts {
  Time forward_span = 1;
  Time backward_span = 2;
  Time input_span = 1;
  Time weight_span = 1;
  Time overlap_span = 0;  // an overlapped unit; 0 = the sum of its members' spans
  Memory forward_memory = 1;
  Memory backward_memory = -1;
  Memory input_memory = 0;
  Memory weight_memory = -1;
  int time_decimals = 0;    // the ticks above are 10^-time_decimals
  int memory_decimals = 0;
};

struct StageGraph {
  int ranks = 0;
  std::vector<int> stage_rank;    // stage -> rank ("down" direction)
  std::vector<int> reverse_rank;  // bidirectional: stage -> rank of the "up" copy; empty otherwise
  std::vector<bool> split;        // per stage: backward split into I and W
  StageCosts costs;
  int stages() const { return static_cast<int>(stage_rank.size()); }
  bool bidirectional() const { return !reverse_rank.empty(); }
};

// The usual stage -> rank maps: "loop" (stage % ranks; 1F1B, interleaved)
// and "v" (0..R-1 then R-1..0; ZB-V).
std::vector<int> loop_stage_map(int ranks, int chunks);
std::vector<int> v_stage_map(int ranks);

// A stage graph with the same split decision for every stage.
StageGraph uniform_stage_graph(int ranks, std::vector<int> stage_rank, bool split,
                               const StageCosts& costs);

// The blocks of one direction, per stage (-1 when the stage has no such block).
struct DirectionBlocks {
  std::vector<int> forward;
  std::vector<int> backward;  // full or input backward
  std::vector<int> weight;    // -1 when not split
};

// The placement and where each action's block sits in it.
struct StagePlacement {
  Placement placement;
  std::vector<int> forward_block;   // per stage ("down")
  std::vector<int> backward_block;  // per stage: full or input backward
  std::vector<int> weight_block;    // per stage: -1 when not split
  DirectionBlocks up;               // the "up" copies of a bidirectional graph

  // The block of an F, I or W action, or of a B of an unsplit stage; -1
  // otherwise (a B of a split stage is its I and W, see timed_schedule).
  int block_of(const Action& action) const;
};

// Block ids: f<s>, b<s>, w<s> (and fr<s>, br<s>, wr<s> for the "up"
// direction); kinds forward, backward (unsplit) or backward_input and
// backward_weight (split); every block carries its stage.
StagePlacement build_stage_placement(const StageGraph& graph, const std::string& name);

// "2B5" style name of an action for messages (stage in front, as PyTorch
// writes it: stage 2, backward, micro-batch 5; "up" actions end in "r").
std::string action_name(const Action& action);

}  // namespace tessel::classic
