// Makespan lower bounds for N micro-batches (see the header).
//
// Why the idle-aware bound is a lower bound. Fix a device d and let X be the
// blocks on d. Take Y, a subset of X that holds every descendant in X of its
// members. In any schedule let y be the first instance of a block of Y to
// start, of block b and micro-batch m. Every ancestor a of b runs in
// micro-batch m and ends before y starts, and the ancestors along one
// dependency path run one after another. While such an a runs, d can only be
// busy with a block c of F = X \ Y (an instance of Y would start before y)
// that shares no device with a (they run at the same time). So when a is
// not on d and shares a device with every block of F ("blocking"), d idles
// for all of a's span. Hence d idles at least the heaviest path of blocking
// ancestors of b before y starts; b is not known, so the bound takes the
// least such path over the blocks of Y that have no ancestor in Y (only they
// can start first). Mirror image: Z, a subset of X holding every ancestor in
// X of its members, z the instance of Z that ends last; after z, d runs only
// X \ Z, and the blocking descendants of z's block in z's micro-batch make
// d idle. When Y and Z share a block, y starts no later and z ends no
// earlier than any instance of it, so the two idle stretches do not overlap
// and T >= N load(d) + idle before y + idle after z.
//
// Y = Z = X is the simple bound's head_d and tail_d, so the idle-aware bound
// is never weaker. Tried: Y = X and, per block b of X, b with its
// descendants in X; Z likewise with ancestors; every pair that intersects.
// mshape on 4 devices: device 3 idles during f0, f1, f2 of the first
// micro-batch (the all-device fs cannot fill in: it needs devices 0-2) and
// during b2, b1, b0 of the last, 3 + 9 steps, so no schedule of 128
// micro-batches is shorter than 768 + 12 = 780.
//
// Why the memory-aware bound is a lower bound. Fix d with limit M (the
// blocks' own memory), head h (earliest start of a block on d) and tail t
// (shortest chain after a block on d). A device's memory drops only when a
// block with negative memory starts on it, and none can start before E, the
// earliest start of such a block on d. So in [h, E) d runs only blocks that
// allocate, whose memory together stays within M, and blocks of memory 0:
// at most M x (largest span per unit of memory) + N x (span of the zero
// blocks) busy steps; the rest of [h, E) is idle, and the last block on d
// ends no earlier than h + that idle + N load(d). Mirror image: after the
// last allocating instance starts (at S), d only frees, at most what M
// minus the final level leaves, so it is busy at most (its span) + (freed
// x largest span per unit freed) + the zero work from S on; S then is at
// least h + N load(d) minus that (plus the warmup idle when the allocations
// of all N micro-batches exceed M: S then comes after E), and the chain
// after the allocating block follows. xshape on 16 devices, memory 16:
// device 7 starts at 7, frees first at 37 and fills at most 16 of those 30
// steps, so 7 + 14 + 1024 + 21 = 1066.
#include "solver/makespan/closed_bound/makespan_bound.hpp"

#include <algorithm>
#include <climits>
#include <vector>

#include "solver/makespan/closed_bound/capped_ends.hpp"
#include "solver/makespan/closed_bound/memory_time.hpp"

namespace tessel {
namespace {

// What every argument below reads of the placement, computed once per
// bound: the order and the edges, which blocks run on each device, and one
// micro-batch's earliest starts, chains after each block, loads and
// critical path.
struct Graph {
  const Placement& placement;
  std::vector<int> order;
  std::vector<std::vector<int>> preds, succs;
  std::vector<std::vector<char>> reach;
  std::vector<std::vector<char>> on;  // on[d][b]: block b runs on device d
  std::vector<Time> earliest;         // earliest_starts
  std::vector<Time> after;            // chain_after
  std::vector<Time> load;             // device_load
  Time critical = 0;                  // one micro-batch's longest chain
};

bool share_device(const Graph& graph, const Block& a, int b) {
  for (int device : a.devices)
    if (graph.on[device][b]) return true;
  return false;
}

// A block not on d is blocking when it shares a device with every block of d
// outside `in_set` (so d idles while it runs); its weight is then its span.
std::vector<int> blocking_weights(const Graph& graph, int device, const std::vector<char>& in_set) {
  const std::vector<Block>& blocks = graph.placement.blocks;
  const std::vector<char>& on = graph.on[device];
  std::vector<int> fillers;  // the blocks of d outside the set
  for (size_t c = 0; c < blocks.size(); ++c)
    if (on[c] && !in_set[c]) fillers.push_back(static_cast<int>(c));
  std::vector<int> weight(blocks.size(), 0);
  for (size_t a = 0; a < blocks.size(); ++a) {
    if (on[a]) continue;
    bool blocking = true;
    for (size_t i = 0; i < fillers.size() && blocking; ++i)
      if (!share_device(graph, blocks[a], fillers[i])) blocking = false;
    if (blocking) weight[a] = blocks[a].span;
  }
  return weight;
}

// Forced idle of d before the first instance of `first_set` (closed under
// descendants on d).
long long idle_before(const Graph& graph, int device, const std::vector<char>& first_set) {
  std::vector<int> weight = blocking_weights(graph, device, first_set);
  std::vector<long long> into(graph.placement.blocks.size(), 0);
  for (int block : graph.order)
    for (int pred : graph.preds[block]) into[block] = std::max(into[block], into[pred] + weight[pred]);
  long long least = LLONG_MAX;
  for (size_t b = 0; b < first_set.size(); ++b) {
    if (!first_set[b]) continue;
    bool has_ancestor_in_set = false;
    for (size_t a = 0; a < first_set.size() && !has_ancestor_in_set; ++a)
      if (first_set[a] && graph.reach[a][b]) has_ancestor_in_set = true;
    if (!has_ancestor_in_set) least = std::min(least, into[b]);
  }
  return least == LLONG_MAX ? 0 : least;
}

// Forced idle of d after the last instance of `last_set` (closed under
// ancestors on d).
long long idle_after(const Graph& graph, int device, const std::vector<char>& last_set) {
  std::vector<int> weight = blocking_weights(graph, device, last_set);
  std::vector<long long> out(graph.placement.blocks.size(), 0);
  for (auto it = graph.order.rbegin(); it != graph.order.rend(); ++it)
    for (int next : graph.succs[*it]) out[*it] = std::max(out[*it], weight[next] + out[next]);
  long long least = LLONG_MAX;
  for (size_t b = 0; b < last_set.size(); ++b) {
    if (!last_set[b]) continue;
    bool has_descendant_in_set = false;
    for (size_t c = 0; c < last_set.size() && !has_descendant_in_set; ++c)
      if (last_set[c] && graph.reach[b][c]) has_descendant_in_set = true;
    if (!has_descendant_in_set) least = std::min(least, out[b]);
  }
  return least == LLONG_MAX ? 0 : least;
}

struct DeviceIdle {
  long long head = 0;
  long long tail = 0;
};

// Devices with more blocks than this try Y = Z = X only: the sets per block
// cost blocks x (blocks on d)^2 per device, minutes on 5000 blocks, and a
// bound is asked for before every answer (time limits must hold). Fewer
// sets only weaken the bound; it stays a lower bound. A size guard for a
// bound also computed outside a search (no Tuning there), not a knob.
constexpr size_t kMostBlocksForPerBlockSets = 256;

// The largest head + tail over the candidate pairs (Y, Z) that intersect.
DeviceIdle device_idle(const Graph& graph, int device) {
  const size_t n = graph.placement.blocks.size();
  const std::vector<char>& on = graph.on[device];
  std::vector<std::vector<char>> firsts{on}, lasts{on};
  const bool per_block = static_cast<size_t>(std::count(on.begin(), on.end(), 1)) <= kMostBlocksForPerBlockSets;
  for (size_t b = 0; b < n && per_block; ++b) {
    if (!on[b]) continue;
    std::vector<char> down(n, 0), up(n, 0);
    for (size_t c = 0; c < n; ++c) {
      if (!on[c]) continue;
      down[c] = c == b || graph.reach[b][c];
      up[c] = c == b || graph.reach[c][b];
    }
    firsts.push_back(down);
    lasts.push_back(up);
  }
  std::vector<long long> heads, tails;
  for (const auto& set : firsts) heads.push_back(idle_before(graph, device, set));
  for (const auto& set : lasts) tails.push_back(idle_after(graph, device, set));
  DeviceIdle best;
  for (size_t i = 0; i < firsts.size(); ++i)
    for (size_t j = 0; j < lasts.size(); ++j) {
      bool intersect = false;
      for (size_t b = 0; b < n && !intersect; ++b) intersect = firsts[i][b] && lasts[j][b];
      if (intersect && heads[i] + tails[j] > best.head + best.tail) best = {heads[i], tails[j]};
    }
  return best;
}

// The chain after each block: spans and delays of its longest path of
// successors (the simple bound's tail).
std::vector<Time> chain_after(const Placement& placement, const std::vector<int>& order) {
  std::vector<std::vector<std::pair<int, Time>>> out_edges(placement.blocks.size());
  for (const Edge& edge : placement.edges) out_edges[edge.from].push_back({edge.to, edge.delay});
  std::vector<Time> after(placement.blocks.size(), 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (const auto& [next, delay] : out_edges[*it])
      after[*it] = std::max<Time>(after[*it], delay + placement.blocks[next].span + after[next]);
  return after;
}

// docs/algorithms.md, "The makespan at N", unchanged: head_d is the earliest start of a
// block on d, tail_d the shortest chain after one.
// Communication delays count in the chain after a block (a delay keeps the
// successor waiting); the idle-aware bound below leaves them out, which only
// weakens it.
long long simple_bound(const Graph& graph, long long total_micros) {
  const int n = static_cast<int>(graph.placement.blocks.size());
  long long bound = graph.critical;
  for (int device = 0; device < graph.placement.ndevs; ++device) {
    Time head = LLONG_MAX, tail = LLONG_MAX;
    for (int b = 0; b < n; ++b)
      if (graph.on[device][b]) {
        head = std::min(head, graph.earliest[b]);
        tail = std::min(tail, graph.after[b]);
      }
    if (head == LLONG_MAX) continue;
    bound = std::max(bound, head + total_micros * graph.load[device] + tail);
  }
  return bound;
}

// What the memory-aware bound needs of one device (its blocks' spans and
// memory, earliest starts, chains after them; N; the limit).
struct DeviceMemory {
  const Graph& graph;
  const std::vector<Time>& earliest;
  const std::vector<Time>& after;
  const std::vector<char>& on;  // the device's blocks
  long long total_micros;
  int device;
  Memory limit;
};

// The most busy steps the blocks of d whose memory has `sign` (+1
// allocating, -1 freeing) fill with `budget` memory and, with `window`, inside
// [their earliest start, window): the best span per unit of memory
// (fractionally), at most N instances each.
long long memory_busy(const DeviceMemory& d, Memory budget, int sign, Time window) {
  const std::vector<Block>& blocks = d.graph.placement.blocks;
  long long best = 0, all = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const Block& block = blocks[b];
    if (!d.on[b] || block.memory * sign <= 0 || d.earliest[b] >= window) continue;
    best = std::max<long long>(best, std::max<Memory>(0, budget) * block.span / (block.memory * sign));
    all += std::min<long long>(d.total_micros * block.span, window - d.earliest[b]);
  }
  return std::min(best, all);
}

// The busy steps of d's blocks of memory 0 inside [their earliest, window).
// One tied to a block of `sign` on d (an allocating ancestor, or a freeing
// descendant) runs in at most `micros` micro-batches: each of them needs
// that block's memory within the budget.
long long zero_busy(const DeviceMemory& d, int sign, long long micros, Time window) {
  const std::vector<Block>& blocks = d.graph.placement.blocks;
  long long busy = 0;
  for (size_t z = 0; z < blocks.size(); ++z) {
    if (!d.on[z] || blocks[z].memory != 0 || d.earliest[z] >= window) continue;
    bool tied = false;
    for (size_t b = 0; b < blocks.size() && !tied; ++b)
      tied = d.on[b] && blocks[b].memory * sign > 0 &&
             (sign > 0 ? d.graph.reach[b][z] : d.graph.reach[z][b]);
    const long long count = tied ? std::min(micros, d.total_micros) : d.total_micros;
    busy += std::min<long long>(count * blocks[z].span, window - d.earliest[z]);
  }
  return busy;
}

// The smallest memory (its size) of d's blocks of `sign`; 0 when none.
Memory smallest_memory(const DeviceMemory& d, int sign) {
  const std::vector<Block>& blocks = d.graph.placement.blocks;
  Memory least = 0;
  for (size_t b = 0; b < blocks.size(); ++b)
    if (d.on[b] && blocks[b].memory * sign > 0 && (least == 0 || blocks[b].memory * sign < least))
      least = blocks[b].memory * sign;
  return least;
}

// The memory-aware bound of one device (see the top of the file); 0 when it
// gives nothing.
long long memory_bound(const DeviceMemory& d, Time load) {
  const std::vector<Block>& blocks = d.graph.placement.blocks;
  Time head = LLONG_MAX, tail = LLONG_MAX, first_free = LLONG_MAX, allocating_tail = LLONG_MAX;
  Time allocating_span = 0;
  Memory allocated = 0, final_level = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (!d.on[b]) continue;
    head = std::min(head, d.earliest[b]);
    tail = std::min(tail, d.after[b]);
    final_level += blocks[b].memory;
    if (blocks[b].memory < 0) first_free = std::min(first_free, d.earliest[b]);
    if (blocks[b].memory <= 0) continue;
    allocated += blocks[b].memory;
    allocating_span = std::max(allocating_span, blocks[b].span);
    allocating_tail = std::min(allocating_tail, blocks[b].span + d.after[b]);
  }
  if (first_free == LLONG_MAX || head == LLONG_MAX) return 0;
  const Memory least_allocation = smallest_memory(d, +1);
  const long long allocating_micros = least_allocation > 0 ? std::max<Memory>(0, d.limit) / least_allocation : 0;
  const long long warm_busy =
      memory_busy(d, d.limit, +1, first_free) + zero_busy(d, +1, allocating_micros, first_free);
  const long long warm_idle = std::max<long long>(0, first_free - head - warm_busy);
  const long long bound = head + warm_idle + d.total_micros * load + tail;
  const Memory freeable = d.limit - d.total_micros * final_level;
  if (allocated == 0 || freeable < 0) return bound;
  const long long freeing_micros = freeable / smallest_memory(d, -1);
  const long long cool_busy = allocating_span + memory_busy(d, freeable, -1, LLONG_MAX) +
                              zero_busy(d, -1, freeing_micros, LLONG_MAX);
  const long long before_last = d.total_micros * allocated > d.limit ? warm_idle : 0;
  return std::max(bound, head + before_last + d.total_micros * load - cool_busy + allocating_tail);
}

// The idle-aware bound on a graph built once.
MakespanBound idle_aware_bound(const Graph& graph, long long total_micros) {
  const Placement& placement = graph.placement;
  const std::vector<Time>& load = graph.load;
  MakespanBound result;
  result.simple = simple_bound(graph, total_micros);
  result.value = graph.critical;
  for (int device = 0; device < placement.ndevs; ++device) {
    if (load[device] == 0) continue;
    DeviceIdle idle = device_idle(graph, device);
    raise_bound(result, total_micros * load[device] + idle.head + idle.tail, BoundArgument::IdleAware, device, idle.head,
                idle.tail);
  }
  if (result.simple > result.value) result.value = result.simple;  // cannot happen (Y = Z = X); kept as a guard
  return result;
}

Graph graph_of(const Placement& placement) {
  Graph graph{placement, topological_order(placement), predecessors(placement), successors(placement), {}, {}, {},
              {}, {}, 0};
  graph.reach = descendants(placement);
  graph.on.assign(placement.ndevs, std::vector<char>(placement.blocks.size(), 0));
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    for (int device : placement.blocks[b].devices) graph.on[device][b] = 1;
  graph.earliest = earliest_starts(placement);
  graph.after = chain_after(placement, graph.order);
  graph.load = device_load(placement);
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    graph.critical = std::max(graph.critical, graph.earliest[b] + placement.blocks[b].span);
  return graph;
}

}  // namespace

const char* bound_argument_name(BoundArgument argument) {
  switch (argument) {
    case BoundArgument::CriticalPath: return "critical path";
    case BoundArgument::IdleAware: return "idle-aware";
    case BoundArgument::CappedEnds: return "capped ends";
    case BoundArgument::MemoryAware: return "memory-aware";
    case BoundArgument::MemoryTime: return "memory-time";
    case BoundArgument::ExactEnds: return "exact ends";
    case BoundArgument::DeviceRelaxation: return "one-device relaxation";
  }
  return "critical path";
}

void raise_bound(MakespanBound& bound, long long value, BoundArgument argument, int device, long long idle_head,
                 long long idle_tail) {
  if (value <= bound.value) return;
  bound.value = value;
  bound.argument = argument;
  bound.device = device;
  bound.idle_head = idle_head;
  bound.idle_tail = idle_tail;
  bound.head_window = bound.tail_window = 0;
}

MakespanBound makespan_bound(const Placement& placement, long long total_micros, const std::vector<Memory>& limits) {
  if (total_micros <= 0 || placement.blocks.empty()) return {};
  const Graph graph = graph_of(placement);
  MakespanBound result = idle_aware_bound(graph, total_micros);
  const std::vector<Time>& earliest = graph.earliest;
  const std::vector<Time>& after = graph.after;
  // The ends of a device capped by N alone (solver/makespan/closed_bound/capped_ends).
  CappedEndsInput ends{&placement, &graph.reach, &earliest, &after, total_micros, 0, false, 0};
  for (ends.device = 0; ends.device < placement.ndevs; ++ends.device)
    raise_bound(result, capped_ends_bound(ends), BoundArgument::CappedEnds, ends.device);
  if (static_cast<int>(limits.size()) != placement.ndevs) return result;
  const std::vector<Time>& load = graph.load;
  const long long without = result.value;
  ends.limited = true;
  for (int device = 0; device < placement.ndevs; ++device) {
    raise_bound(result,
                memory_bound({graph, earliest, after, graph.on[device], total_micros, device, limits[device]},
                             load[device]),
                BoundArgument::MemoryAware, device);
    ends.device = device;
    ends.limit = limits[device];
    raise_bound(result, capped_ends_bound(ends), BoundArgument::CappedEnds, device);
    raise_bound(result,
                memory_time_bound({&placement, &graph.order, &earliest, &after, total_micros, device, limits[device]}),
                BoundArgument::MemoryTime, device);
  }
  result.memory_idle = result.value - without;
  return result;
}

MakespanBound makespan_bound(const Placement& placement, long long total_micros) {
  return makespan_bound(placement, total_micros, {});
}

long long makespan_lower_bound(const Placement& placement, long long total_micros, const std::vector<Memory>& limits) {
  return makespan_bound(placement, total_micros, limits).value;
}

long long makespan_lower_bound(const Placement& placement, long long total_micros) {
  return makespan_bound(placement, total_micros).value;
}

}  // namespace tessel
