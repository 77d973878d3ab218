// Which operators and modules form each pipeline stage of a plan
// (docs/formats.md, "tessel.stages/1"): what a training script needs to
// build the stage modules of every rank. The stage numbers are the
// placement's and the CSV's; every operator of the graph is in exactly one
// stage, in graph order. A stage's modules are the coarsest module paths
// (FQNs) all of whose operators it holds, read from the graph's `module`
// fields (tools/tessel_fx.py writes them).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/graph.hpp"
#include "partition/partition.hpp"
#include "partition/pipeline_placement.hpp"

namespace tessel {

inline constexpr const char* kStagesFormat = "tessel.stages/1";

struct PlanStage {
  int stage = 0;
  int rank = 0;
  int chunk = 0;                     // the stage's place among its rank's stages, in pipeline order
  std::vector<int> operators;        // node indices, ascending (graph order)
  std::vector<std::string> modules;  // coarsest whole modules, in the order of their first operator
  long long compute = 0;
  long long param_bytes = 0;
};

// Requires a valid partition with pipeline_stages(options) stages.
std::vector<PlanStage> plan_stages(const Graph& graph, const Partition& partition, const PipelineOptions& options);

// The tessel.stages/1 document.
nlohmann::json stages_to_json(const Graph& graph, const PipelineOptions& options, const std::vector<PlanStage>& stages);

}  // namespace tessel
