// Megatron-LM's interleaved 1F1B (Narayanan et al. 2021, "virtual pipeline
// stages"): every rank holds V model chunks, local chunk c of rank r being
// global stage c * ranks + r, and runs them in the order Megatron builds.
//
// Megatron lists micro-batches in groups of G (default: the number of
// ranks): per group, chunk 0 of all of them, then chunk 1, ... Forwards follow
// this table; backwards follow it with the chunks reversed. Rank r runs
// w = 2 (ranks - r - 1) + (V - 1) G warmup forwards (at most all of them),
// then one forward / one backward alternately, then the last w backwards.
// Written from that description, so that an order Megatron prints imports to
// exactly the schedule `generate interleaved-1f1b` builds.
#include <algorithm>
#include <stdexcept>

#include "classic/schemes.hpp"

namespace tessel::classic {

std::vector<int> megatron_rank_order(int ranks, int rank, int chunks, int nmicros, int group) {
  if (group < 1) throw std::invalid_argument("the microbatch group size must be >= 1");
  // The schedule table: chunk ids in the order forwards visit them.
  std::vector<int> table;
  for (int first = 0; first < nmicros; first += group) {
    int last = std::min(first + group, nmicros);
    for (int chunk = 0; chunk < chunks; ++chunk)
      for (int micro = first; micro < last; ++micro) table.push_back(chunk);
  }
  int total = static_cast<int>(table.size());
  int warmup = std::min(2 * (ranks - rank - 1) + (chunks - 1) * group, total);
  // Megatron runs everything as warmup when there are exactly as many
  // micro-batches as ranks.
  if (nmicros == ranks) warmup = total;
  auto forward = [&](int i) { return table[i] + 1; };
  auto backward = [&](int i) { return -(chunks - table[i]); };
  std::vector<int> order;
  for (int i = 0; i < warmup; ++i) order.push_back(forward(i));
  for (int i = warmup; i < total; ++i) {
    order.push_back(forward(i));
    order.push_back(backward(i - warmup));
  }
  for (int i = total - warmup; i < total; ++i) order.push_back(backward(i));
  return order;
}

RankOrders megatron_actions(const std::vector<std::vector<int>>& orders, int ranks, bool split) {
  RankOrders actions(orders.size());
  for (int rank = 0; rank < static_cast<int>(orders.size()); ++rank) {
    std::vector<int> forwards, backwards;  // per chunk: micro-batches seen so far
    for (int code : orders[rank]) {
      if (code == 0) throw std::invalid_argument("Megatron order entry 0");
      int chunk = std::abs(code) - 1;
      if (static_cast<int>(forwards.size()) <= chunk) {
        forwards.resize(chunk + 1, 0);
        backwards.resize(chunk + 1, 0);
      }
      int stage = chunk * ranks + rank;
      if (code > 0) {
        actions[rank].push_back({'F', stage, forwards[chunk]++});
        continue;
      }
      int micro = backwards[chunk]++;
      actions[rank].push_back({'B', stage, micro});
      if (split) actions[rank].push_back({'W', stage, micro});
    }
  }
  return actions;
}

}  // namespace tessel::classic
