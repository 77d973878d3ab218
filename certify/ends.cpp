// The ends of a schedule as CNF (see the header for what and why).
// Variables, for instance i = (micro-batch m, block b), m < M (micros_in_window)
// and its earliest start lo(b) (the longest chain before b):
//   ge(i,x), x in lo(b)+1..W: s(i) >= x, where s(i) = W means "starts at W
//                             or later" (outside the question);
//   cov(i,u), u in lo(b)..W-1: i runs at step u;
//   busy(u), u in 0..W-1:      the device of the question works at step u.
// Micro-batches are alike, so they are numbered by the start of block 0
// (outside last): s(m-1, 0) <= s(m, 0), and those with no instance inside
// come after all the others.
#include "certify/ends.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace tessel::certify {
namespace {

constexpr int kTrue = INT_MAX;  // a literal that is always true; -kTrue always false

// Adds the clause unless a literal is always true; drops the false ones.
void clause(Builder& builder, std::vector<int> literals) {
  std::vector<int> kept;
  for (int literal : literals) {
    if (literal == kTrue) return;
    if (literal != -kTrue) kept.push_back(literal);
  }
  builder.add(std::move(kept));
}

Placement reversed(const Placement& placement) {
  Placement back = placement;
  for (Edge& edge : back.edges) std::swap(edge.from, edge.to);
  return back;
}

// Blocks in an order where every edge goes forward; MalformedError on a cycle.
std::vector<int> topological(const Placement& placement) {
  const int n = static_cast<int>(placement.blocks.size());
  std::vector<int> indegree(n, 0), order;
  for (const Edge& edge : placement.edges) ++indegree[edge.to];
  for (int b = 0; b < n; ++b)
    if (indegree[b] == 0) order.push_back(b);
  for (size_t i = 0; i < order.size(); ++i)
    for (const Edge& edge : placement.edges)
      if (edge.from == order[i] && --indegree[edge.to] == 0) order.push_back(edge.to);
  if (static_cast<int>(order.size()) != n) throw MalformedError("placement.edges: a cycle");
  return order;
}

// lo(b): the longest chain of spans and delays before b starts.
std::vector<long long> earliest(const Placement& placement) {
  std::vector<long long> lo(placement.blocks.size(), 0);
  for (int b : topological(placement))
    for (const Edge& edge : placement.edges)
      if (edge.from == b)
        lo[edge.to] = std::max(lo[edge.to], lo[b] + placement.blocks[b].span + edge.delay);
  return lo;
}

struct Layout {
  long long window = 0;
  int micros = 0, nblocks = 0;
  std::vector<long long> lo;     // per block, capped at the window
  std::vector<int> ge_base;      // per instance m * nblocks + b
  std::vector<int> cov_base;
};

int ge(const Layout& layout, int i, long long x) {
  const long long lo = layout.lo[i % layout.nblocks];
  if (x <= lo) return kTrue;
  return layout.ge_base[i] + static_cast<int>(x - lo) - 1;
}

int cov(const Layout& layout, int i, long long u) {
  const long long lo = layout.lo[i % layout.nblocks];
  if (u < lo || u >= layout.window) return -kTrue;
  return layout.cov_base[i] + static_cast<int>(u - lo);
}

// Starts, edges and the numbering of micro-batches.
void encode_starts(Builder& builder, Layout& layout, const Placement& placement) {
  const long long window = layout.window;
  const int instances = layout.micros * layout.nblocks;
  for (int i = 0; i < instances; ++i) {
    layout.ge_base.push_back(builder.cnf.variables + 1);
    for (long long x = layout.lo[i % layout.nblocks] + 1; x <= window; ++x) builder.fresh();
    for (long long x = layout.lo[i % layout.nblocks] + 2; x <= window; ++x)
      clause(builder, {-ge(layout, i, x), ge(layout, i, x - 1)});
  }
  for (int m = 0; m < layout.micros; ++m)
    for (const Edge& edge : placement.edges) {
      const int a = m * layout.nblocks + edge.from, b = m * layout.nblocks + edge.to;
      const long long gap = placement.blocks[edge.from].span + edge.delay;
      for (long long x = layout.lo[edge.from]; x <= window; ++x)
        clause(builder, {-ge(layout, a, x), ge(layout, b, std::min(x + gap, window))});
    }
  for (int m = 1; m < layout.micros; ++m)
    for (long long x = layout.lo[0] + 1; x <= window; ++x)
      clause(builder, {-ge(layout, (m - 1) * layout.nblocks, x), ge(layout, m * layout.nblocks, x)});
}

// cov(i,u) <-> s(i) in [u - span + 1, u]; on every device at most one
// instance runs at each step.
void encode_occupation(Builder& builder, Layout& layout, const Placement& placement) {
  const int instances = layout.micros * layout.nblocks;
  for (int i = 0; i < instances; ++i) {
    const long long span = placement.blocks[i % layout.nblocks].span;
    layout.cov_base.push_back(builder.cnf.variables + 1);
    for (long long u = layout.lo[i % layout.nblocks]; u < layout.window; ++u) {
      const int c = builder.fresh();
      clause(builder, {-c, ge(layout, i, u - span + 1)});
      clause(builder, {-c, -ge(layout, i, u + 1)});
      clause(builder, {c, -ge(layout, i, u - span + 1), ge(layout, i, u + 1)});
    }
  }
  for (int d = 0; d < placement.ndevs; ++d)
    for (long long u = 0; u < layout.window; ++u) {
      std::vector<int> running;
      for (int i = 0; i < instances; ++i) {
        const Block& block = placement.blocks[i % layout.nblocks];
        if (std::count(block.devices.begin(), block.devices.end(), d) && cov(layout, i, u) != -kTrue)
          running.push_back(cov(layout, i, u));
      }
      at_most_one(builder, running);
    }
}

// The memory of every device at every step of the window. Forward: the
// static memory plus what the instances started by u allocate. Backward
// (tail): the level after all N micro-batches less what the instances that
// start after the real step allocate, i.e. those that end by u read backwards.
void encode_memory(Builder& builder, const Layout& layout, const Placement& placement,
                   const std::vector<long long>& memory_limit, const EndQuestion& question) {
  const int instances = layout.micros * layout.nblocks;
  for (int d = 0; d < placement.ndevs; ++d) {
    long long level = placement.static_memory[d];
    if (question.tail)
      for (const Block& block : placement.blocks)
        level += std::count(block.devices.begin(), block.devices.end(), d) * block.memory * question.micros;
    for (long long u = 0; u < layout.window; ++u) {
      long long bound = memory_limit[d] - level;
      std::vector<std::pair<long long, int>> terms;
      for (int i = 0; i < instances; ++i) {
        const Block& block = placement.blocks[i % layout.nblocks];
        if (block.memory == 0 || !std::count(block.devices.begin(), block.devices.end(), d)) continue;
        const long long weight = question.tail ? -block.memory : block.memory;
        const int literal = question.tail ? -ge(layout, i, u - block.span + 1) : -ge(layout, i, u + 1);
        if (literal == kTrue) bound -= weight;
        else if (literal != -kTrue) terms.push_back({weight, literal});
      }
      for (auto& [weight, literal] : terms)
        if (weight < 0) bound -= weight, weight = -weight, literal = -literal;
      at_most(builder, terms, bound);
    }
  }
}

// The device of the question is busy at most where some instance runs, and
// idle at most idle - 1 steps.
void encode_idle(Builder& builder, const Layout& layout, const Placement& placement, const EndQuestion& question) {
  const int instances = layout.micros * layout.nblocks;
  std::vector<std::pair<long long, int>> idle;
  for (long long u = 0; u < layout.window; ++u) {
    const int busy = builder.fresh();
    std::vector<int> some = {-busy};
    for (int i = 0; i < instances; ++i) {
      const Block& block = placement.blocks[i % layout.nblocks];
      if (std::count(block.devices.begin(), block.devices.end(), question.device)) some.push_back(cov(layout, i, u));
    }
    clause(builder, some);
    idle.push_back({1, -busy});
  }
  at_most(builder, idle, question.idle - 1);
}

}  // namespace

long long micros_in_window(const Placement& placement, long long window, long long micros) {
  std::vector<bool> has_input(placement.blocks.size(), false);
  for (const Edge& edge : placement.edges) has_input[edge.to] = true;
  long long count = 0;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (!has_input[b]) count += (window + placement.blocks[b].span - 1) / placement.blocks[b].span;
  return std::min(count, micros);
}

std::optional<Placement> without_fillers(const Placement& placement) {
  Placement rest = placement;
  rest.blocks.clear(), rest.edges.clear();
  std::vector<int> index(placement.blocks.size(), -1);
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    std::vector<int> devices = block.devices;
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    if (block.memory == 0 && static_cast<int>(devices.size()) == placement.ndevs) continue;  // a filler
    index[b] = static_cast<int>(rest.blocks.size());
    rest.blocks.push_back(block);
  }
  if (rest.blocks.empty() || rest.blocks.size() == placement.blocks.size()) return std::nullopt;
  for (const Edge& edge : placement.edges) {
    if (edge.delay != 0) return std::nullopt;
    if (index[edge.from] >= 0 && index[edge.to] >= 0) rest.edges.push_back({index[edge.from], index[edge.to], 0});
  }
  return rest;
}

long long critical_path(const Placement& placement) {
  const std::vector<long long> lo = earliest(placement);
  long long longest = 0;
  for (size_t b = 0; b < placement.blocks.size(); ++b) longest = std::max(longest, lo[b] + placement.blocks[b].span);
  return longest;
}

long long device_load(const Placement& placement, int device) {
  long long load = 0;
  for (const Block& block : placement.blocks)
    for (int d : block.devices) load += d == device ? block.span : 0;
  return load;
}

Cnf encode_end(const Placement& placement, const std::vector<long long>& memory_limit, const EndQuestion& question) {
  if (question.window < 1 || question.idle < 1 || question.micros < 1)
    throw MalformedError("an end's window, idle and micro-batches must be >= 1");
  if (question.device < 0 || question.device >= placement.ndevs)
    throw MalformedError("an end's device " + std::to_string(question.device) + " is not a device of the placement");
  if (!memory_limit.empty() && static_cast<int>(memory_limit.size()) != placement.ndevs)
    throw MalformedError("memory_limit: not one per device");
  const Placement oriented = question.tail ? reversed(placement) : placement;
  Layout layout;
  layout.window = question.window;
  layout.nblocks = static_cast<int>(oriented.blocks.size());
  layout.micros = static_cast<int>(micros_in_window(oriented, question.window, question.micros));
  for (long long lo : earliest(oriented)) layout.lo.push_back(std::min(lo, question.window));
  Builder builder;
  encode_starts(builder, layout, oriented);
  encode_occupation(builder, layout, oriented);
  if (!memory_limit.empty()) encode_memory(builder, layout, oriented, memory_limit, question);
  encode_idle(builder, layout, oriented, question);
  return builder.cnf;
}

}  // namespace tessel::certify
