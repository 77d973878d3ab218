// The partitioner against an independent brute force: on random DAGs of
// 8-14 nodes and 2-4 stages, every assignment that respects the edges is
// enumerated here, its costs computed here, and the best one compared with
// the exact search (both objectives, every backend) and the DP baseline
// (never better than the optimum). Every partition produced goes through the
// independent check in verify/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "model/graph_json.hpp"
#include "partition/partition_dp.hpp"
#include "partition/partition_json.hpp"
#include "partition/partition_search.hpp"
#include "sat/backend.hpp"
#include "tests/support.hpp"
#include "verify/partition_check.hpp"

using namespace tessel;

namespace {

struct Costs {
  long long bottleneck = 0;
  long long communication = 0;
  bool params_ok = true;
};

// The test's own cost model: loads per stage, and per node "how many
// boundaries lie between me and my furthest reader".
struct Brute {
  const Graph& graph;
  int stages;
  long long param_low, param_high;
  std::vector<std::vector<int>> readers;
  std::vector<int> order;

  Costs costs(const std::vector<int>& stage) const {
    Costs c;
    std::vector<long long> load(stages, 0), params(stages, 0);
    for (size_t v = 0; v < graph.nodes.size(); ++v) {
      load[stage[v]] += graph.nodes[v].compute;
      params[stage[v]] += graph.nodes[v].param_bytes;
      int furthest = stage[v];
      for (int r : readers[v]) furthest = std::max(furthest, stage[r]);
      c.communication += graph.nodes[v].output_bytes * (furthest - stage[v]);
    }
    c.bottleneck = *std::max_element(load.begin(), load.end());
    for (long long p : params) c.params_ok = c.params_ok && p >= param_low && p <= param_high;
    return c;
  }

  // Calls visit(stage) for every edge-respecting assignment with no empty stage.
  template <class Visit>
  void enumerate(Visit visit) const {
    std::vector<int> stage(graph.nodes.size(), -1);
    std::vector<std::vector<int>> preds(graph.nodes.size());
    for (const GraphEdge& e : graph.edges) preds[e.to].push_back(e.from);
    std::function<void(size_t)> place = [&](size_t at) {
      if (at == order.size()) {
        std::vector<int> used(stages, 0);
        for (int s : stage) used[s] = 1;
        if (std::count(used.begin(), used.end(), 1) == stages) visit(stage);
        return;
      }
      int v = order[at];
      int lowest = 0;
      for (int p : preds[v]) lowest = std::max(lowest, stage[p]);
      for (int s = lowest; s < stages; ++s) {
        stage[v] = s;
        place(at + 1);
      }
      stage[v] = -1;
    };
    place(0);
  }
};

Graph random_dag(std::mt19937& random, int n) {
  // Nodes are created in a hidden order (edges go forward in it) and written
  // to the file shuffled, so the file order is not a topological order.
  std::vector<int> label(n);
  for (int i = 0; i < n; ++i) label[i] = i;
  std::shuffle(label.begin(), label.end(), random);
  Graph graph;
  graph.name = "random";
  graph.nodes.resize(n);
  std::uniform_int_distribution<int> cost(0, 20), bytes(0, 10), coin(0, 99);
  for (int i = 0; i < n; ++i) {
    GraphNode& node = graph.nodes[label[i]];
    node.id = "n" + std::to_string(i);
    node.op = "op";
    node.compute = cost(random);
    node.param_bytes = bytes(random);
    node.output_bytes = bytes(random);
  }
  for (int j = 1; j < n; ++j) {
    graph.edges.push_back({label[std::uniform_int_distribution<int>(0, j - 1)(random)], label[j]});  // connected
    for (int i = 0; i < j; ++i)
      if (coin(random) < 15) graph.edges.push_back({label[i], label[j]});
  }
  std::sort(graph.edges.begin(), graph.edges.end(),
            [](const GraphEdge& a, const GraphEdge& b) { return std::pair(a.from, a.to) < std::pair(b.from, b.to); });
  graph.edges.erase(std::unique(graph.edges.begin(), graph.edges.end(),
                                [](const GraphEdge& a, const GraphEdge& b) { return a.from == b.from && a.to == b.to; }),
                    graph.edges.end());
  return graph;
}

Brute make_brute(const Graph& graph, int stages, long long low, long long high) {
  Brute brute{graph, stages, low, high, {}, graph_topological_order(graph)};
  brute.readers.resize(graph.nodes.size());
  for (const GraphEdge& e : graph.edges) brute.readers[e.from].push_back(e.to);
  return brute;
}

// The independent check must accept the partition and agree on its costs.
Costs checked(const Graph& graph, const Partition& partition) {
  PartitionClaim claim;
  nlohmann::json document = partition_to_json(graph, partition, claim);
  verify::PartitionReport report = verify::check_partition(graph_to_json(graph), document);
  INFO(document.dump());
  for (const std::string& problem : report.problems) INFO(problem);
  REQUIRE(report.valid);
  return {report.bottleneck, report.communication_bytes, true};
}

struct RandomCase {
  Graph graph;
  int stages;
};

std::vector<RandomCase> random_cases() {
  std::mt19937 random(20240607);
  std::vector<RandomCase> all;
  // Sizes keep the brute force under a second each: S^n assignments at most.
  for (int round = 0; round < 4; ++round) {
    all.push_back({random_dag(random, 8 + 2 * round), 2 + round % 3});
    all.push_back({random_dag(random, 8 + round), 4});
    all.push_back({random_dag(random, 11 + round), 3});
    all.push_back({random_dag(random, 14), 2});
  }
  return all;
}

std::vector<std::string> working_backends() {
  std::vector<std::string> names;
  for (const std::string& name : backend_names()) {
    try {
      make_backend(name);
      names.push_back(name);
    } catch (const std::logic_error& error) {
      WARN("backend " << name << " is not available on this branch: " << error.what());
    }
  }
  return names;
}

}  // namespace

TEST_CASE("bottleneck: exact equals the brute force, DP never beats it", "[partition]") {
  std::vector<std::string> backends = working_backends();
  for (const RandomCase& instance : random_cases()) {
    const Graph& graph = instance.graph;
    INFO(graph_to_json(graph).dump() << " stages " << instance.stages);
    Brute brute = make_brute(graph, instance.stages, 0, std::numeric_limits<long long>::max());
    std::pair<long long, long long> best{std::numeric_limits<long long>::max(), 0};
    brute.enumerate([&](const std::vector<int>& stage) {
      Costs c = brute.costs(stage);
      best = std::min(best, std::pair(c.bottleneck, c.communication));
    });
    PartitionRequest request;
    request.stages = instance.stages;

    std::optional<Partition> dp = dp_partition(graph, request);
    REQUIRE(dp);
    Costs dp_costs = checked(graph, *dp);
    CHECK(std::pair(dp_costs.bottleneck, dp_costs.communication) >= best);

    for (const std::string& backend : backends) {
      INFO("backend " << backend);
      PartitionAnswer answer = solve_partition(graph, request, "exact", backend, Deadline{});
      REQUIRE(answer.status == PartitionStatus::Optimal);
      REQUIRE(answer.partition);
      Costs exact = checked(graph, *answer.partition);
      CHECK(std::pair(exact.bottleneck, exact.communication) == best);
      CHECK(answer.proven_bound == best.first);
      CHECK(answer.proven_communication_bound == best.second);
    }
  }
}

TEST_CASE("pippy: exact equals the brute force, or both find nothing", "[partition]") {
  std::vector<std::string> backends = working_backends();
  for (const RandomCase& instance : random_cases()) {
    const Graph& graph = instance.graph;
    PartitionRequest request;
    request.stages = instance.stages;
    request.objective = PartitionObjective::Pippy;
    request.tolerance = 0.5;
    // The test's own window: parameter bytes within (1 +- 0.5) * mean.
    double mean = static_cast<double>(total_param_bytes(graph)) / instance.stages;
    long long low = static_cast<long long>(std::ceil(0.5 * mean - 1e-9));
    long long high = static_cast<long long>(std::floor(1.5 * mean + 1e-9));
    INFO(graph_to_json(graph).dump() << " stages " << instance.stages << " window " << low << ".." << high);
    Brute brute = make_brute(graph, instance.stages, low, high);
    std::optional<long long> best;
    brute.enumerate([&](const std::vector<int>& stage) {
      Costs c = brute.costs(stage);
      if (c.params_ok && (!best || c.communication < *best)) best = c.communication;
    });

    std::optional<Partition> dp = dp_partition(graph, request);
    if (dp) {
      Costs dp_costs = checked(graph, *dp);
      REQUIRE(best);
      CHECK(dp_costs.communication >= *best);
      CHECK(brute.costs(dp->stage_of).params_ok);
    }
    for (const std::string& backend : backends) {
      INFO("backend " << backend);
      PartitionAnswer answer = solve_partition(graph, request, "exact", backend, Deadline{});
      if (!best) {
        CHECK(answer.status == PartitionStatus::Infeasible);
        CHECK_FALSE(answer.reason.empty());
        continue;
      }
      REQUIRE(answer.status == PartitionStatus::Optimal);
      Costs exact = checked(graph, *answer.partition);
      CHECK(exact.communication == *best);
      CHECK(brute.costs(answer.partition->stage_of).params_ok);
      CHECK(answer.proven_bound == *best);
    }
  }
}

TEST_CASE("bottleneck under a parameter cap: exact equals the brute force", "[partition]") {
  std::vector<std::string> backends = working_backends();
  std::mt19937 random(7);
  for (int round = 0; round < 6; ++round) {
    Graph graph = random_dag(random, 9 + round % 3);
    int stages = 2 + round % 3;
    long long cap = total_param_bytes(graph) / stages + 6;
    INFO(graph_to_json(graph).dump() << " stages " << stages << " cap " << cap);
    Brute brute = make_brute(graph, stages, 0, cap);
    std::optional<std::pair<long long, long long>> best;
    brute.enumerate([&](const std::vector<int>& stage) {
      Costs c = brute.costs(stage);
      if (c.params_ok) best = std::min(best.value_or(std::pair(c.bottleneck, c.communication)),
                                       std::pair(c.bottleneck, c.communication));
    });
    PartitionRequest request;
    request.stages = stages;
    request.max_param_bytes = cap;
    for (const std::string& backend : backends) {
      PartitionAnswer answer = solve_partition(graph, request, "exact", backend, Deadline{});
      if (!best) {
        CHECK(answer.status == PartitionStatus::Infeasible);
        continue;
      }
      REQUIRE(answer.status == PartitionStatus::Optimal);
      Costs exact = checked(graph, *answer.partition);
      CHECK(std::pair(exact.bottleneck, exact.communication) == *best);
      CHECK(brute.costs(answer.partition->stage_of).params_ok);
    }
  }
}

TEST_CASE("the independent check rejects corrupted partitions with the reason", "[partition]") {
  std::mt19937 random(3);
  Graph graph = random_dag(random, 10);
  PartitionRequest request;
  request.stages = 3;
  Partition partition = *dp_partition(graph, request);
  nlohmann::json good = partition_to_json(graph, partition, PartitionClaim{});
  nlohmann::json graph_json = graph_to_json(graph);
  REQUIRE(verify::check_partition(graph_json, good).valid);
  auto problems = [&](const nlohmann::json& doc) {
    std::string all;
    for (const std::string& p : verify::check_partition(graph_json, doc).problems) all += p + "\n";
    return all;
  };

  const GraphEdge& edge = graph.edges.front();
  nlohmann::json backwards = good;
  backwards["assignment"][graph.nodes[edge.from].id] = 2;
  backwards["assignment"][graph.nodes[edge.to].id] = 0;
  CHECK_THAT(problems(backwards), Catch::Contains("back to stage 0"));

  nlohmann::json missing = good;
  missing["assignment"].erase(graph.nodes[4].id);
  CHECK_THAT(problems(missing), Catch::Contains("'" + graph.nodes[4].id + "' has no valid stage"));

  nlohmann::json extra = good;
  extra["assignment"]["ghost"] = 1;
  CHECK_THAT(problems(extra), Catch::Contains("'ghost' is assigned but not in the graph"));

  nlohmann::json out_of_range = good;
  out_of_range["assignment"][graph.nodes[0].id] = 3;
  CHECK_THAT(problems(out_of_range), Catch::Contains("outside [0, 3)"));

  nlohmann::json empty_stage = good;
  for (auto& [id, stage] : empty_stage["assignment"].items()) stage = 0;
  empty_stage.erase("stage_compute");
  empty_stage.erase("stage_param_bytes");
  empty_stage.erase("communication_bytes");
  empty_stage.erase("bottleneck");
  CHECK_THAT(problems(empty_stage), Catch::Contains("stage 1 holds no node") && Catch::Contains("stage 2 holds no node"));

  nlohmann::json wrong_costs = good;
  wrong_costs["communication_bytes"] = good["communication_bytes"].get<long long>() + 1;
  wrong_costs["stage_compute"][0] = good["stage_compute"][0].get<long long>() + 1;
  CHECK_THAT(problems(wrong_costs), Catch::Contains("'communication_bytes' says") && Catch::Contains("'stage_compute' says"));

  nlohmann::json bad_format = good;
  bad_format["format"] = "tessel.partition/2";
  CHECK_THROWS_AS(verify::check_partition(graph_json, bad_format), verify::FormatError);
}

TEST_CASE("tessel partition --method dp writes a partition the check accepts, and a placement", "[partition][cli]") {
  testing::TempDir dir;
  std::mt19937 random(11);
  Graph graph = random_dag(random, 12);
  write_json_file(dir.file("g.json"), graph_to_json(graph));
  auto result = testing::run_tessel("partition " + dir.file("g.json") + " --stages 3 --method dp -o " + dir.file("p.json") +
                                    " --placement-out " + dir.file("pl.json") + " --json");
  REQUIRE(result.exit_code == 0);
  auto json = nlohmann::json::parse(result.out);
  CHECK(json["status"] == "feasible");
  CHECK(json["checked"] == true);
  auto check = testing::run_tessel("partition " + dir.file("g.json") + " --check " + dir.file("p.json"));
  CHECK(check.exit_code == 0);
  CHECK_THAT(check.out, Catch::Contains("valid"));

  nlohmann::json placement = read_json_file(dir.file("pl.json"));
  CHECK(placement["format"] == "tessel.placement/1");
  CHECK(placement["ndevs"] == 3);
  CHECK(placement["blocks"].size() == 6);

  // A corrupted partition: the check says invalid and exits 1.
  nlohmann::json doc = read_json_file(dir.file("p.json"));
  for (auto& [id, stage] : doc["assignment"].items()) stage = 2 - stage.get<int>();
  write_json_file(dir.file("bad.json"), doc);
  check = testing::run_tessel("partition " + dir.file("g.json") + " --check " + dir.file("bad.json"));
  CHECK(check.exit_code == 1);
  CHECK_THAT(check.out, Catch::Contains("invalid") && Catch::Contains("back to stage"));
}
