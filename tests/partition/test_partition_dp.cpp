// The contiguous-cut programme against every contiguous cut (random graphs,
// both objectives, parameter windows), and chains answered by it exactly:
// on a graph with one topological order the exact search's answer is the
// programme's, proven optimal, and equals the best of all cuts.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "partition/partition_dp.hpp"
#include "partition/partition_search.hpp"

using namespace tessel;

namespace {

struct Best {
  bool found = false;
  long long bottleneck = std::numeric_limits<long long>::max();
  long long communication = std::numeric_limits<long long>::max();
};

// Every cut of the topological order into `stages` non-empty segments, the
// lexicographic best for the objective (bottleneck then communication, or
// communication alone) among those within the parameter window.
Best best_cut(const Graph& graph, const PartitionRequest& request) {
  const std::vector<int> order = graph_topological_order(graph);
  const int n = static_cast<int>(order.size());
  const ParamWindow window = param_window(graph, request);
  Best best;
  std::vector<int> cuts(request.stages - 1);
  std::function<void(int, int)> choose = [&](int index, int from) {
    if (index == request.stages - 1) {
      Partition partition{request.stages, std::vector<int>(n, 0)};
      for (int i = 0, stage = 0; i < n; ++i) {
        while (stage < request.stages - 1 && i >= cuts[stage]) ++stage;
        partition.stage_of[order[i]] = stage;
      }
      PartitionCosts costs = partition_costs(graph, partition);
      for (long long params : costs.stage_param_bytes)
        if (params < window.low || params > window.high) return;
      const bool pippy = request.objective == PartitionObjective::Pippy;
      const auto key = std::pair(pippy ? 0 : costs.bottleneck, costs.communication_bytes);
      if (!best.found || key < std::pair(pippy ? 0 : best.bottleneck, best.communication))
        best = {true, costs.bottleneck, costs.communication_bytes};
      return;
    }
    for (int cut = from; cut <= n - (request.stages - 1 - index); ++cut) {
      cuts[index] = cut;
      choose(index + 1, cut + 1);
    }
  };
  choose(0, 1);
  return best;
}

Graph random_graph(std::mt19937& random, int n, bool chain) {
  std::uniform_int_distribution<int> cost(0, 9), bytes(0, 6), coin(0, 3);
  Graph graph;
  for (int i = 0; i < n; ++i) graph.nodes.push_back({"n" + std::to_string(i), "op", cost(random), bytes(random), bytes(random)});
  for (int i = 0; i + 1 < n; ++i) {
    if (chain || coin(random) > 0) graph.edges.push_back({i, i + 1});
    if (!chain && i + 2 < n && coin(random) == 0) graph.edges.push_back({i, i + 2});
  }
  return graph;
}

PartitionRequest request_for(int stages, bool pippy) {
  PartitionRequest request;
  request.stages = stages;
  if (pippy) {
    request.objective = PartitionObjective::Pippy;
    request.tolerance = 0.6;
  }
  return request;
}

}  // namespace

TEST_CASE("the contiguous-cut programme finds the best contiguous cut", "[partition][dp]") {
  std::mt19937 random(4711);
  for (int trial = 0; trial < 120; ++trial) {
    const Graph graph = random_graph(random, 5 + trial % 6, trial % 3 == 0);
    const PartitionRequest request = request_for(1 + trial % 4, trial % 2 == 1);
    INFO("trial " << trial);
    const Best best = best_cut(graph, request);
    const std::optional<Partition> dp = dp_partition(graph, request);
    REQUIRE(dp.has_value() == best.found);
    if (!dp) continue;
    const PartitionCosts costs = partition_costs(graph, *dp);
    CHECK(partition_problem(graph, *dp).empty());
    if (request.objective == PartitionObjective::Bottleneck) CHECK(costs.bottleneck == best.bottleneck);
    CHECK(costs.communication_bytes == best.communication);
  }
}

TEST_CASE("a chain is answered by the programme, proven optimal, as the brute force", "[partition][dp]") {
  std::mt19937 random(1147);
  for (int trial = 0; trial < 40; ++trial) {
    const Graph graph = random_graph(random, 6 + trial % 5, true);
    const PartitionRequest request = request_for(2 + trial % 3, trial % 2 == 1);
    INFO("trial " << trial);
    const Best best = best_cut(graph, request);  // a chain's every partition is a cut
    const PartitionAnswer answer = solve_partition(graph, request, "exact", "cadical", Deadline{});
    if (!best.found) {
      CHECK(answer.status == PartitionStatus::Infeasible);
      CHECK_THAT(answer.reason, Catch::Contains("one topological order"));
      continue;
    }
    REQUIRE(answer.status == PartitionStatus::Optimal);
    const PartitionCosts costs = partition_costs(graph, *answer.partition);
    CHECK(costs.communication_bytes == best.communication);
    if (request.objective == PartitionObjective::Bottleneck) {
      CHECK(costs.bottleneck == best.bottleneck);
      CHECK(answer.proven_bound == best.bottleneck);
      CHECK(answer.proven_communication_bound == best.communication);
    } else {
      CHECK(answer.proven_bound == best.communication);
    }
  }
}
