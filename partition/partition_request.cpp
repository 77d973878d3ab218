// The shared meaning of a partition request: objective names and the
// per-stage parameter window.
#include "partition/partition_request.hpp"

#include <cmath>
#include <limits>

namespace tessel {

std::string objective_name(PartitionObjective objective) {
  return objective == PartitionObjective::Pippy ? "pippy" : "bottleneck";
}

ParamWindow param_window(const Graph& graph, const PartitionRequest& request) {
  ParamWindow window{0, std::numeric_limits<long long>::max()};
  if (request.objective == PartitionObjective::Pippy) {
    double mean = static_cast<double>(total_param_bytes(graph)) / request.stages;
    window.low = static_cast<long long>(std::ceil(mean * (1.0 - request.tolerance) - 1e-9));
    window.high = static_cast<long long>(std::floor(mean * (1.0 + request.tolerance) + 1e-9));
    if (window.low < 0) window.low = 0;
  }
  if (request.max_param_bytes && *request.max_param_bytes < window.high)
    window.high = *request.max_param_bytes;
  return window;
}

long long primary_value(const PartitionCosts& costs, PartitionObjective objective) {
  return objective == PartitionObjective::Pippy ? costs.communication_bytes : costs.bottleneck;
}

}  // namespace tessel
