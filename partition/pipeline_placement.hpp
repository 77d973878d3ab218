// From stages to the placement PyTorch-style pipelines run: S = D x chunks
// stages put on D ranks by a mapping people use (docs/plan.md):
//   chain        stage s on rank s (one chunk per rank; 1F1B, GPipe)
//   interleaved  stage c*D + r on rank r (Megatron's virtual pipeline)
//   v            stages 0..D-1 down the ranks, D..2D-1 back up (ZB-V)
// Every block carries its stage, so the schedule exports to PyTorch's action
// table whatever the mapping. Costs are physical: activation memory and the
// static memory of parameters, gradients and optimizer state in bytes, so
// that a memory limit such as 40GiB means what it says for the traced model.
//
// Split backward (zero bubble): the input gradient I and the weight gradient
// W of a stage become two blocks. The graph has no weight-gradient cost of
// its own, so W is estimated from the operators that hold parameters (their
// weight gradient costs about their forward: one matmul each); a graph
// without parameters gets W = half of the backward. The estimate used is
// reported (`weight_cost`).
//
// Memory traded for time (docs/plan.md, "Recompute and offload"): with
// recompute Auto or All every forward block offers to be run again before
// its stage's backward (B or I) instead of keeping its activation: the
// recompute takes the forward's own span (the stage's forward compute) and
// keeps the stage's input activations as its checkpoint. Auto lets the
// search choose per micro-batch; All asks the plan to recompute every one
// (plan/plan_candidate.hpp). The placement itself is the same for both.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/graph.hpp"
#include "model/placement.hpp"
#include "partition/partition.hpp"

namespace tessel {

enum class StageMapping { Chain, Interleaved, V };

enum class RecomputeMode { None, Auto, All };

// "none", "auto", "all"; nullopt for any other text.
std::optional<RecomputeMode> parse_recompute_mode(const std::string& text);
const char* recompute_mode_name(RecomputeMode mode);

// "chain", "interleaved", "v"; nullopt for any other text.
std::optional<StageMapping> parse_mapping(const std::string& text);
const char* mapping_name(StageMapping mapping);

struct PipelineOptions {
  int devices = 1;
  StageMapping mapping = StageMapping::Chain;
  int chunks = 1;                  // stages per rank; v needs 2, chain 1
  bool split_backward = false;
  double backward_ratio = 2;       // backward compute = ratio * forward compute
  long long resolution = 0;        // compute per step; 0 = an ideal stage's forward (total / S) is 4 steps
  // Static memory: per parameter, its weight and its gradient at
  // `bytes_per_param` bytes each (4 fp32, 2 bf16) plus the optimizer state
  // (Adam in fp32: 8 bytes). The graph's param_bytes count parameters at
  // kGraphBytesPerParam bytes each (tools/tessel_fx.py traces in fp32).
  double optimizer_bytes_per_param = 8;
  int bytes_per_param = 4;
  RecomputeMode recompute = RecomputeMode::None;  // Auto and All: every forward offers recomputation
};

constexpr int kGraphBytesPerParam = 4;

// Stages for the options (devices x chunks); "" or why the options are wrong
// (a v mapping with other than 2 chunks, chain with more than 1, ...).
int pipeline_stages(const PipelineOptions& options);
std::string pipeline_options_problem(const PipelineOptions& options);

// The rank that runs stage s.
int rank_of_stage(StageMapping mapping, int devices, int stage);

struct PipelinePlacement {
  Placement placement;
  long long resolution = 0;       // compute per step used for the spans
  long long memory_granule = 1;   // activation bytes are rounded up to multiples of this
  std::vector<long long> stage_activation_bytes;  // exact, per stage
  std::vector<long long> stage_input_bytes;       // exact, per stage: what a recompute keeps as its checkpoint
  std::vector<int> backward_of_stage;             // per stage: the block (B or I) that needs the activation again
  std::vector<long long> static_bytes;            // per rank, exact
  std::vector<double> block_compute;              // per block of the placement, exact (before the steps)
  std::string weight_cost;        // how W was costed, in words (split backward only)
};

// Requires a valid partition with pipeline_stages(options) stages and valid
// options. Blocks: F<s> for every stage, then B<s> (or I<s> and W<s>) from
// the last stage down; edges F<s> -> F<s+1>, F<S-1> -> B<S-1>, B<s> -> B<s-1>
// (I likewise, I<s> -> W<s>).
PipelinePlacement pipeline_placement(const Graph& graph, const Partition& partition, const PipelineOptions& options);

}  // namespace tessel
