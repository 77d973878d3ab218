// Stage partitioning as an order encoding (docs/algorithms.md, "Stage partitioning").
//
// stage(v) is a facade integer; its order literals y(v,s) = [stage(v) <= s]
// are what the clauses talk about. An edge u -> v is stage(v) - stage(u) >= 0.
// "v in stage s" is y(v,s) and not y(v,s-1), one literal per node and stage,
// defined both ways because it is used both ways: in the load sums (upper
// bounds) and in "every stage holds a node" (a clause over them). The output
// of u crosses boundary b (between stages b and b+1) exactly when u is at or
// before b and some reader is after it; the literal c(u,b) is forced true by
// one ternary clause per reader, and only ever pushed down by the sums, so it
// counts each output once per boundary however many readers are beyond it.
//
// Bounds are guarded: the search asks "bottleneck <= B?" by assuming a fresh
// literal that switches on the load sums for B. Under that literal each node
// also gets the stage window its ancestors and descendants force (everything
// before v, v included, fills at most (stage(v)+1) * B of compute), which for
// the chain-like graphs of transformers leaves only the nodes near a cut
// undecided, and the redundant prefix sums over y(v,s) give the solver the
// "the first s+1 stages cannot hold more than (s+1) B" argument directly.
#include "partition/partition_encoding.hpp"

#include <cstdint>

namespace tessel {

namespace {

// Node sets above and below each node as bitsets; graphs of up to a few
// thousand nodes (what operator graphs are) keep this at a few MiB.
constexpr size_t kMaxNodesForWindows = 20000;

std::vector<long long> closure_compute(const Graph& graph, bool ancestors) {
  const size_t n = graph.nodes.size();
  std::vector<long long> sums(n, 0);
  if (n > kMaxNodesForWindows) {
    for (size_t v = 0; v < n; ++v) sums[v] = graph.nodes[v].compute;
    return sums;
  }
  const size_t words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> sets(n, std::vector<uint64_t>(words, 0));
  std::vector<int> order = graph_topological_order(graph);
  if (!ancestors) order.assign(order.rbegin(), order.rend());
  std::vector<std::vector<int>> feeders = ancestors ? node_predecessors(graph) : node_successors(graph);
  for (int v : order) {
    sets[v][v / 64] |= uint64_t{1} << (v % 64);
    for (int u : feeders[v])
      for (size_t w = 0; w < words; ++w) sets[v][w] |= sets[u][w];
  }
  for (size_t v = 0; v < n; ++v)
    for (size_t u = 0; u < n; ++u)
      if (sets[v][u / 64] >> (u % 64) & 1) sums[v] += graph.nodes[u].compute;
  return sums;
}

long long ceil_div(long long a, long long b) { return b <= 0 ? 0 : (a + b - 1) / b; }

// guard implies sum <= capacity; a capacity below zero refutes the guard and
// one at or above the sum's total needs no constraint.
void add_capacity(Backend& backend, const LinearSum& sum, __int128 capacity, Lit guard) {
  if (capacity < 0) {
    backend.add_clause({~guard});
    return;
  }
  __int128 total = 0;
  for (const auto& [weight, lit] : sum.bools) total += weight;
  if (total <= capacity) return;
  backend.add_linear_at_most(sum, static_cast<long long>(capacity), {guard});
}

}  // namespace

PartitionEncoding encode_partition(Backend& backend, const Graph& graph, int stages,
                                   const ParamWindow& window) {
  const int n = static_cast<int>(graph.nodes.size());
  const int S = stages;
  PartitionEncoding encoding;
  encoding.stages = S;
  Lit truth = backend.true_lit();

  for (int v = 0; v < n; ++v) {
    encoding.stage.push_back(backend.new_int(0, S - 1));
    std::vector<Lit> order;
    for (int s = 0; s < S; ++s) order.push_back(s == S - 1 ? truth : backend.at_most(encoding.stage[v], s));
    encoding.at_most.push_back(order);
  }
  for (const GraphEdge& edge : graph.edges)
    backend.add_difference(encoding.stage[edge.to], encoding.stage[edge.from], 0);

  // "v in stage s", defined both ways.
  for (int v = 0; v < n; ++v) {
    std::vector<Lit> in_stage;
    for (int s = 0; s < S; ++s) {
      const std::vector<Lit>& y = encoding.at_most[v];
      if (S == 1) {
        in_stage.push_back(truth);
      } else if (s == 0) {
        in_stage.push_back(y[0]);
      } else if (s == S - 1) {
        in_stage.push_back(~y[S - 2]);
      } else {
        Lit e = backend.new_bool();
        backend.add_clause({~e, y[s]});
        backend.add_clause({~e, ~y[s - 1]});
        backend.add_clause({~y[s], y[s - 1], e});
        in_stage.push_back(e);
      }
    }
    encoding.in_stage.push_back(in_stage);
  }
  for (int s = 0; s < S; ++s) {
    std::vector<Lit> someone;
    for (int v = 0; v < n; ++v) someone.push_back(encoding.in_stage[v][s]);
    backend.add_clause(someone);
  }

  // Crossing literals, only for outputs that are read and weigh something.
  std::vector<std::vector<int>> succs = node_successors(graph);
  encoding.crosses.assign(n, {});
  for (int u = 0; u < n; ++u) {
    if (succs[u].empty() || graph.nodes[u].output_bytes == 0) continue;
    for (int b = 0; b + 1 < S; ++b) {
      Lit c = backend.new_bool();
      for (int reader : succs[u]) backend.add_clause({~encoding.at_most[u][b], encoding.at_most[reader][b], c});
      encoding.crosses[u].push_back(c);
    }
  }

  // The parameter window of every stage is a hard constraint.
  long long params = total_param_bytes(graph);
  for (int s = 0; s < S; ++s) {
    if (window.high < params) {
      LinearSum held;
      for (int v = 0; v < n; ++v)
        if (graph.nodes[v].param_bytes > 0) held.bools.push_back({graph.nodes[v].param_bytes, encoding.in_stage[v][s]});
      backend.add_linear_at_most(held, window.high);
    }
    if (window.low > 0) {
      LinearSum elsewhere;
      for (int v = 0; v < n; ++v)
        if (graph.nodes[v].param_bytes > 0)
          elsewhere.bools.push_back({graph.nodes[v].param_bytes, ~encoding.in_stage[v][s]});
      backend.add_linear_at_most(elsewhere, params - window.low);
    }
  }

  encoding.ancestor_compute = closure_compute(graph, true);
  encoding.descendant_compute = closure_compute(graph, false);
  return encoding;
}

StageWindows stage_windows(const Graph& graph, const PartitionEncoding& encoding, long long bound) {
  const int n = static_cast<int>(graph.nodes.size());
  const int S = encoding.stages;
  StageWindows windows;
  windows.lowest.assign(n, 0);
  windows.highest.assign(n, S - 1);
  for (int v = 0; v < n; ++v) {
    if (graph.nodes[v].compute > bound) windows.feasible = false;
    if (bound > 0) {
      windows.lowest[v] = static_cast<int>(std::min<long long>(S, ceil_div(encoding.ancestor_compute[v], bound) - 1));
      windows.highest[v] = static_cast<int>(std::max<long long>(-1, S - ceil_div(encoding.descendant_compute[v], bound)));
    }
    if (windows.lowest[v] > windows.highest[v]) windows.feasible = false;
  }
  return windows;
}

std::optional<Lit> bottleneck_guard(Backend& backend, const Graph& graph, const PartitionEncoding& encoding,
                                    long long bound, const Deadline& deadline) {
  const int n = static_cast<int>(graph.nodes.size());
  const int S = encoding.stages;
  Lit guard = backend.new_bool();
  StageWindows windows = stage_windows(graph, encoding, bound);
  if (!windows.feasible) {
    backend.add_clause({~guard});
    return guard;
  }
  const std::vector<int>& lowest = windows.lowest;
  const std::vector<int>& highest = windows.highest;
  for (int v = 0; v < n; ++v) {
    if (lowest[v] > 0) backend.add_clause({~guard, ~encoding.at_most[v][lowest[v] - 1]});
    if (highest[v] < S - 1) backend.add_clause({~guard, encoding.at_most[v][highest[v]]});
  }

  for (int s = 0; s < S; ++s) {
    if (deadline.expired()) return std::nullopt;
    LinearSum load;
    for (int v = 0; v < n; ++v)
      if (graph.nodes[v].compute > 0 && lowest[v] <= s && s <= highest[v])
        load.bools.push_back({graph.nodes[v].compute, encoding.in_stage[v][s]});
    add_capacity(backend, load, bound, guard);
  }
  for (int s = 0; s + 1 < S; ++s) {
    if (deadline.expired()) return std::nullopt;
    LinearSum before, after;
    for (int v = 0; v < n; ++v) {
      if (graph.nodes[v].compute == 0) continue;
      if (highest[v] > s && lowest[v] <= s) before.bools.push_back({graph.nodes[v].compute, encoding.at_most[v][s]});
      if (lowest[v] <= s && highest[v] > s) after.bools.push_back({graph.nodes[v].compute, ~encoding.at_most[v][s]});
    }
    // Nodes fixed at or before s (highest <= s) always count before; fixed
    // after s (lowest > s) always after: fold them into the bounds.
    long long fixed_before = 0, fixed_after = 0;
    for (int v = 0; v < n; ++v) {
      if (highest[v] <= s) fixed_before += graph.nodes[v].compute;
      if (lowest[v] > s) fixed_after += graph.nodes[v].compute;
    }
    add_capacity(backend, before, static_cast<__int128>(s + 1) * bound - fixed_before, guard);
    add_capacity(backend, after, static_cast<__int128>(S - 1 - s) * bound - fixed_after, guard);
  }
  return guard;
}

Lit communication_guard(Backend& backend, const Graph& graph, const PartitionEncoding& encoding,
                        long long bound, const StageWindows* within) {
  Lit guard = backend.new_bool();
  std::vector<std::vector<int>> succs = node_successors(graph);
  LinearSum sent;
  for (size_t u = 0; u < graph.nodes.size(); ++u)
    for (size_t b = 0; b < encoding.crosses[u].size(); ++b) {
      // c(u,b) can be forced only if u may sit at or before b and a reader after it.
      if (within) {
        bool possible = within->lowest[u] <= static_cast<int>(b);
        bool reader_after = false;
        for (int reader : succs[u]) reader_after = reader_after || within->highest[reader] > static_cast<int>(b);
        if (!possible || !reader_after) continue;
      }
      sent.bools.push_back({graph.nodes[u].output_bytes, encoding.crosses[u][b]});
    }
  backend.add_linear_at_most(sent, bound, {guard});
  return guard;
}

std::vector<int> decode_stages(Backend& backend, const PartitionEncoding& encoding) {
  std::vector<int> stages;
  for (IntVar stage : encoding.stage) stages.push_back(backend.value(stage));
  return stages;
}

}  // namespace tessel
