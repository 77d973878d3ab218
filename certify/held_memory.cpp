// Memory counted by allocation/free pairs (see the header for what and why).
//
// Why the pair's count is the definition's: for integers A <= B, the steps
// x = f (mod P) in [A, B) number ceil((B - f) / P) - ceil((A - f) / P), and
// ceil((q P + p - f) / P) = q + [p > f] for p, f in [0, P). So the count is
//   (q(b) - [p(b) <= f]) - (q(a) - [p(a) <= f]),
// exactly the pair's share m ([p(a) <= f] - q(a)) - m ([p(b) <= f] - q(b)) of
// M(f); summed over a split of every delta into pairs it is M(f). A free
// descends from its allocation, so s(a) < s(b) (every edge adds a span >= 1)
// and the count is never negative.
#include "certify/held_memory.hpp"

#include <algorithm>

namespace tessel::certify {
namespace {

// reach[a][b]: b descends from a (one micro-batch's edges).
std::vector<std::vector<char>> descendants(const Placement& placement) {
  const size_t n = placement.blocks.size();
  std::vector<std::vector<int>> next(n);
  for (const Edge& edge : placement.edges) next[edge.from].push_back(edge.to);
  std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
  for (size_t a = 0; a < n; ++a) {
    std::vector<int> stack(next[a].begin(), next[a].end());
    while (!stack.empty()) {
      const int b = stack.back();
      stack.pop_back();
      if (reach[a][b]) continue;
      reach[a][b] = 1;
      stack.insert(stack.end(), next[b].begin(), next[b].end());
    }
  }
  return reach;
}

// The counts of one pair at phase f, as literals "count >= v" for v in
// 1..most; a count above `most` is forbidden outright (the other terms are
// never negative, so one pair alone above the bound breaks it).
std::vector<int> pair_counts(Builder& builder, const StartLadders& ladders, int a, int b, long long f,
                             long long most) {
  const long long period = ladders.period;
  std::vector<int> at_least;
  for (long long v = 1; v <= most + 1; ++v) {
    const int count = v <= most ? builder.fresh() : -kTrue;
    if (count != -kTrue && !at_least.empty()) builder.add({-count, at_least.back()});
    // s(a) <= x and s(b) >= x + (v - 1) P + 1 put v steps of phase f in [s(a), s(b)).
    for (long long x = f; x + (v - 1) * period + 1 <= ladders.last[b]; x += period) {
      add_clause(builder, {ge(ladders, a, x + 1), -ge(ladders, b, x + (v - 1) * period + 1), count});
      if (x >= ladders.last[a]) break;  // s(a) <= x holds from here on: later x are weaker
    }
    if (count != -kTrue) at_least.push_back(count);
  }
  return at_least;
}

}  // namespace

DevicePairs pair_memory(const Placement& placement, int device) {
  DevicePairs result;
  std::vector<long long> left(placement.blocks.size(), 0);
  std::vector<int> frees;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.memory == 0 || !std::count(block.devices.begin(), block.devices.end(), device)) continue;
    if (block.memory > 0) left[b] = block.memory;
    else frees.push_back(static_cast<int>(b));
  }
  const std::vector<std::vector<char>> reach = descendants(placement);
  for (int b : frees) {
    long long need = -placement.blocks[b].memory;
    for (size_t a = 0; a < placement.blocks.size() && need > 0; ++a) {
      if (!reach[a][b] || left[a] == 0) continue;
      const long long amount = std::min(need, left[a]);
      result.pairs.push_back({static_cast<int>(a), b, amount});
      left[a] -= amount, need -= amount;
    }
    if (need > 0) return {};
  }
  result.paired = std::all_of(left.begin(), left.end(), [](long long x) { return x == 0; });
  if (!result.paired) result.pairs.clear();
  return result;
}

void encode_paired_memory(Builder& builder, const StartLadders& ladders, const std::vector<MemoryPair>& pairs,
                          int copies, int per_copy, long long bound) {
  if (pairs.empty()) return;  // as the signed form: a device without memory deltas is not bounded
  if (bound < 0) return builder.add({});
  for (long long f = 0; f < ladders.period; ++f) {
    std::vector<std::pair<long long, int>> terms;
    long long total = 0;  // the sum's largest value
    for (int c = 0; c < copies; ++c)
      for (const MemoryPair& pair : pairs) {
        const int a = c * per_copy + pair.allocates, b = c * per_copy + pair.frees;
        // No count passes the steps of phase f before b's last start.
        const long long most = std::min(bound / pair.amount, ladders.last[b] / ladders.period + 1);
        for (int count : pair_counts(builder, ladders, a, b, f, most)) {
          terms.push_back({pair.amount, count});
          total += pair.amount;
        }
      }
    if (total > bound) at_most(builder, terms, bound);
  }
}

}  // namespace tessel::certify
