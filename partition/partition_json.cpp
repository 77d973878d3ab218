// Reading and writing `tessel.partition/1`.
#include "partition/partition_json.hpp"

#include "model/input_error.hpp"
#include "model/json_file.hpp"

namespace tessel {

nlohmann::json partition_to_json(const Graph& graph, const Partition& partition,
                                 const PartitionClaim& claim) {
  PartitionCosts costs = partition_costs(graph, partition);
  nlohmann::json assignment = nlohmann::json::object();
  for (size_t v = 0; v < graph.nodes.size(); ++v) assignment[graph.nodes[v].id] = partition.stage_of[v];
  return {{"format", kPartitionFormat},
          {"graph", graph.name},
          {"stages", partition.stages},
          {"objective", claim.objective},
          {"status", claim.status},
          {"proven_optimal", claim.status == "optimal"},
          {"objective_value", claim.objective_value},
          {"proven_bound", claim.proven_bound},
          {"solve_seconds", seconds_to_json(claim.solve_seconds)},
          {"stage_compute", costs.stage_compute},
          {"stage_param_bytes", costs.stage_param_bytes},
          {"stage_output_bytes", costs.stage_output_bytes},
          {"communication_bytes", costs.communication_bytes},
          {"bottleneck", costs.bottleneck},
          {"assignment", assignment}};
}

Partition partition_from_json(const nlohmann::json& document, const Graph& graph,
                              const JsonPlace& place) {
  if (!document.is_object()) place.fail("expected a partition object");
  // What partition_to_json writes; the costs are recomputed, never trusted,
  // but a misspelt key must still not pass unnoticed.
  require_known_keys(document,
                     {"format", "graph", "stages", "objective", "status", "proven_optimal", "objective_value",
                      "proven_bound", "solve_seconds", "stage_compute", "stage_param_bytes", "stage_output_bytes",
                      "communication_bytes", "bottleneck", "assignment"},
                     place);
  require_format(document, kPartitionFormat, place);
  Partition partition;
  long long stages = require_integer(document, "stages", place);
  if (stages < 1 || stages > 100000)
    place.field("stages").fail("must be in [1, 100000], got " + std::to_string(stages));
  partition.stages = static_cast<int>(stages);
  const nlohmann::json& assignment = require(document, "assignment", place);
  JsonPlace at = place.field("assignment");
  if (!assignment.is_object()) at.fail("expected an object mapping node id -> stage");
  partition.stage_of.assign(graph.nodes.size(), -1);
  for (const auto& [id, value] : assignment.items()) {
    int node = find_node(graph, id);
    if (node < 0) at.field(id).fail("unknown node '" + id + "' (not in graph '" + graph.name + "')");
    long long stage = as_integer(value, at.field(id));
    if (stage < 0 || stage >= stages)
      at.field(id).fail("stage " + std::to_string(stage) + " is outside [0, " +
                        std::to_string(stages) + ")");
    partition.stage_of[node] = static_cast<int>(stage);
  }
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    if (partition.stage_of[v] < 0) at.fail("node '" + graph.nodes[v].id + "' has no stage");
  std::string problem = partition_problem(graph, partition);
  if (!problem.empty()) at.fail(problem);
  return partition;
}

}  // namespace tessel
