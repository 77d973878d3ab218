// The bound search of the exact partitioner.
//
// Bottleneck objective: the incumbent starts as the DP's contiguous cut (or
// any model when the DP has none); the lower bound starts at the trivial
// max(total / S, largest node). Bound B is asked by assuming its guard:
// first B = lower bound (on chain-like graphs often the answer, and then the
// proof is one SAT call), then bisection between the bounds. Every SAT
// answer is decoded into a partition whose real bottleneck (<= B) becomes the
// new upper end; every UNSAT answer raises the lower end. With the
// bottleneck fixed at its optimum, the communication is bisected the same
// way. Pippy: the parameter window is hard, the communication is bisected.
// The same backend instance keeps its learned clauses across all of it.
#include "solver/partition_search.hpp"

#include <algorithm>
#include <chrono>

#include "solver/backend.hpp"
#include "solver/partition_dp.hpp"
#include "solver/partition_encoding.hpp"

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

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

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

struct Search {
  const Graph& graph;
  const PartitionRequest& request;
  const Deadline& deadline;
  const Progress& progress;
  Backend& backend;
  PartitionEncoding encoding;

  void say(const std::string& text) const {
    if (progress) progress(text);
  }

  // Asks under the assumptions; on Sat returns the decoded partition.
  Answer ask(const std::vector<Lit>& assumptions, Partition& found) {
    Answer answer = backend.solve(assumptions, deadline);
    if (answer != Answer::Sat) return answer;
    found.stages = request.stages;
    found.stage_of = decode_stages(backend, encoding);
    if (!partition_problem(graph, found).empty())
      throw std::logic_error("partition encoding decoded an invalid partition: " + partition_problem(graph, found));
    return answer;
  }

  // Bisects a bound in [lower, value(incumbent)) with `guard_for(bound)`;
  // returns false when the deadline stopped it. `value` reads the objective.
  bool bisect(long long& lower, Partition& incumbent, const std::function<long long(const Partition&)>& value,
              const std::function<Lit(long long)>& guard_for, const std::vector<Lit>& fixed,
              const std::string& what, bool probe_lower_first) {
    bool first = probe_lower_first;
    while (lower < value(incumbent)) {
      long long upper = value(incumbent);
      long long bound = first ? lower : lower + (upper - 1 - lower) / 2;
      first = false;
      std::vector<Lit> assumptions = fixed;
      assumptions.push_back(guard_for(bound));
      Partition found;
      Answer answer = ask(assumptions, found);
      if (answer == Answer::Unknown) return false;
      if (answer == Answer::Unsat) {
        lower = bound + 1;
        say(what + " > " + std::to_string(bound) + " proven (range [" + std::to_string(lower) + ", " +
            std::to_string(upper) + "])");
        continue;
      }
      if (value(found) > bound) throw std::logic_error("partition encoding broke a " + what + " bound");
      incumbent = found;
      say(what + " " + std::to_string(value(found)) + " found (range [" + std::to_string(lower) + ", " +
          std::to_string(value(found)) + "])");
    }
    return true;
  }
};

}  // namespace

PartitionAnswer solve_partition(const Graph& graph, const PartitionRequest& request,
                                const std::string& method, const std::string& backend_name,
                                const Deadline& deadline, const Progress& progress) {
  Clock::time_point start = Clock::now();
  PartitionAnswer answer;
  const bool pippy = request.objective == PartitionObjective::Pippy;
  auto bottleneck_of = [&](const Partition& p) { return partition_costs(graph, p).bottleneck; };
  auto communication_of = [&](const Partition& p) { return partition_costs(graph, p).communication_bytes; };

  answer.reason = obvious_infeasibility(graph, request);
  if (!answer.reason.empty()) {
    answer.status = PartitionStatus::Infeasible;
    answer.solve_seconds = seconds_since(start);
    return answer;
  }
  answer.baseline = dp_partition(graph, request);
  long long lower = 0;
  if (!pippy) {
    long long largest = 0;
    for (const GraphNode& node : graph.nodes) largest = std::max(largest, node.compute);
    lower = std::max(largest, (total_compute(graph) + request.stages - 1) / request.stages);
  }
  answer.proven_bound = lower;

  if (method == "dp") {
    answer.partition = answer.baseline;
    answer.status = answer.baseline ? PartitionStatus::Feasible : PartitionStatus::Timeout;
    if (!answer.baseline)
      answer.reason = "no contiguous cut of the topological order satisfies " + window_text(graph, request) +
                      "; the exact method may still find one";
    answer.solve_seconds = seconds_since(start);
    return answer;
  }

  std::unique_ptr<Backend> backend = make_backend(backend_name);
  Search search{graph, request, deadline, progress, *backend, encode_partition(*backend, graph, request)};
  Partition incumbent;
  if (answer.baseline) {
    incumbent = *answer.baseline;
  } else {
    Answer first = search.ask({}, incumbent);
    if (first == Answer::Unsat) {
      answer.status = PartitionStatus::Infeasible;
      answer.reason = "no partition into " + std::to_string(request.stages) + " stages keeps " +
                      window_text(graph, request) + " (proven)";
      answer.solve_seconds = seconds_since(start);
      return answer;
    }
    if (first == Answer::Unknown) {
      answer.status = PartitionStatus::Timeout;
      answer.reason = "time limit reached before any partition was found";
      answer.solve_seconds = seconds_since(start);
      return answer;
    }
  }

  bool finished = true;
  if (pippy) {
    finished = search.bisect(lower, incumbent, communication_of,
                             [&](long long bound) { return communication_guard(*backend, graph, search.encoding, bound); },
                             {}, "communication", false);
    answer.proven_bound = lower;
  } else {
    finished = search.bisect(lower, incumbent, bottleneck_of,
                             [&](long long bound) { return bottleneck_guard(*backend, graph, search.encoding, bound); },
                             {}, "bottleneck", true);
    answer.proven_bound = lower;
    if (finished) {
      Lit optimum = bottleneck_guard(*backend, graph, search.encoding, bottleneck_of(incumbent));
      long long communication_lower = 0;
      finished = search.bisect(communication_lower, incumbent, communication_of,
                               [&](long long bound) { return communication_guard(*backend, graph, search.encoding, bound); },
                               {optimum}, "communication", false);
      answer.proven_communication_bound = communication_lower;
    }
  }
  answer.partition = incumbent;
  answer.status = finished ? PartitionStatus::Optimal : PartitionStatus::Timeout;
  if (!finished) answer.reason = "time limit reached; the partition is the best found, not proven optimal";
  answer.solve_seconds = seconds_since(start);
  return answer;
}

}  // namespace tessel
