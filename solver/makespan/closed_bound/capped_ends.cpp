// The memory-capped ends bound (see the header).
//
// Why it is a lower bound. Fix a device d, its blocks X, h the earliest
// start of any of them and t the shortest chain after one (the simple
// bound's head and tail). Pick b1 and b2 in X with b1 = b2 or b1 an
// ancestor of b2. In any schedule of N micro-batches with makespan T let
// s be the start of the first instance of b1 and u the end of the last
// instance of b2. s <= u: b1 runs before b2 in the micro-batch of that last
// b2. Split d's busy time N load(d) into B (before s), the middle (at
// most u - s) and A (after u). Then
//   s >= max(e(b1), h + B)        e(b1): b1's earliest start
//   T >= u + max(a(b2), A + t)    a(b2): the chain after b2, which follows
//                                 the last b2; d's last block ends by T - t
// so T >= N load(d) + max(e(b1) - B, h) + max(a(b2) - A, t), and the
// right side only falls as B and A grow: any upper bounds on B and A
// give a lower bound on T.
//
// B: only instances started before s run before s, and none of them is of
// b1 or a descendant of b1 (each follows its own micro-batch's b1). With n_c
// the instances of block c started before s, the memory of d just before s
// is sum n_c m_c <= M (memory changes only when a block starts), 0 <= n_c
// <= N, and n_c <= n_a for an ancestor a of c. B <= the largest sum n_c
// span_c under these constraints. Mirror image for A: r_c, the instances of c
// that start at u or later, are of blocks that are not b2 or its ancestors,
// r_c <= r_w for a descendant w of c, and since every other instance has
// started before u, N sum_X m - sum r_c m_c <= M.
//
// The largest sum is bounded by a relaxation, so it stays an upper bound:
// the blocks that use the budget (allocating before s, freeing after u) are
// anchors; every other block is tied to one anchor it must follow (before s:
// an anchor ancestor; after u: an anchor descendant) and counted as often as
// its anchor, which only loosens the memory sum (a block of the other sign
// counted more often gives budget back); blocks tied to none are counted N
// times. Then every bundle (anchor and its tied blocks) has a span and a
// net memory per micro-batch: those that use no net memory are counted N
// times, the rest fill the budget best span per unit of memory first,
// fractionally (a fractional knapsack, the linear relaxation).
//
// Zero bubble, S stages, F/B/W spans, memory M on the last device (F
// allocates, W frees): b1 = b2 = its B, whose chain after is (S - 1) B + W;
// after the last B only W can run, at most M of them pending, so the last
// device ends at least (S - 1) F + N (F + B + W) - M W + (S - 1) B + W.
#include "solver/makespan/closed_bound/capped_ends.hpp"

#include <algorithm>
#include <climits>

namespace tessel {
namespace {

// Devices with more blocks than this are not tried (the terms cost blocks^3
// per device; a bound is asked for before every answer). Skipping only
// weakens the bound. A size guard for a bound also computed outside a
// search (no Tuning there), not a knob.
constexpr size_t kMostBlocks = 128;

struct Bundle {
  long long span = 0;    // per micro-batch
  long long memory = 0;  // net, signed so that > 0 uses the budget
};

// The most busy steps of `set` (block indices on d) with counts in [0, N]
// and sum count x sign x memory <= budget, relaxed as at the top of the file.
// sign +1: before s (anchors allocate, others follow an anchor ancestor);
// sign -1: after u (anchors free, others precede an anchor descendant).
long long capped_work(const CappedEndsInput& in, const std::vector<int>& set, int sign, long long budget) {
  const std::vector<Block>& blocks = in.placement->blocks;
  const auto& reach = *in.reach;
  std::vector<int> anchor_of(blocks.size(), -1);
  std::vector<Bundle> bundles(blocks.size());
  __int128 work = 0, room = budget;
  for (int c : set) {
    const long long use = sign * blocks[c].memory;
    if (use > 0) {
      bundles[c].span += blocks[c].span;
      bundles[c].memory += use;
      continue;
    }
    int anchor = -1;
    for (int a : set)
      if (sign * blocks[a].memory > 0 && (sign > 0 ? reach[a][c] : reach[c][a])) anchor = a;
    if (anchor < 0) {
      work += static_cast<__int128>(in.total_micros) * blocks[c].span;
      room -= static_cast<__int128>(in.total_micros) * use;
      continue;
    }
    bundles[anchor].span += blocks[c].span;
    bundles[anchor].memory += use;
  }
  std::vector<Bundle> paying;
  for (int c : set) {
    if (sign * blocks[c].memory <= 0) continue;
    if (bundles[c].memory > 0) {
      paying.push_back(bundles[c]);
      continue;
    }
    work += static_cast<__int128>(in.total_micros) * bundles[c].span;
    room -= static_cast<__int128>(in.total_micros) * bundles[c].memory;
  }
  std::sort(paying.begin(), paying.end(), [](const Bundle& x, const Bundle& y) {
    return static_cast<__int128>(x.span) * y.memory > static_cast<__int128>(y.span) * x.memory;
  });
  for (const Bundle& bundle : paying) {
    if (room <= 0) break;
    const __int128 all = static_cast<__int128>(in.total_micros) * bundle.memory;
    if (all <= room) {
      work += static_cast<__int128>(in.total_micros) * bundle.span;
      room -= all;
      continue;
    }
    work += room * bundle.span / bundle.memory;
    room = 0;
  }
  return work > LLONG_MAX / 4 ? LLONG_MAX / 4 : static_cast<long long>(work);
}

// No limit: a budget no set of N micro-batches can use up.
long long budget_or_unlimited(const CappedEndsInput& in, long long budget) {
  return in.limited ? budget : LLONG_MAX / 4;
}

}  // namespace

long long capped_ends_bound(const CappedEndsInput& in) {
  const std::vector<Block>& blocks = in.placement->blocks;
  const auto& reach = *in.reach;
  const auto& earliest = *in.earliest;
  const auto& after = *in.after;
  std::vector<int> own;
  for (size_t b = 0; b < blocks.size(); ++b)
    if (std::find(blocks[b].devices.begin(), blocks[b].devices.end(), in.device) != blocks[b].devices.end())
      own.push_back(static_cast<int>(b));
  if (own.empty() || own.size() > kMostBlocks) return 0;
  Time head = LLONG_MAX, tail = LLONG_MAX, load = 0;
  Memory final_level = 0;
  for (int b : own) {
    head = std::min(head, earliest[b]);
    tail = std::min(tail, after[b]);
    load += blocks[b].span;
    final_level += blocks[b].memory;
  }
  // The head term of each b1 and the tail term of each b2.
  std::vector<long long> head_term(own.size()), tail_term(own.size());
  for (size_t i = 0; i < own.size(); ++i) {
    const int b = own[i];
    std::vector<int> before, later;  // not b or its descendants; not b or its ancestors
    for (int c : own) {
      if (c != b && !reach[b][c]) before.push_back(c);
      if (c != b && !reach[c][b]) later.push_back(c);
    }
    const long long busy_before = capped_work(in, before, +1, budget_or_unlimited(in, in.limit));
    const long long busy_after =
        capped_work(in, later, -1, budget_or_unlimited(in, in.limit - in.total_micros * final_level));
    head_term[i] = std::max(earliest[b] - busy_before, head);
    tail_term[i] = std::max(after[b] - busy_after, tail);
  }
  long long best = head + tail;
  for (size_t i = 0; i < own.size(); ++i) {
    best = std::max({best, head_term[i] + tail, head + tail_term[i]});
    for (size_t j = 0; j < own.size(); ++j)
      if (i == j || reach[own[i]][own[j]]) best = std::max(best, head_term[i] + tail_term[j]);
  }
  return in.total_micros * load + best;
}

}  // namespace tessel
