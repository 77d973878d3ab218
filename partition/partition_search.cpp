// The bound search of the exact partitioner.
//
// Bottleneck objective: the incumbent starts as the DP's contiguous cut (or
// any model when the DP has none); the lower bound starts at the trivial
// max(total / S, largest node). Bound B is asked by assuming its guard:
// first B = lower bound (on chain-like graphs often the answer, and then the
// proof is one SAT call), then just below the incumbent (one UNSAT call when
// the DP's answer is already optimal), then bisection steps alternating
// with "just below the incumbent" steps.
// All weights are first divided by their greatest common divisor, which
// changes no answer and shortens the bisection. Every SAT
// answer is decoded into a partition whose real bottleneck (<= B) becomes the
// new upper end; every UNSAT answer raises the lower end. With the
// bottleneck fixed at its optimum, the communication is bisected the same
// way. Pippy: the parameter window is hard, the communication is bisected.
// The same backend instance keeps its learned clauses across all of it.
#include "partition/partition_search.hpp"

#include <algorithm>
#include <numeric>
#include <chrono>
#include <cstdio>

#include "partition/partition_dp.hpp"
#include "partition/partition_encoding.hpp"
#include "sat/backend.hpp"

namespace tessel {

std::string status_name(PartitionStatus status) {
  switch (status) {
    case PartitionStatus::Optimal: return "optimal";
    case PartitionStatus::Feasible: return "feasible";
    case PartitionStatus::Infeasible: return "infeasible";
    case PartitionStatus::Timeout: return "timeout";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

// Reasons that need no solver: too few nodes, a node too heavy for the window.
std::string obvious_infeasibility(const Graph& graph, const PartitionRequest& request) {
  const int n = static_cast<int>(graph.nodes.size());
  if (request.stages > n)
    return "the graph has " + std::to_string(n) + " nodes, fewer than the " +
           std::to_string(request.stages) + " stages asked for (every stage needs a node)";
  ParamWindow window = param_window(graph, request);
  if (window.low > window.high)
    return "the parameter window per stage is empty: [" + std::to_string(window.low) + ", " +
           std::to_string(window.high) + "] bytes";
  for (const GraphNode& node : graph.nodes)
    if (node.param_bytes > window.high)
      return "node '" + node.id + "' alone holds " + std::to_string(node.param_bytes) +
             " parameter bytes, more than the " + std::to_string(window.high) +
             " a stage may hold";
  if (static_cast<__int128>(window.high) * request.stages < total_param_bytes(graph))
    return "the graph holds " + std::to_string(total_param_bytes(graph)) +
           " parameter bytes, more than " + std::to_string(request.stages) + " stages of " +
           std::to_string(window.high) + " bytes";
  return "";
}

std::string window_text(const Graph& graph, const PartitionRequest& request) {
  ParamWindow window = param_window(graph, request);
  std::string text = "every stage's parameter bytes ";
  if (window.low > 0) return text + "within [" + std::to_string(window.low) + ", " + std::to_string(window.high) + "]";
  return text + "at most " + std::to_string(window.high);
}

// The weights divided by their greatest common divisors: the same problem
// with smaller numbers (fewer bisection steps, smaller sums), exactly.
struct Scaled {
  Graph graph;
  long long compute_unit = 1, param_unit = 1, bytes_unit = 1;
};

long long gcd_of(const Graph& graph, long long GraphNode::*field) {
  long long divisor = 0;
  for (const GraphNode& node : graph.nodes) divisor = std::gcd(divisor, node.*field);
  return divisor == 0 ? 1 : divisor;
}

Scaled scale_down(const Graph& graph) {
  Scaled scaled{graph, gcd_of(graph, &GraphNode::compute), gcd_of(graph, &GraphNode::param_bytes),
                gcd_of(graph, &GraphNode::output_bytes)};
  for (GraphNode& node : scaled.graph.nodes) {
    node.compute /= scaled.compute_unit;
    node.param_bytes /= scaled.param_unit;
    node.output_bytes /= scaled.bytes_unit;
  }
  return scaled;
}

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

// Nodes x stages above which the exact encoding is not built: its guards
// hold 3 S sums of n literals each, and at 10^5 x 4 building them alone
// takes minutes and gigabytes. Such graphs get the contiguous cut.
constexpr long long kMaxExactCells = 200000;

// Whether the graph has one topological order only (each node in it feeds
// the next, as in a chain): then every partition is a contiguous cut of
// that order (an edge never runs to an earlier stage), and the DP's answer
// is the exact one, with no encoding to build (a 10^5-node chain's would not
// fit in memory or time).
bool one_topological_order(const Graph& graph) {
  std::vector<int> order = graph_topological_order(graph);
  std::vector<std::vector<int>> successors = node_successors(graph);
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    const std::vector<int>& next = successors[order[i]];
    if (std::find(next.begin(), next.end(), order[i + 1]) == next.end()) return false;
  }
  return true;
}

// The DP's cut as the proven answer of a graph with one topological order.
PartitionAnswer chain_answer(const Graph& graph, const PartitionRequest& request, PartitionAnswer answer) {
  answer.partition = answer.baseline;
  if (!answer.baseline) {
    answer.status = PartitionStatus::Infeasible;
    answer.reason = "no partition into " + std::to_string(request.stages) + " stages keeps " +
                    window_text(graph, request) + " (proven: the graph has one topological order, so every " +
                    "partition is a contiguous cut of it)";
    return answer;
  }
  const PartitionCosts costs = partition_costs(graph, *answer.baseline);
  answer.status = PartitionStatus::Optimal;
  if (request.objective == PartitionObjective::Pippy) {
    answer.proven_bound = costs.communication_bytes;
  } else {
    answer.proven_bound = costs.bottleneck;
    answer.proven_communication_bound = costs.communication_bytes;
  }
  return answer;
}

// One quantity bisected: its value on a partition, the literal that bounds
// it, its name and the unit that scales what is printed back to the graph's
// own units, and whether the lower bound is probed first (when it is often
// the answer).
struct Objective {
  std::function<long long(const Partition&)> value;
  std::function<std::optional<Lit>(long long)> guard_for;
  std::string what;
  long long unit = 1;
  bool probe_lower_first = false;
};

struct Search {
  const Graph& graph;  // scaled
  int stages;
  const Deadline& deadline;
  const PartitionProgress& progress;
  Backend& backend;
  PartitionEncoding encoding;
  Clock::time_point start = Clock::now();

  void say(const std::string& text) const {
    if (!progress) return;
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "[%.2f s] ", seconds_since(start));
    progress(elapsed + text);
  }

  // Asks under the assumptions; on Sat returns the decoded partition.
  Answer ask(const std::vector<Lit>& assumptions, Partition& found) {
    Answer answer = backend.solve(assumptions, deadline);
    if (answer != Answer::Sat) return answer;
    found.stages = stages;
    found.stage_of = decode_stages(backend, encoding);
    std::string problem = partition_problem(graph, found);
    if (!problem.empty()) throw std::logic_error("partition encoding decoded an invalid partition: " + problem);
    return answer;
  }

  // Bisects a bound in [lower, value(incumbent)) with `guard_for(bound)`
  // under the `fixed` assumptions; returns false when the deadline stopped
  // it.
  bool bisect(long long& lower, Partition& incumbent, const Objective& objective, const std::vector<Lit>& fixed) {
    const auto& [value, guard_for, what, unit, probe_lower_first] = objective;
    // Probes: the lower bound (when it is often the answer), then just
    // below the incumbent (one UNSAT proves an optimal incumbent), then
    // alternately the middle (raises the proven bound) and just below the
    // incumbent again (improves what a time-out hands back).
    int probe = probe_lower_first ? 0 : 1;
    while (lower < value(incumbent)) {
      long long upper = value(incumbent);
      long long bound = probe == 0 ? lower : probe % 2 == 1 ? upper - 1 : lower + (upper - 1 - lower) / 2;
      ++probe;
      if (deadline.expired()) return false;  // a guard over a large graph takes a while to build
      std::optional<Lit> guard = guard_for(bound);
      if (!guard) return false;  // the deadline struck while it was built
      std::vector<Lit> assumptions = fixed;
      assumptions.push_back(*guard);
      Partition found;
      Answer answer = ask(assumptions, found);
      if (answer == Answer::Unknown) return false;
      if (answer == Answer::Unsat) {
        lower = bound + 1;
        say(what + " > " + std::to_string(bound * unit) + " proven (range [" + std::to_string(lower * unit) + ", " +
            std::to_string(upper * unit) + "])");
        continue;
      }
      if (value(found) > bound) throw std::logic_error("partition encoding broke a " + what + " bound");
      incumbent = found;
      say(what + " " + std::to_string(value(found) * unit) + " found (range [" + std::to_string(lower * unit) +
          ", " + std::to_string(value(found) * unit) + "])");
    }
    return true;
  }
};

}  // namespace

namespace {

// The answers that need no exact search (method dp, a chain graph, a graph
// too large for the encoding, a deadline already gone); nullopt: search.
std::optional<PartitionAnswer> answered_without_search(const Graph& graph, const PartitionRequest& request,
                                                       const std::string& method, const Deadline& deadline,
                                                       PartitionAnswer& answer) {
  if (method == "dp") {
    answer.partition = answer.baseline;
    answer.status = answer.baseline ? PartitionStatus::Feasible : PartitionStatus::Timeout;
    if (!answer.baseline)
      answer.reason = "no contiguous cut of the topological order satisfies " + window_text(graph, request) +
                      "; the exact method may still find one";
    return answer;
  }
  if (one_topological_order(graph)) return chain_answer(graph, request, std::move(answer));
  const double cells = static_cast<double>(graph.nodes.size()) * request.stages;
  if (cells > kMaxExactCells) {
    answer.partition = answer.baseline;
    answer.status = answer.baseline ? PartitionStatus::Feasible : PartitionStatus::Timeout;
    answer.reason = std::to_string(graph.nodes.size()) + " nodes x " + std::to_string(request.stages) +
                    " stages is beyond the exact search (at most " + std::to_string(kMaxExactCells) +
                    "); the partition is the contiguous cut, not proven optimal";
    if (!answer.baseline) answer.reason += " (and no contiguous cut exists)";
    return answer;
  }
  if (deadline.expired()) {
    answer.partition = answer.baseline;
    answer.status = PartitionStatus::Timeout;
    answer.reason = answer.baseline ? "time limit reached after the contiguous cut; not proven optimal"
                                    : "time limit reached before any partition was found";
    return answer;
  }
  return std::nullopt;
}

// The bottleneck bisected, then the communication under the optimal
// bottleneck; false when the deadline stopped either.
bool bisect_bottleneck(Search& search, const Scaled& scaled, int stages, Partition& incumbent,
                       PartitionAnswer& answer) {
  const Graph& small = scaled.graph;
  auto bottleneck_of = [&](const Partition& p) { return partition_costs(small, p).bottleneck; };
  auto communication_of = [&](const Partition& p) { return partition_costs(small, p).communication_bytes; };
  long long small_largest = 0;
  for (const GraphNode& node : small.nodes) small_largest = std::max(small_largest, node.compute);
  long long lower = std::max(small_largest, ceil_div(total_compute(small), stages));
  auto bottleneck_guard_for = [&](long long bound) {
    return bottleneck_guard(search.backend, small, search.encoding, bound, search.deadline);
  };
  bool finished = search.bisect(lower, incumbent, {bottleneck_of, bottleneck_guard_for, "bottleneck",
                                                   scaled.compute_unit, true}, {});
  answer.proven_bound = lower * scaled.compute_unit;
  std::optional<Lit> optimum;
  if (finished)
    optimum = bottleneck_guard(search.backend, small, search.encoding, bottleneck_of(incumbent), search.deadline);
  if (!finished || !optimum) return false;
  StageWindows windows = stage_windows(small, search.encoding, bottleneck_of(incumbent));
  auto communication_within = [&](long long bound) -> std::optional<Lit> {
    return communication_guard(search.backend, small, search.encoding, bound, &windows);
  };
  long long communication_lower = 0;
  finished = search.bisect(communication_lower, incumbent, {communication_of, communication_within,
                                                            "communication", scaled.bytes_unit, false}, {*optimum});
  answer.proven_communication_bound = communication_lower * scaled.bytes_unit;
  return finished;
}

// The exact search on the scaled graph (partitions are the same): a first
// partition (the contiguous cut, or the solver's), then the objective
// bisected down from it.
PartitionAnswer exact_partition(const Graph& graph, const PartitionRequest& request, const std::string& backend_name,
                                const Deadline& deadline, const PartitionProgress& progress,
                                PartitionAnswer answer) {
  Scaled scaled = scale_down(graph);
  const Graph& small = scaled.graph;
  ParamWindow window = param_window(graph, request);
  ParamWindow small_window{ceil_div(window.low, scaled.param_unit), window.high / scaled.param_unit};
  std::unique_ptr<Backend> backend = make_backend(backend_name);
  Search search{small, request.stages, deadline, progress, *backend,
                encode_partition(*backend, small, request.stages, small_window)};
  Partition incumbent;
  if (answer.baseline) {
    incumbent = *answer.baseline;
  } else {
    Answer first = search.ask({}, incumbent);
    if (first == Answer::Unsat) {
      answer.status = PartitionStatus::Infeasible;
      answer.reason = "no partition into " + std::to_string(request.stages) + " stages keeps " +
                      window_text(graph, request) + " (proven)";
      return answer;
    }
    if (first == Answer::Unknown) {
      answer.status = PartitionStatus::Timeout;
      answer.reason = "time limit reached before any partition was found";
      return answer;
    }
  }
  bool finished = true;
  if (request.objective == PartitionObjective::Pippy) {
    auto communication_of = [&](const Partition& p) { return partition_costs(small, p).communication_bytes; };
    auto communication_guard_for = [&](long long bound) -> std::optional<Lit> {
      return communication_guard(*backend, small, search.encoding, bound);
    };
    long long lower = 0;
    finished = search.bisect(lower, incumbent, {communication_of, communication_guard_for, "communication",
                                                scaled.bytes_unit, false}, {});
    answer.proven_bound = lower * scaled.bytes_unit;
  } else {
    finished = bisect_bottleneck(search, scaled, request.stages, incumbent, answer);
  }
  answer.partition = incumbent;
  answer.status = finished ? PartitionStatus::Optimal : PartitionStatus::Timeout;
  if (!finished) answer.reason = "time limit reached; the partition is the best found, not proven optimal";
  return answer;
}

}  // namespace

PartitionAnswer solve_partition(const Graph& graph, const PartitionRequest& request,
                                const std::string& method, const std::string& backend_name,
                                const Deadline& deadline, const PartitionProgress& progress) {
  Clock::time_point start = Clock::now();
  PartitionAnswer answer;
  answer.reason = obvious_infeasibility(graph, request);
  if (!answer.reason.empty()) {
    answer.status = PartitionStatus::Infeasible;
    answer.solve_seconds = seconds_since(start);
    return answer;
  }
  answer.baseline = dp_partition(graph, request);
  long long largest = 0;
  for (const GraphNode& node : graph.nodes) largest = std::max(largest, node.compute);
  if (request.objective != PartitionObjective::Pippy)
    answer.proven_bound = std::max(largest, ceil_div(total_compute(graph), request.stages));
  std::optional<PartitionAnswer> answered = answered_without_search(graph, request, method, deadline, answer);
  PartitionAnswer result = answered ? std::move(*answered)
                                    : exact_partition(graph, request, backend_name, deadline, progress, answer);
  result.solve_seconds = seconds_since(start);
  return result;
}

}  // namespace tessel
